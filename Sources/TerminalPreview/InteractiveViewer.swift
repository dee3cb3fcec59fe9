import CellLayout
import Foundation
import Glibc
import Synchronization

/// A feed ready to show: its terminal lines and where its cells come from.
public struct PreviewDocument: Sendable {
    public var preview: FeedPreview
    /// The layout of row `i`, e.g. `FeedEngine.cell(for:options:)` (cached) on a heights-only layout.
    public var cell: @Sendable (Int) -> CellLayout

    public init(preview: FeedPreview, cell: @escaping @Sendable (Int) -> CellLayout) {
        self.preview = preview
        self.cell = cell
    }
}

/// Keys of the viewer, decoded from raw input bytes.
public enum ViewerKey: Equatable, Sendable {
    case lineDown, lineUp, pageDown, pageUp, top, bottom, quit

    /// The keys in `bytes`, in order; unknown bytes are ignored.
    /// j / ↓ / Enter / Ctrl-N: line down; k / ↑ / Ctrl-P: line up; space / PgDn / f / Ctrl-F: page
    /// down; b / PgUp / Ctrl-B: page up; g / Home: top; G / End: bottom; q / Q: quit.
    public static func decode(_ bytes: [UInt8]) -> [ViewerKey] {
        var keys: [ViewerKey] = []
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x1B, i + 2 < bytes.count, bytes[i + 1] == UInt8(ascii: "[") || bytes[i + 1] == UInt8(ascii: "O") {
                var j = i + 2
                while j < bytes.count, (0x30...0x3F).contains(bytes[j]) { j += 1 }
                guard j < bytes.count else { break }
                let params = String(decoding: bytes[(i + 2)..<j], as: UTF8.self)
                switch (params, bytes[j]) {
                case ("", UInt8(ascii: "A")): keys.append(.lineUp)
                case ("", UInt8(ascii: "B")): keys.append(.lineDown)
                case ("", UInt8(ascii: "H")), ("1", UInt8(ascii: "~")): keys.append(.top)
                case ("", UInt8(ascii: "F")), ("4", UInt8(ascii: "~")): keys.append(.bottom)
                case ("5", UInt8(ascii: "~")): keys.append(.pageUp)
                case ("6", UInt8(ascii: "~")): keys.append(.pageDown)
                default: break
                }
                i = j + 1
                continue
            }
            switch b {
            case UInt8(ascii: "j"), 0x0D, 0x0A, 0x0E: keys.append(.lineDown)
            case UInt8(ascii: "k"), 0x10: keys.append(.lineUp)
            case UInt8(ascii: " "), UInt8(ascii: "f"), 0x06: keys.append(.pageDown)
            case UInt8(ascii: "b"), 0x02: keys.append(.pageUp)
            case UInt8(ascii: "g"): keys.append(.top)
            case UInt8(ascii: "G"): keys.append(.bottom)
            case UInt8(ascii: "q"), UInt8(ascii: "Q"): keys.append(.quit)
            default: break
            }
            i += 1
        }
        return keys
    }
}

/// The position of the viewer over a feed's terminal lines.
public struct ViewerPosition: Equatable, Sendable {
    /// The first feed line on screen.
    public var top: Int
    /// Lines of feed on screen (the screen minus the status line).
    public var page: Int

    public init(top: Int, page: Int) {
        self.top = top
        self.page = max(1, page)
    }

    /// Applies `key` over a feed of `lineCount` lines; the top stays in 0…max(0, lineCount − page).
    public mutating func apply(_ key: ViewerKey, lineCount: Int) {
        switch key {
        case .lineDown: top += 1
        case .lineUp: top -= 1
        case .pageDown: top += page
        case .pageUp: top -= page
        case .top: top = 0
        case .bottom: top = lineCount
        case .quit: break
        }
        clamp(lineCount: lineCount)
    }

    public mutating func clamp(lineCount: Int) {
        top = max(0, min(top, lineCount - page))
    }
}

/// The interactive viewer: the alternate screen, raw keys, one frame per key.
///
/// The feed is a `LiveFeed`: rows not laid out yet have estimated line counts, corrected in the
/// background; each frame lays out the rows on screen (so what is drawn is exact) and keeps the
/// first row on screen in place when rows above it are corrected. The position is that row and
/// the line within it, not a line number, which corrections above the screen would shift.
///
/// Loading runs on another thread while this one reads keys and notes resizes: raw mode is
/// entered first, so keys typed during a load are not echoed, and they apply once it is done;
/// a resize during a load lays the feed out again at the new width before the first frame.
/// The status line shows the rows (numbered from 0, as the row separators and `--rows` are) and
/// lines on screen and how long the previous frame took.
public final class InteractiveViewer {
    private let color: Bool
    private let followWidth: Bool
    private let makeFeed: @Sendable (_ columns: Int, _ lines: Int) throws -> LiveFeed

