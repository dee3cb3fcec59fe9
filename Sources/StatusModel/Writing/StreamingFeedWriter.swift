import FeedLayoutSupport
import Foundation

/// Writes a feed status by status, in constant memory: JSON Lines, or Weibo JSON
/// (`{"statuses":[…]}`), to standard output, an open file handle or a file written atomically.
///
/// Output is byte-identical to `FeedWriter.data(_:format:)` for the same statuses.
/// Not thread-safe: use one writer from one thread.
public final class StreamingFeedWriter {
    private enum Sink {
        case handle(FileHandle)
        case atomic(AtomicFileWriter)
    }

    private let sink: Sink
    private let format: FeedFormat
    private let name: String
    private var buffer: [UInt8] = []
    private var written = 0
    private var finished = false
    private static let flushThreshold = 1 << 18

    /// Writes to an open handle (for example `FileHandle.standardOutput`); `name` is used in errors.
    /// `format` MUST be `.jsonLines` or `.weiboJSON`.
    public init(handle: FileHandle, format: FeedFormat, name: String = "<stdout>") {
        precondition(format == .jsonLines || format == .weiboJSON, "only JSON and JSON Lines stream")
        sink = .handle(handle)
        self.format = format
        self.name = name
        start()
    }

    /// Writes to `url` through a temporary file renamed into place by `finish()`; nothing appears
    /// at `url` if the writer is dropped unfinished. `format` MUST be `.jsonLines` or `.weiboJSON`.
    public init(atomicallyTo url: URL, format: FeedFormat) throws(StatusModelError) {
        precondition(format == .jsonLines || format == .weiboJSON, "only JSON and JSON Lines stream")
        sink = .atomic(try AtomicFileWriter(url: url))
        self.format = format
        name = url.pathAsGiven
        start()
    }

    private func start() {
        buffer.reserveCapacity(Self.flushThreshold + (1 << 16))
        if format == .weiboJSON { buffer.append(contentsOf: Array("{\"statuses\":[\n".utf8)) }
    }

    /// Appends one status.
    public func write(_ status: Status) throws(StatusModelError) {
        precondition(!finished, "write after finish()")
        if format == .weiboJSON {
            if written > 0 { buffer.append(contentsOf: Array(",\n".utf8)) }
            FeedWriter.json(status, into: &buffer)
        } else {
            FeedWriter.jsonLine(status, into: &buffer)
        }
        written += 1
        if buffer.count >= Self.flushThreshold { try flush() }
    }

    /// Writes the closing bytes, flushes, and (for atomic output) renames the file into place.
    public func finish() throws(StatusModelError) {
        guard !finished else { return }
        finished = true
        if format == .weiboJSON { buffer.append(contentsOf: Array("\n]}\n".utf8)) }
        try flush()
        if case .atomic(let w) = sink { try w.commit() }
    }

    private func flush() throws(StatusModelError) {
        guard !buffer.isEmpty else { return }
        switch sink {
        case .handle(let h):
            do {
                try h.write(contentsOf: buffer)
            } catch {
                throw .unwritable(file: name, reason: FeedLoader.readableReason(error))
            }
        case .atomic(let w):
            try w.write(Data(buffer))
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
