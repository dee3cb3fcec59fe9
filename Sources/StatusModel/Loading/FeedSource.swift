import Foundation

/// An opened feed input: JSON Lines, read as a stream of chunks of whole lines; Weibo JSON, read
/// as a stream of chunks of whole statuses (the elements of its statuses array); a large model
/// property list, held whole with its statuses found, to be read and decoded in batches; or any
/// other format, loaded whole (so that its errors are known before anything is done with it).
package enum FeedSource {
    case jsonLines(JSONLinesReader)
    case jsonDocument(JSONDocumentReader)
    case plistElements(PlistElements)
    case loaded(LoadResult)

    /// The name errors give for standard input.
    package static let standardInputName = "<stdin>"

    /// Opens `path` (`-` for standard input), detecting the format from the content.
    ///
    /// - Parameters:
    ///   - path: a file, or `-` for standard input.
    ///   - options: limits and the invalid-status policy of the load.
    ///   - streaming: when false, JSON Lines and Weibo JSON are loaded whole too (for a consumer
    ///     that reads the statuses more than once from standard input, which cannot be read again).
    /// - Throws: `StatusModelError`, naming the file (`<stdin>` for standard input).
    package static func open(_ path: String, options: LoadOptions = LoadOptions(), streaming: Bool = true) throws(StatusModelError)
        -> FeedSource
    {
        let input: InputFile
        if path == "-" {
            input = InputFile(descriptor: 0, name: standardInputName, prefix: [])
        } else {
            let url = URL(fileURLWithPath: path)
            let file = try InputFile(url: url)
            guard file.isRegularFile else {
                // A pipe, a FIFO or a device: opened once and read like standard input (opening
                // it again would find its data gone, or wait for a writer that has left).
                return try open(once: file, options: options, streaming: streaming)
            }
            let format: FeedFormat
            if let forced = options.format { format = forced } else { format = try FeedLoader.detectFormat(of: url) }
            if format == .jsonLines && streaming { return .jsonLines(try JSONLinesReader(url: url, options: options)) }
            if format == .weiboJSON && streaming { return .jsonDocument(try JSONDocumentReader(url: url, options: options)) }
            // The format is known: the load does not detect it again (a plist is still told
            // classic from full model by its keys).
            var detected = options
            detected.format = format
            if format == .modelPlist && streaming {
                let bytes = try file.readAll()
                if let elements = PlistElements.split(bytes, fileName: file.name, options: options) { return .plistElements(elements) }
                return .loaded(try FeedLoader.load(bytes: bytes, fileName: file.name, options: detected))
            }
            return .loaded(try FeedLoader.load(contentsOf: url, options: detected))
        }
        return try open(once: input, options: options, streaming: streaming)
    }

    /// Whether the source is read as a stream of chunks (and so read again from its file by a
    /// consumer that needs its statuses twice).
    package var isStreamed: Bool {
        switch self {
        case .jsonLines, .jsonDocument: true
        case .plistElements, .loaded: false
        }
    }

    /// Whether `path` can be read only once: standard input (`-`), a pipe, a FIFO or a device.
    /// Jobs that read their inputs more than once load these whole.
    package static func isReadOnce(_ path: String) -> Bool {
        guard path != "-" else { return true }
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) != S_IFREG && (info.st_mode & S_IFMT) != S_IFDIR
    }

    /// An input read once (standard input, a pipe): read until the format is known, then the rest
    /// streamed (JSON Lines, Weibo JSON) or read whole.
    private static func open(once input: InputFile, options: LoadOptions, streaming: Bool) throws(StatusModelError) -> FeedSource {
        var head: [UInt8] = []
        var format = FeedFormat.weiboJSON
        if let forced = options.format {
            format = forced
        } else {
            format = try FeedLoader.detectFormat(fileName: input.name) { () throws(StatusModelError) -> ArraySlice<UInt8>? in
                var chunk = [UInt8](repeating: 0, count: FeedLoader.chunkSize)
                let n = try chunk.withUnsafeMutableBufferPointer { (b) throws(StatusModelError) -> Int in try input.read(into: b) }
                guard n > 0 else { return nil }
                head += chunk[0..<n]
                return chunk[0..<n]
            }
        }
        if format == .jsonLines && streaming {
            input.unread(head)
            return .jsonLines(JSONLinesReader(file: input, options: options))
        }
        if format == .weiboJSON && streaming {
            input.unread(head)
            return .jsonDocument(JSONDocumentReader(file: input, options: options))
        }
        let bytes = head + (try input.readAll())
        if format == .modelPlist && streaming, let elements = PlistElements.split(bytes, fileName: input.name, options: options) {
            return .plistElements(elements)
        }
        var loadOptions = options
        loadOptions.format = format
        return .loaded(try FeedLoader.load(bytes: bytes, fileName: input.name, options: loadOptions))
    }
}