    /// - Parameters:
    ///   - color: emit SGR colours.
    ///   - followWidth: lay the feed out again at the terminal's width on start and on resize.
    ///   - keysFromTTY: read keys from /dev/tty (standard input carries the feed).
    ///   - makeFeed: the feed for a terminal of `columns` columns whose first `lines` lines are
    ///     measured (called on a background thread).
    public init(
        color: Bool, followWidth: Bool, keysFromTTY: Bool = false,
        makeFeed: @escaping @Sendable (_ columns: Int, _ lines: Int) throws -> LiveFeed
    ) throws(TerminalPreviewError) {
        self.color = color
        self.followWidth = followWidth
        self.makeFeed = makeFeed
        if keysFromTTY { try Terminal.readKeysFromControllingTerminal() }
    }

    /// Where the screen is: a row (nil: the header line) and the line within it at the top.
    struct Anchor {
        var row: Int?
        var offset: Int
    }

    private var anchor = Anchor(row: nil, offset: 0)
    private var size: (lines: Int, columns: Int) = (24, 80)
    private var keys: [ViewerKey] = []
    private var lastFrame: Double?
    /// Milliseconds from `run` to the first frame and to the frame after the last `G`.
    public private(set) var firstFrameMilliseconds: Double?

    /// Runs until q (or end of input). The terminal is restored however it ends.
    public func run() throws {
        guard Terminal.isInteractive else { throw TerminalPreviewError.notATerminal }
        let start = monotonicSeconds()
        try Terminal.enter()
        defer { Terminal.leave() }
        size = Terminal.size() ?? (24, 80)
        guard var feed = try load(columns: size.columns) else { return }
        feed.start(wake: { Terminal.wake() })
        defer { feed.stop() }
        var page: Int { max(1, size.lines - 1) }
        var bottomPending = false
        var startOfG: Double?
        var fullRedraw = false
        while true {
            try feed.sync()
            // Keys typed so far, in order (during a load they wait here).
            while !keys.isEmpty {
                let key = keys.removeFirst()
                if key == .quit { return }
                if key == .bottom {
                    startOfG = monotonicSeconds()
                    try feed.findAllRows()
                    bottomPending = true
                    continue
                }
                var position = ViewerPosition(top: top(in: feed.preview), page: page)
                position.apply(key, lineCount: feed.preview.lineCount)
                setTop(position.top, in: feed.preview)
                bottomPending = false
            }
            try settle(feed, page: page, toBottom: bottomPending)
            if fullRedraw { Terminal.write("\u{1B}[H\u{1B}[2J") }
            fullRedraw = false
            lastFrame = try draw(feed, page: page)
            if firstFrameMilliseconds == nil {
                let ms = (monotonicSeconds() - start) * 1000
                firstFrameMilliseconds = ms
                Self.report("first-frame", milliseconds: ms, detail: "measured \(feed.measuredCount) of \(feed.preview.rowCount)")
            }
            if let g = startOfG {
                startOfG = nil
                Self.report("G", milliseconds: (monotonicSeconds() - g) * 1000)
            }
            bottomPending = false
            switch Terminal.read() {
            case .end: return
            case .bytes(let bytes): keys += ViewerKey.decode(bytes)
            case .woken:
                if Terminal.takeRedraw() { fullRedraw = true }
                if Terminal.takeResize(), let s = Terminal.size() {
                    let widthChanged = s.columns != size.columns
                    size = s
                    fullRedraw = true
                    if followWidth && widthChanged {
                        feed.stop()
                        Terminal.write(Self.message("laying out at \(s.columns) columns…", columns: s.columns))
                        guard let next = try load(columns: s.columns) else { return }
                        feed = next
                        feed.start(wake: { Terminal.wake() })
                    }
                }
            }
        }
    }

