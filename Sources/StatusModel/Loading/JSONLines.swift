// JSON Lines in chunks: a reader that cuts a file (or standard input) into chunks of whole lines,
// numbered, and a decoder that turns one chunk into statuses. The two are separate so that chunks
// can be decoded on several threads while one thread reads: the reader numbers lines and statuses
// as it cuts (a status's index counts the non-blank lines before it), so a chunk decodes to the
// same statuses and the same errors wherever and whenever it is decoded.
import FeedLayoutSupport
import Foundation

/// Whole lines of a JSON Lines input and where they start.
public struct JSONLinesChunk: Sendable {
    /// The lines' bytes; every line but possibly the input's last ends with a newline.
    public let bytes: [UInt8]
    /// The 1-based number of the first line.
    public let firstLine: Int
    /// The index of the first status (non-blank line) among the input's statuses.
    public let firstIndex: Int
    /// Lines in the chunk, blank ones included.
    public let lineCount: Int
    /// Non-blank lines in the chunk (statuses, valid or not).
    public let statusCount: Int

    public init(bytes: [UInt8], firstLine: Int, firstIndex: Int, lineCount: Int, statusCount: Int) {
        self.bytes = bytes
        self.firstLine = firstLine
        self.firstIndex = firstIndex
        self.lineCount = lineCount
        self.statusCount = statusCount
    }

    /// A whole input as one chunk (a UTF-8 byte order mark at its start is dropped).
    init(wholeInput: [UInt8]) {
        let bytes = wholeInput.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(wholeInput.dropFirst(3)) : wholeInput
        let counts = bytes.withUnsafeBufferPointer { JSONLinesReader.countLines($0) }
        self.init(bytes: bytes, firstLine: 1, firstIndex: 0, lineCount: counts.lines, statusCount: counts.statuses)
    }
}

