// JSONLinesIndex: random access to the statuses of a JSON Lines file.
//
// A scan for newlines (memchr over `pread` buffers, nothing decoded) records the byte offset of
// every non-blank line, so status i is read with one `pread` and decoded on its own, and a range of
// statuses is one contiguous chunk of the file. The scan can run in steps (`extend`), so a viewer
// uses the first statuses before the rest of the file has been scanned, and the scan of the rest
// runs on another thread. Statuses are numbered as `JSONLinesReader` numbers them (non-blank lines
// in order, a leading byte order mark dropped), so status i here is status i of a streamed read.
import FeedLayoutSupport
import Foundation
import Synchronization

/// Byte offsets of the statuses of a JSON Lines file.
///
/// Memory: 8 bytes a status, plus one entry per run of blank lines (for line numbers).
/// Thread-safety: every method may be called from any thread; scans are serialized.
package final class JSONLinesIndex: Sendable {
    /// The file's name in errors (its last path component).
    package let fileName: String
    package let options: LoadOptions
    private let descriptor: Int32
    /// Serializes scans and holds their read buffer.
    private let scanLock = Mutex<[UInt8]>([])
    private let state = Mutex<State>(State())

    private struct State {
        /// Offset of each status's line.
        var starts: [Int] = []
        /// (status index, 1-based line) where a status's line is not the line after the previous
        /// status's (blank lines before it).
        var lineMarks: [(index: Int, line: Int)] = []
        /// Offset of the first byte not yet scanned (the start of a line).
        var scanned = 0
        /// Line number of the line starting at `scanned`.
        var nextLine = 1
        var complete = false
        var started = false
    }

    /// Opens `url`; nothing is scanned yet.
    /// - Throws: `.unreadable` naming the file when it cannot be opened or is a directory.
    package init(url: URL, options: LoadOptions = LoadOptions()) throws(StatusModelError) {
        fileName = url.pathAsGiven
        self.options = options
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .unreadable(file: url.pathAsGiven, reason: String(cString: strerror(errno))) }
        var info = stat()
        if fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
            close(fd)
            throw .unreadable(file: url.pathAsGiven, reason: "is a directory")
        }
        descriptor = fd
    }

    deinit { close(descriptor) }

    /// Statuses found so far, and whether the scan has reached the end of the file.
    package var progress: (count: Int, complete: Bool) {
        state.withLock { ($0.starts.count, $0.complete) }
    }

    /// Scans about `maxBytes` more of the file (whole lines; more when a line is longer).
    /// - Returns: true once the whole file is scanned.
    /// - Throws: `.unreadable` when reading fails, `.malformed` for a line longer than
    ///   `options.maxLineBytes`.
    /// - Complexity: O(bytes scanned).
    @discardableResult
    package func extend(maxBytes: Int = 16 << 20) throws(StatusModelError) -> Bool {
        try scanLock.withLock { (buffer) throws(StatusModelError) -> Bool in
            var s = state.withLock { ($0.scanned, $0.nextLine, $0.complete, $0.started) }
            if s.2 { return true }
            if !s.3 {
                // A UTF-8 byte order mark at the start is not part of the first line.
                var bom = [UInt8](repeating: 0, count: 3)
                let n = try readAt(0, into: &bom, count: 3)
                if n == 3 && bom == [0xEF, 0xBB, 0xBF] { s.0 = 3 }
                state.withLock {
                    $0.scanned = s.0
                    $0.started = true
                }
            }
            var offset = s.0
            var line = s.1
            var size = max(1 << 16, maxBytes)
            var newStarts: [Int] = []
            var newMarks: [(index: Int, line: Int)] = []
            var atEnd = false
            let firstIndex = state.withLock { $0.starts.count }
            var lastLine = firstIndex == 0 ? 0 : state.withLock { lineOf(firstIndex - 1, in: $0) }
            while true {
                if buffer.count < size { buffer = [UInt8](repeating: 0, count: size) }
                let n = try readAt(offset, into: &buffer, count: size)
                atEnd = n < size
                // Whole lines of what was read; the last one only at the end of the file.
                let consumed = buffer.withUnsafeBufferPointer { all -> Int in
                    let base = all.baseAddress!
                    var start = 0
                    while start < n {
                        var end = n
                        if let hit = memchr(base + start, 0x0A, n - start) {
                            end = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                        } else if !atEnd {
                            break
                        }
                        var i = start
                        while i < end && isSyntaxSpace(base[i]) { i += 1 }
                        if i < end {
                            if line != lastLine + 1 { newMarks.append((firstIndex + newStarts.count, line)) }
                            newStarts.append(offset + start)
                            lastLine = line
                        }
                        line += 1
                        start = end + 1
                    }
                    return min(start, n)
                }
                if consumed == 0 && !atEnd {
                    // One line longer than the buffer: read more of it at once, up to the limit.
                    if size > options.maxLineBytes {
                        throw .malformed(file: fileName, format: "JSON Lines", line: line, reason: "line longer than \(options.maxLineBytes) bytes")
                    }
                    size *= 2
                    continue
                }
                offset += consumed
                break
            }
            // A line longer than the limit (found whole within a buffer).
            let limit = options.maxLineBytes
            if let long = newStarts.indices.first(where: { k in (k + 1 < newStarts.count ? newStarts[k + 1] : offset) - newStarts[k] > limit + 1 }) {
                let index = firstIndex + long
                var probe = state.withLock { $0 }
                probe.starts += newStarts
                probe.lineMarks += newMarks
                throw .malformed(file: fileName, format: "JSON Lines", line: lineOf(index, in: probe), reason: "line longer than \(limit) bytes")
            }
            let done = atEnd
            let endOffset = offset
            let endLine = line
            state.withLock {
                $0.starts += newStarts
                $0.lineMarks += newMarks
                $0.scanned = endOffset
                $0.nextLine = endLine
                $0.complete = done
            }
            return done
        }
    }

    /// Scans the rest of the file; returns the number of statuses.
    package func scanToEnd() throws(StatusModelError) -> Int {
        while try !extend(maxBytes: 32 << 20) {}
        return progress.count
    }

    /// The 1-based line of status `index` (blank lines count).
    /// - Precondition: `index < progress.count`.
    package func line(ofStatus index: Int) -> Int {
        state.withLock { lineOf(index, in: $0) }
    }

    private func lineOf(_ index: Int, in s: State) -> Int {
        // The last mark at or before `index` (the first status always has one).
        var lo = 0, hi = s.lineMarks.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if s.lineMarks[mid].index <= index { lo = mid + 1 } else { hi = mid }
        }
        guard lo > 0 else { return index + 1 }
        let mark = s.lineMarks[lo - 1]
        return mark.line + (index - mark.index)
    }

    /// The lines of statuses `range` as one chunk (blank lines between them included), read with
    /// one `pread`.
    /// - Precondition: `range` lies within the statuses scanned so far.
    package func chunk(ofStatuses range: Range<Int>) throws(StatusModelError) -> JSONLinesChunk {
        let (from, to, firstLine, lastLine) = state.withLock { s -> (Int, Int, Int, Int) in
            precondition(range.lowerBound >= 0 && range.upperBound <= s.starts.count, "JSONLinesIndex: statuses \(range) not scanned")
            guard !range.isEmpty else { return (0, 0, 1, 1) }
            let end = range.upperBound < s.starts.count ? s.starts[range.upperBound] : s.scanned
            return (s.starts[range.lowerBound], end, lineOf(range.lowerBound, in: s), lineOf(range.upperBound - 1, in: s))
        }
        guard !range.isEmpty else { return JSONLinesChunk(bytes: [], firstLine: 1, firstIndex: range.lowerBound, lineCount: 0, statusCount: 0) }
        var bytes = [UInt8](repeating: 0, count: to - from)
        let n = try readAt(from, into: &bytes, count: bytes.count)
        if n < bytes.count {
            throw .unreadable(file: fileName, reason: "the file became shorter while it was read (line \(lastLine))")
        }
        return JSONLinesChunk(
            bytes: bytes, firstLine: firstLine, firstIndex: range.lowerBound, lineCount: lastLine - firstLine + 1 + Self.trailingLines(bytes),
            statusCount: range.count)
    }

    /// Lines after the last non-blank line of `bytes` that a chunk of it counts (blank lines).
    private static func trailingLines(_ bytes: [UInt8]) -> Int {
        var i = bytes.count
        var newlines = 0
        while i > 0 && isSyntaxSpace(bytes[i - 1]) {
            if bytes[i - 1] == 0x0A { newlines += 1 }
            i -= 1
        }
        return max(0, newlines - 1)
    }

    /// Decodes statuses `range` (one `pread`, one decoder pass).
    /// - Throws: the first invalid status's error, naming the file and its line.
    package func statuses(_ range: Range<Int>) throws(StatusModelError) -> [Status] {
        let chunk = try chunk(ofStatuses: range)
        var decoder = JSONLinesDecoder(fileName: fileName, options: options)
        var out: [Status] = []
        out.reserveCapacity(range.count)
        _ = try decoder.decode(chunk) { out.append($0) }
        return out
    }

    /// Reads up to `count` bytes at `offset` into the start of `buffer`; fewer only at the end.
    private func readAt(_ offset: Int, into buffer: inout [UInt8], count: Int) throws(StatusModelError) -> Int {
        let fd = descriptor
        let name = fileName
        var failure: Int32 = 0
        let done = buffer.withUnsafeMutableBytes { b -> Int in
            var done = 0
            while done < count {
                let n = pread(fd, b.baseAddress! + done, count - done, off_t(offset + done))
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    break
                }
                if n == 0 { break }
                done += n
            }
            return done
        }
        if failure != 0 { throw .unreadable(file: name, reason: String(cString: strerror(failure))) }
        return done
    }
}