    /// Appends "NAME MS EPOCH DETAIL" (milliseconds since the viewer started or the key, the
    /// wall-clock time in seconds) to the file named by FEEDLAYOUT_VIEWER_TIMINGS, for the tmux
    /// tests' figures; nothing is written without it.
    private static func report(_ name: String, milliseconds: Double, detail: String = "") {
        guard let path = getenv("FEEDLAYOUT_VIEWER_TIMINGS").map({ String(cString: $0) }), !path.isEmpty else { return }
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return }
        var wall = timespec()
        clock_gettime(CLOCK_REALTIME, &wall)
        let epoch = String(format: "%d.%06d", Int(wall.tv_sec), Int(wall.tv_nsec / 1000))
        let line = Array((name + " " + String(format: "%.1f", milliseconds) + " " + epoch + " " + detail + "\n").utf8)
        _ = line.withUnsafeBufferPointer { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    /// Makes the feed on another thread while reading keys (kept for later; q ends) and resizes
    /// (a new width starts the feed again). Nil when q was pressed.
    private func load(columns: Int) throws -> LiveFeed? {
        var columns = columns
        Terminal.write(Self.message("loading…", columns: size.columns))
        while true {
            let result = Mutex<LoadOutcome?>(nil)
            let make = makeFeed
            let lines = size.lines
            let wanted = columns
            Thread.detachNewThread {
                let outcome: LoadOutcome
                do { outcome = LoadOutcome(feed: try make(wanted, lines), error: nil) } catch { outcome = LoadOutcome(feed: nil, error: error) }
                result.withLock { $0 = outcome }
                Terminal.wake()
            }
            var restart = false
            while true {
                if let r = result.withLock({ $0 }) {
                    if restart { break }
                    if let error = r.error { throw error }
                    return r.feed!
                }
                switch Terminal.read() {
                case .end: return nil
                case .bytes(let bytes):
                    keys += ViewerKey.decode(bytes)
                    if keys.contains(.quit) { return nil }
                case .woken:
                    _ = Terminal.takeRedraw()
                    if Terminal.takeResize(), let s = Terminal.size() {
                        size = s
                        Terminal.write(Self.message("loading…", columns: s.columns))
                        if followWidth && s.columns != columns {
                            columns = s.columns
                            restart = true
                        }
                    }
                }
            }
            // The width changed during the load: the feed made at the old one is dropped.
        }
    }

    /// The first line on screen.
    private func top(in preview: FeedPreview) -> Int {
        guard let row = anchor.row, row < preview.rowCount else { return min(anchor.offset, 0) }
        return preview.firstLine(ofRow: row) + min(anchor.offset, preview.lineCount(ofRow: row) - 1)
    }

    private func setTop(_ top: Int, in preview: FeedPreview) {
        if let row = preview.rows(inLines: top..<(top + 1)).first {
            anchor = Anchor(row: row, offset: top - preview.firstLine(ofRow: row))
        } else if top <= 0 {
            anchor = Anchor(row: nil, offset: 0)
        } else {
            // The closing line: anchor to the last row.
            let last = preview.rowCount - 1
            anchor = last >= 0 ? Anchor(row: last, offset: top - preview.firstLine(ofRow: last)) : Anchor(row: nil, offset: 0)
        }
    }

    /// Lays out the rows on screen until all of them are exact, keeping the anchor (or the end
    /// of the feed, for `G`), within the feed's lines.
    private func settle(_ feed: LiveFeed, page: Int, toBottom: Bool) throws {
        while true {
            var t = top(in: feed.preview)
            let limit = max(0, feed.preview.lineCount - page)
            if toBottom || t > limit {
                t = limit
                setTop(t, in: feed.preview)
            }
            let rows = feed.preview.rows(inLines: t..<(t + page))
            if try !feed.measure(rows: rows) { return }
        }
    }

    private static func message(_ text: String, columns: Int) -> String {
        "\u{1B}[H\u{1B}[2J" + String(text.prefix(columns))
    }

    /// Draws one frame; returns its duration in milliseconds.
    private func draw(_ feed: LiveFeed, page: Int) throws -> Double {
        let start = monotonicSeconds()
        let preview = feed.preview
        let top = self.top(in: preview)
        let lines = top..<min(preview.lineCount, top + page)
        // Every row on screen is measured (`settle`): asking for its cell changes no line count.
        var cells: [Int: CellLayout] = [:]
        for row in preview.rows(inLines: lines) { cells[row] = try feed.cell(row) }
        let canvas = preview.canvas(lines: lines) { cells[$0]! }
        var out = "\u{1B}[H"
        for line in canvas.lines(color: color, columns: size.columns) {
            out += line
            out += "\u{1B}[K\r\n"
        }
        for _ in canvas.height..<page { out += "\u{1B}[K\r\n" }
        let rows = preview.rows(inLines: lines)
        let range = rows.isEmpty ? "–" : "\(rows.first!)–\(rows.last!)"
        let frame = lastFrame.map { String(format: "%.2f ms", $0) } ?? "–"
        let more = preview.isComplete ? "" : "+"
        let settled = feed.measuredCount == preview.rowCount ? "" : String(format: " (%.0f%% measured)", 100 * Double(feed.measuredCount) / Double(max(1, preview.rowCount)))
        // The frame time first, so a narrow terminal never cuts it off.
        var status = "frame \(frame) · rows \(range) of \(preview.rowCount)\(more) · lines \(lines.lowerBound + 1)–\(lines.upperBound)"
            + " of \(preview.lineCount)\(more)\(settled) · j/k ↑↓ space PgUp/PgDn g/G q"
        let limit = max(0, size.columns - 1)
        if TerminalText.columns(status) > limit { status = String(status.prefix(limit)) }
        out += color ? "\u{1B}[0;7m\(status)\u{1B}[0m\u{1B}[K" : "\(status)\u{1B}[K"
        Terminal.write(out)
        return (monotonicSeconds() - start) * 1000
    }

    static func now() -> Double { monotonicSeconds() }
}

/// Carries a feed made on the loading thread (or its error) to the viewer's thread; the feed
/// is not used by both.
private struct LoadOutcome: @unchecked Sendable {
    let feed: LiveFeed?
    let error: (any Error)?
}