/// Reads a JSON Lines input as chunks of whole lines, in order, in memory bounded by the chunk
/// size and the longest line (`LoadOptions.maxLineBytes`).
///
/// Thread-safety: one reader is used by one thread at a time.
package final class JSONLinesReader {
    /// The input's name in errors (the file's last path component, or `<stdin>`).
    package let fileName: String
    private let file: InputFile
    private let maxLineBytes: Int
    private var pending: [UInt8] = []
    private var atEnd = false
    private var started = false
    private var nextLine = 1
    private var nextIndex = 0

    /// Opens the file at `url`.
    package convenience init(url: URL, options: LoadOptions = LoadOptions()) throws(StatusModelError) {
        try self.init(file: InputFile(url: url), options: options)
    }

    /// Reads from an open file descriptor (standard input is 0), after `prefix`: bytes already
    /// read from it (to detect its format). The descriptor is not closed.
    package convenience init(fileDescriptor: Int32, fileName: String, prefix: [UInt8] = [], options: LoadOptions = LoadOptions()) {
        self.init(file: InputFile(descriptor: fileDescriptor, name: fileName, prefix: prefix), options: options)
    }

    init(file: InputFile, options: LoadOptions) {
        self.file = file
        fileName = file.name
        maxLineBytes = options.maxLineBytes
    }

    /// The next chunk: whole lines of about `targetBytes` (more when one line is longer), nil at
    /// the end of the input.
    /// - Throws: `.unreadable` when reading fails, `.malformed` for a line longer than the limit.
    package func next(targetBytes: Int = 1 << 20) throws(StatusModelError) -> JSONLinesChunk? {
        while !atEnd && pending.count < targetBytes {
            // At most 1 MiB a read: room for a whole large batch was zeroed on each call.
            try fill(min(1 << 20, max(1 << 16, targetBytes - pending.count)))
        }
        // Whole lines: up to the first newline at or after `targetBytes`; keep reading while
        // there is none (a line longer than what was read).
        var cut = pending.count
        while true {
            let from = min(max(0, targetBytes - 1), pending.count)
            if let newline = pending[from...].firstIndex(of: 0x0A) {
                cut = newline + 1
                break
            }
            if atEnd {
                cut = pending.count
                break
            }
            let lastLineStart = pending.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
            if pending.count - lastLineStart > maxLineBytes {
                let line = nextLine + pending[..<lastLineStart].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
                throw .malformed(file: fileName, format: "JSON Lines", line: line, reason: "line longer than \(maxLineBytes) bytes")
            }
            // A little more for the end of the line at the target (most lines are short: reading
            // another megabyte here made the next chunk's start a megabyte to copy), more in
            // proportion for a line longer than that, so that a long line is read in linear time.
            try fill(max(1 << 16, pending.count - from))
        }
        guard cut > 0 else { return nil }
        // The chunk takes the buffer itself; only the part after the cut (the start of the next
        // line) is copied, into the next buffer. Copying the chunk out and moving the rest to the
        // front cost 1.5 % of a one-thread export.
        var bytes: [UInt8] = []
        swap(&bytes, &pending)
        pending.reserveCapacity(max(targetBytes, bytes.count - cut) + (1 << 16))
        pending.append(contentsOf: bytes[cut...])
        bytes.removeLast(bytes.count - cut)
        let counts = bytes.withUnsafeBufferPointer { Self.countLines($0) }
        if counts.longest > maxLineBytes {
            throw .malformed(
                file: fileName, format: "JSON Lines", line: nextLine + counts.longestLine, reason: "line longer than \(maxLineBytes) bytes")
        }
        let chunk = JSONLinesChunk(
            bytes: bytes, firstLine: nextLine, firstIndex: nextIndex, lineCount: counts.lines, statusCount: counts.statuses)
        nextLine += counts.lines
        nextIndex += counts.statuses
        return chunk
    }

    private func fill(_ count: Int) throws(StatusModelError) {
        let old = pending.count
        pending.append(contentsOf: repeatElement(0, count: count))
        let n = try pending.withUnsafeMutableBufferPointer { (buffer) throws(StatusModelError) -> Int in
            try file.read(into: UnsafeMutableBufferPointer(rebasing: buffer[old...]))
        }
        pending.removeLast(count - n)
        if n == 0 { atEnd = true }
        if !started && (pending.count >= 3 || atEnd) {
            started = true
            if pending.starts(with: [0xEF, 0xBB, 0xBF]) { pending.removeFirst(3) }
        }
    }

    /// Lines, non-blank lines, and the longest line (its length and 0-based position) in `bytes`.
    static func countLines(_ bytes: UnsafeBufferPointer<UInt8>) -> LineCounts {
        var lines = 0
        var statuses = 0
        var longest = 0
        var longestLine = 0
        var start = 0
        let n = bytes.count
        guard let base = bytes.baseAddress else { return LineCounts(lines: 0, statuses: 0, longest: 0, longestLine: 0) }
        while start < n {
            let end: Int
            if let hit = memchr(base + start, 0x0A, n - start) {
                end = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            } else {
                end = n
            }
            var i = start
            while i < end && isSyntaxSpace(base[i]) { i += 1 }
            if i < end { statuses += 1 }
            if end - start > longest {
                longest = end - start
                longestLine = lines
            }
            lines += 1
            start = end + 1
        }
        return LineCounts(lines: lines, statuses: statuses, longest: longest, longestLine: longestLine)
    }

    /// What `countLines` finds: the lines, the lines that hold a status (not only whitespace), the
    /// longest line's length in bytes and its index. (A struct, not a labelled tuple: returned
    /// through the generic `withUnsafeBufferPointer`, a labelled tuple's type is built at run time
    /// by the runtime's demangler, which AddressSanitizer reports as a bad free.)
    struct LineCounts {
        var lines: Int
        var statuses: Int
        var longest: Int
        var longestLine: Int
    }
}

/// Decodes chunks of JSON Lines into statuses. Keeps its parser's buffers from one line to the
/// next, so decoding allocates only what the statuses hold.
///
/// Thread-safety: a value; use one per thread.
public struct JSONLinesDecoder {
    public let fileName: String
    public let options: LoadOptions
    private var tape = JSONTape()
    private var recentSources = RecentSources()

    public init(fileName: String, options: LoadOptions = LoadOptions()) {
        self.fileName = fileName
        self.options = options
    }

    /// Calls `body` with each status of `chunk`, in order.
    ///
    /// Returns the statuses skipped (with `options.skipInvalid`); otherwise the first invalid
    /// status throws, naming the file, the line, the status index and id, and the key path.
    public mutating func decode(_ chunk: JSONLinesChunk, _ body: (Status) -> Void) throws(StatusModelError) -> [SkippedStatus] {
        // A copied decoder shares its recent sources: it gets its own before writing.
        if !isKnownUniquelyReferenced(&recentSources) { recentSources = RecentSources() }
        var skipped: [SkippedStatus] = []
        var line = chunk.firstLine
        var index = chunk.firstIndex
        try chunk.bytes.withUnsafeBufferPointer { (all) throws(StatusModelError) in
            guard let base = all.baseAddress else { return }
            var start = 0
            let n = all.count
            while start < n {
                var end = n
                if let hit = memchr(base + start, 0x0A, n - start) {
                    end = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                }
                var a = start
                var b = end
                while a < b && isSyntaxSpace(base[a]) { a += 1 }
                while b > a && isSyntaxSpace(base[b - 1]) { b -= 1 }
                if a < b {
                    do throws(StatusModelError) {
                        body(try status(UnsafeBufferPointer(rebasing: all[a..<b]), line: line, index: index))
                    } catch {
                        guard options.skipInvalid else { throw error }
                        skipped.append(SkippedStatus(index: index, id: error.location?.id, error: error))
                    }
                    index += 1
                }
                line += 1
                start = end + 1
            }
        }
        return skipped
    }

