import Foundation

/// An opened feed input: JSON Lines, read as a stream of chunks, or any other format, loaded whole
/// (so that its errors are known before anything is done with it).
package enum FeedSource {
    case jsonLines(JSONLinesReader)
    case loaded(LoadResult)

    /// The name errors give for standard input.
    package static let standardInputName = "<stdin>"

    /// Opens `path` (`-` for standard input), detecting the format from the content.
    ///
    /// - Parameters:
    ///   - path: a file, or `-` for standard input.
    ///   - options: limits and the invalid-status policy of the load.
    ///   - streaming: when false, JSON Lines are loaded whole too (for a consumer that reads the
    ///     statuses more than once from standard input, which cannot be read again).
    /// - Throws: `StatusModelError`, naming the file (`<stdin>` for standard input).
    package static func open(_ path: String, options: LoadOptions = LoadOptions(), streaming: Bool = true) throws(StatusModelError)
        -> FeedSource
    {
        guard path == "-" else {
            let url = URL(fileURLWithPath: path)
            let format: FeedFormat
            if let forced = options.format { format = forced } else { format = try FeedLoader.detectFormat(of: url) }
            if format == .jsonLines && streaming { return .jsonLines(try JSONLinesReader(url: url, options: options)) }
            // The format is known: the load does not detect it again (a plist is still told
            // classic from full model by its keys).
            var detected = options
            detected.format = format
            return .loaded(try FeedLoader.load(contentsOf: url, options: detected))
        }
        // Standard input: read until the format is known, then stream the rest (JSON Lines) or
        // read it whole.
        let input = InputFile(descriptor: 0, name: standardInputName, prefix: [])
        var head: [UInt8] = []
        var format = FeedFormat.weiboJSON
        if let forced = options.format {
            format = forced
        } else {
            format = try FeedLoader.detectFormat(fileName: standardInputName) { () throws(StatusModelError) -> ArraySlice<UInt8>? in
                var chunk = [UInt8](repeating: 0, count: FeedLoader.chunkSize)
                let n = try chunk.withUnsafeMutableBufferPointer { (b) throws(StatusModelError) -> Int in try input.read(into: b) }
                guard n > 0 else { return nil }
                head += chunk[0..<n]
                return chunk[0..<n]
            }
        }
        if format == .jsonLines && streaming {
            return .jsonLines(JSONLinesReader(fileDescriptor: 0, fileName: standardInputName, prefix: head, options: options))
        }
        let rest = try input.readAll()
        var loadOptions = options
        loadOptions.format = format
        return .loaded(try FeedLoader.load(data: Data(head + rest), fileName: standardInputName, options: loadOptions))
    }
}