    private mutating func status(_ input: UnsafeBufferPointer<UInt8>, line: Int, index: Int) throws(StatusModelError) -> Status {
        do throws(JSONTape.SyntaxError) {
            try tape.parse(input, maxDepth: options.maxNestingDepth)
        } catch {
            throw FeedLoader.syntaxError(
                error, file: fileName, format: "JSON Lines", line: line, input: input, limit: options.maxNestingDepth)
        }
        let fileName = fileName
        let options = options
        let recentSources = recentSources
        return try tape.withDocument(input) { (document) throws(StatusModelError) -> Status in
            let root = document.root
            guard root.isObject else {
                throw .wrongRoot(file: fileName, line: line, expected: "a status object", found: root.valueDescription)
            }
            return try FeedLoader.decodeStatus(
                root, index: index, keyPrefix: "", line: line, fileName: fileName, classic: false, options: options,
                recentSources: recentSources)
        }
    }
}

/// An input file (or an open descriptor such as standard input) read with `read(2)`, so that
/// errors are the system's own words ("No such file or directory"), not Foundation's wrappers.
final class InputFile {
    let name: String
    private let descriptor: Int32
    private let owned: Bool
    private var prefix: [UInt8]
    /// A regular file, which can be opened and read again; false for a pipe, a FIFO or a device
    /// (read once, as standard input is).
    let isRegularFile: Bool
    /// A regular file's size when it was opened (what `readAll` reserves first); 0 otherwise.
    private let sizeWhenOpened: Int

    init(url: URL) throws(StatusModelError) {
        name = url.pathAsGiven
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .unreadable(file: name, reason: String(cString: strerror(errno))) }
        var info = stat()
        let known = fstat(fd, &info) == 0
        if known && (info.st_mode & S_IFMT) == S_IFDIR {
            close(fd)
            throw .unreadable(file: name, reason: "is a directory")
        }
        descriptor = fd
        owned = true
        prefix = []
        isRegularFile = known && (info.st_mode & S_IFMT) == S_IFREG
        sizeWhenOpened = isRegularFile ? Int(info.st_size) : 0
    }

    init(descriptor: Int32, name: String, prefix: [UInt8]) {
        self.descriptor = descriptor
        self.name = name
        self.prefix = prefix
        owned = false
        isRegularFile = false
        sizeWhenOpened = 0
    }

    /// Puts `bytes` back before what is left to read (bytes read to detect the format).
    func unread(_ bytes: [UInt8]) {
        prefix = bytes + prefix
    }

    deinit { if owned { close(descriptor) } }

    /// Reads up to `buffer.count` bytes; 0 at the end of the input.
    func read(into buffer: UnsafeMutableBufferPointer<UInt8>) throws(StatusModelError) -> Int {
        guard buffer.count > 0 else { return 0 }
        if !prefix.isEmpty {
            let n = min(prefix.count, buffer.count)
            _ = UnsafeMutableBufferPointer(rebasing: buffer[0..<n]).initialize(from: prefix[0..<n])
            prefix.removeFirst(n)
            return n
        }
        while true {
            let n = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            if n >= 0 { return n }
            if errno == EINTR { continue }
            throw .unreadable(file: name, reason: String(cString: strerror(errno)))
        }
    }

    /// Everything left in the input.
    func readAll() throws(StatusModelError) -> [UInt8] {
        // A regular file's whole size at once: one read and no copy as the array grows (a 64 MB
        // plist was copied as it doubled, 18 % of validating it), into memory not zeroed first
        // (zeroing 64 MB took 30 ms of page faults and stores before the read wrote it again).
        var size = max(1 << 16, sizeWhenOpened + 1)
        var failure: StatusModelError?
        var out = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            count = 0
            do throws(StatusModelError) {
                while count < buffer.count {
                    let n = try read(into: UnsafeMutableBufferPointer(rebasing: buffer[count...]))
                    if n == 0 { return }
                    count += n
                }
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        // Short of the buffer: the end of the file. Otherwise it grew since it was opened (or is
        // a pipe): read on, in growing steps.
        if out.count < size { return out }
        while true {
            let old = out.count
            out.append(contentsOf: repeatElement(0, count: size))
            let n = try out.withUnsafeMutableBufferPointer { (b) throws(StatusModelError) -> Int in
                try read(into: UnsafeMutableBufferPointer(rebasing: b[old...]))
            }
            out.removeLast(size - n)
            if n == 0 { return out }
            size = min(size * 2, 16 << 20)
        }
    }
}
