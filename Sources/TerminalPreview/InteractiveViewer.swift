import CellLayout
import TableLayout
import Foundation
import Glibc
import Synchronization

/// A feed ready to show: its terminal lines and where its cells come from.
package struct PreviewDocument: Sendable {
    package var preview: FeedPreview
    /// The layout of row `i`, e.g. `FeedEngine.cell(for:options:)` (cached) on a heights-only layout.
    package var cell: @Sendable (Int) -> CellGeometry

    package init(preview: FeedPreview, cell: @escaping @Sendable (Int) -> CellGeometry) {
        self.preview = preview
        self.cell = cell
    }
}

/// Keys of the viewer, decoded from raw input bytes.
package enum ViewerKey: Equatable, Sendable {
    case lineDown, lineUp, pageDown, pageUp, top, bottom, quit
    /// Enter: opens or closes the section whose header is at the top (a line down where there is
    /// none); ends the search text.
    case enter
    /// `]` / `[`: the next / previous section title.
    case nextSection, previousSection
    /// `/`: starts a search.
    case search
    /// `d`: deletes the row at the top; `u`: undoes the last delete.
    case delete, undo
    /// `?`: the help screen.
    case help
    /// Escape: cancels the search being typed, or clears the filter.
    case escape
    /// Backspace: deletes the last character of the search text.
    case backspace
    /// A character that is no command (or any character after `'`): jumps to the next section
    /// whose title starts with it; in the search text, the character typed.
    case character(Character)

    /// The keys in `bytes`, in order; unknown bytes are ignored.
    /// j / ↓ / Ctrl-N: line down; k / ↑ / Ctrl-P: line up; space / PgDn / f / Ctrl-F: page
    /// down; b / PgUp / Ctrl-B: page up; g / Home: top; G / End: bottom; q / Q: quit; Enter;
    /// ] / [; /; d; u; ?; Escape; Backspace; other characters (and `'` then any character).
    package static func decode(_ bytes: [UInt8]) -> [ViewerKey] {
        var keys: [ViewerKey] = []
        var i = 0
        while i < bytes.count {
            let (key, next) = decodeOne(bytes, from: i, typingText: false)
            if let key { keys.append(key) }
            i = next
        }
        return keys
    }

    /// The key starting at `bytes[i]` (nil for bytes that are no key) and the index after it.
    /// While `typingText` (a search being typed), every printable character is `.character`.
    package static func decodeOne(_ bytes: [UInt8], from i: Int, typingText: Bool) -> (key: ViewerKey?, next: Int) {
        let b = bytes[i]
        if b == 0x1B {
            guard i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "[") || bytes[i + 1] == UInt8(ascii: "O") else {
                return (.escape, i + 1)
            }
            var j = i + 2
            while j < bytes.count, (0x30...0x3F).contains(bytes[j]) { j += 1 }
            guard j < bytes.count else { return (nil, bytes.count) }
            let params = String(decoding: bytes[(i + 2)..<j], as: UTF8.self)
            let key: ViewerKey?
            switch (params, bytes[j]) {
            case ("", UInt8(ascii: "A")): key = .lineUp
            case ("", UInt8(ascii: "B")): key = .lineDown
            case ("", UInt8(ascii: "H")), ("1", UInt8(ascii: "~")): key = .top
            case ("", UInt8(ascii: "F")), ("4", UInt8(ascii: "~")): key = .bottom
            case ("5", UInt8(ascii: "~")): key = .pageUp
            case ("6", UInt8(ascii: "~")): key = .pageDown
            default: key = nil
            }
            return (key, j + 1)
        }
        switch b {
        case 0x0D, 0x0A: return (.enter, i + 1)
        case 0x7F, 0x08: return (.backspace, i + 1)
        default: break
        }
        if b >= 0x20 {
            let (c, next) = character(bytes, from: i)
            if typingText { return (c.map { .character($0) }, next) }
            if b == UInt8(ascii: "'"), next < bytes.count, bytes[next] >= 0x20 {
                let (quoted, after) = character(bytes, from: next)
                return (quoted.map { .character($0) }, after)
            }
            switch b {
            case UInt8(ascii: "j"): return (.lineDown, next)
            case UInt8(ascii: "k"): return (.lineUp, next)
            case UInt8(ascii: " "), UInt8(ascii: "f"): return (.pageDown, next)
            case UInt8(ascii: "b"): return (.pageUp, next)
            case UInt8(ascii: "g"): return (.top, next)
            case UInt8(ascii: "G"): return (.bottom, next)
            case UInt8(ascii: "q"), UInt8(ascii: "Q"): return (.quit, next)
            case UInt8(ascii: "]"): return (.nextSection, next)
            case UInt8(ascii: "["): return (.previousSection, next)
            case UInt8(ascii: "/"): return (.search, next)
            case UInt8(ascii: "d"): return (.delete, next)
            case UInt8(ascii: "u"): return (.undo, next)
            case UInt8(ascii: "?"): return (.help, next)
            case UInt8(ascii: "'"): return (nil, next)
            default: return (c.map { .character($0) }, next)
            }
        }
        switch b {
        case 0x0E: return (.lineDown, i + 1)
        case 0x10: return (.lineUp, i + 1)
        case 0x06: return (.pageDown, i + 1)
        case 0x02: return (.pageUp, i + 1)
        default: return (nil, i + 1)
        }
    }

    /// The character encoded in UTF-8 from `bytes[i]` (nil for a malformed sequence, skipped).
    private static func character(_ bytes: [UInt8], from i: Int) -> (Character?, Int) {
        let b = bytes[i]
        let length = b < 0x80 ? 1 : b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1
        let end = min(bytes.count, i + length)
        guard let scalar = String(validating: bytes[i..<end], as: UTF8.self)?.unicodeScalars.first,
              scalar.properties.generalCategory != .control
        else { return (nil, end) }
        return (Character(scalar), end)
    }
}

/// The position of the viewer over a feed's terminal lines.
package struct ViewerPosition: Equatable, Sendable {
    /// The first feed line on screen.
    package var top: Int
    /// Lines of feed on screen (the screen minus the status line).
    package var page: Int

    package init(top: Int, page: Int) {
        self.top = top
        self.page = max(1, page)
    }

    /// Applies `key` over a feed of `lineCount` lines; the top stays in 0…max(0, lineCount − page).
    package mutating func apply(_ key: ViewerKey, lineCount: Int) {
        switch key {
        case .lineDown: top += 1
        case .lineUp: top -= 1
        case .pageDown: top += page
        case .pageUp: top -= page
        case .top: top = 0
        case .bottom: top = lineCount
        default: break
        }
        clamp(lineCount: lineCount)
    }

    package mutating func clamp(lineCount: Int) {
        top = max(0, min(top, lineCount - page))
    }
}

/// The interactive viewer: the alternate screen, raw keys, one frame per key.
///
/// A feed is shown in one of two ways. A `LiveFeed` (a feed of one section, of any size): rows not
/// laid out yet have estimated line counts, corrected in the background; each frame lays out the
/// rows on screen (so what is drawn is exact) and keeps the first row on screen in place when rows
/// above it are corrected. The position is that row and the line within it, not a line number,
/// which corrections above the screen would shift. A `SectionedFeedState` (a feed in sections, or
/// a live feed once a key needs every row: search, delete, undo, a section jump): every row laid
/// out, headers that float in plain style, a side index of titles, sections that open and close,
/// a search filter and deletes with undo, the position kept as the row at the top.
///
/// Loading runs on another thread while this one reads keys and notes resizes: raw mode is
/// entered first, so keys typed during a load are not echoed, and they apply once it is done;
/// a resize during a load lays the feed out again at the new width before the first frame.
/// The status line shows the rows (numbered from 0, as the row separators and `--rows` are) and
/// lines on screen and how long the previous frame took; for a sectioned view also the section at
/// the top, the search, the rows deleted and the cells the frame laid out versus found in the
/// engine's cache.
package final class InteractiveViewer {
    package typealias MakeTable = @Sendable (_ columns: Int, _ lines: Int, _ previous: SectionedFeedState?) throws -> SectionedFeedState

    private let color: Bool
    private let followWidth: Bool
    private let makeFeed: (@Sendable (_ columns: Int, _ lines: Int) throws -> LiveFeed)?
    private let makeTable: MakeTable?

    /// - Parameters:
    ///   - color: emit SGR colours.
    ///   - followWidth: lay the feed out again at the terminal's width on start and on resize.
    ///   - keysFromTTY: read keys from /dev/tty (standard input carries the feed).
    ///   - makeFeed: the feed for a terminal of `columns` columns whose first `lines` lines are
    ///     measured (called on a background thread); nil to start with `makeTable`.
    ///   - makeTable: the sectioned view for a terminal of `columns` columns (on a background
    ///     thread at the start, on the viewer's thread later), or the same view as `previous` at
    ///     the width of a resized terminal. Nil: search, delete and undo are not offered.
    package init(
        color: Bool, followWidth: Bool, keysFromTTY: Bool = false,
        makeFeed: (@Sendable (_ columns: Int, _ lines: Int) throws -> LiveFeed)?,
        makeTable: MakeTable? = nil
    ) throws(TerminalPreviewError) {
        precondition(makeFeed != nil || makeTable != nil, "InteractiveViewer: nothing to show")
        self.color = color
        self.followWidth = followWidth
        self.makeFeed = makeFeed
        self.makeTable = makeTable
        if keysFromTTY { try Terminal.readKeysFromControllingTerminal() }
    }

    /// Where the screen is: a row (nil: the header line) and the line within it at the top.
    struct Anchor {
        var row: Int?
        var offset: Int
    }

    private enum Content {
        case live(LiveFeed)
        case table(SectionedFeedState)
    }

    private var anchor = Anchor(row: nil, offset: 0)
    private var size: (lines: Int, columns: Int) = (24, 80)
    /// Bytes read and not decoded yet (decoded one key at a time: a search changes their meaning).
    private var pending: [UInt8] = []
    private var lastFrame: Double?
    /// The search being typed, and the filter shown before it began (Escape restores it).
    private var searchText: String?
    /// Whether the search text changed since the filter was applied.
    private var searchChanged = false
    private var filterBeforeSearch: String?
    private var showHelp = false
    private var message: String?
    /// Cells the last frame laid out and found in the engine's cache (sectioned view).
    private var cellCounts: (laidOut: Int, cached: Int)?
    /// Milliseconds from `run` to the first frame and to the frame after the last `G`.
    package private(set) var firstFrameMilliseconds: Double?

    /// Runs until q (or end of input). The terminal is restored however it ends.
    package func run() throws {
        guard Terminal.isInteractive else { throw TerminalPreviewError.notATerminal }
        let start = monotonicSeconds()
        try Terminal.enter()
        defer { Terminal.leave() }
        size = Terminal.size() ?? (24, 80)
        var content: Content
        if let makeFeed {
            guard let feed = try load(columns: size.columns, make: makeFeed) else { return }
            feed.start(wake: { Terminal.wake() })
            content = .live(feed)
        } else {
            let make = makeTable!
            guard let table = try load(columns: size.columns, make: { try make($0, $1, nil) }) else { return }
            content = .table(table)
        }
        defer { if case .live(let feed) = content { feed.stop() } }
        var page: Int { max(1, size.lines - 1) }
        var bottomPending = false
        var startOfG: Double?
        var fullRedraw = false
        while true {
            var statsBefore: (hits: Int, misses: Int)?
            if case .table(let t) = content {
                let s = t.document.engine.layoutCacheStatistics
                statsBefore = (s.hits, s.misses)
            }
            if case .live(let feed) = content { try feed.sync() }
            // Keys typed so far, in order (during a load they wait here).
            while !pending.isEmpty {
                let (decoded, next) = ViewerKey.decodeOne(pending, from: 0, typingText: searchText != nil)
                pending.removeFirst(next)
                guard let key = decoded else { continue }
                if showHelp {
                    showHelp = false
                    if key != .quit { continue }
                }
                if key == .quit && searchText == nil { return }
                switch content {
                case .live(let feed):
                    if Self.needsEveryRow(key), let makeTable {
                        feed.stop()
                        Terminal.write(Self.message("laying out every row…", columns: size.columns))
                        var table = try makeTable(size.columns, size.lines, nil)
                        table.anchor = SectionedFeedState.Anchor(
                            item: anchor.row.map { .row(TableIndexPath(section: 0, row: $0)) } ?? .title, offset: anchor.offset)
                        try handle(key, in: &table, page: page)
                        content = .table(table)
                        fullRedraw = true
                        statsBefore = nil
                        continue
                    }
                    if key == .help { showHelp = true }
                    if key == .bottom {
                        startOfG = monotonicSeconds()
                        try feed.findAllRows()
                        // At the bottom now, so that the keys typed after G move from there (they
                        // moved from the top before G, and G was lost).
                        try settle(feed, page: page, toBottom: true)
                        bottomPending = true
                        continue
                    }
                    var position = ViewerPosition(top: top(in: feed.preview), page: page)
                    position.apply(key == .enter ? .lineDown : key, lineCount: feed.preview.lineCount)
                    setTop(position.top, in: feed.preview)
                    bottomPending = false
                case .table(var table):
                    if key == .bottom { startOfG = monotonicSeconds() }
                    try handle(key, in: &table, page: page)
                    content = .table(table)
                }
            }
            if case .table(var table) = content, searchChanged {
                try applySearch(to: &table)
                content = .table(table)
            }
            if fullRedraw { Terminal.write("\u{1B}[H\u{1B}[2J") }
            fullRedraw = false
            switch content {
            case .live(let feed):
                try settle(feed, page: page, toBottom: bottomPending)
                lastFrame = try draw(feed, page: page)
            case .table(let table):
                lastFrame = draw(table, page: page, statsBefore: statsBefore)
            }
            if firstFrameMilliseconds == nil {
                let ms = (monotonicSeconds() - start) * 1000
                firstFrameMilliseconds = ms
                switch content {
                case .live(let feed):
                    Self.report("first-frame", milliseconds: ms, detail: "measured \(feed.measuredCount) of \(feed.preview.rowCount)")
                case .table(let table):
                    let rows = table.document.geometry.numberOfRows
                    Self.report("first-frame", milliseconds: ms, detail: "measured \(rows) of \(rows)")
                }
            }
            if let g = startOfG {
                startOfG = nil
                Self.report("G", milliseconds: (monotonicSeconds() - g) * 1000)
            }
            bottomPending = false
            switch Terminal.read() {
            case .end: return
            case .bytes(let bytes): pending += bytes
            case .woken:
                if Terminal.takeRedraw() { fullRedraw = true }
                if Terminal.takeResize(), let s = Terminal.size() {
                    let widthChanged = s.columns != size.columns
                    size = s
                    fullRedraw = true
                    if followWidth && widthChanged {
                        Terminal.write(Self.message("laying out at \(s.columns) columns…", columns: s.columns))
                        switch content {
                        case .live(let feed):
                            feed.stop()
                            guard let next = try load(columns: s.columns, make: makeFeed!) else { return }
                            next.start(wake: { Terminal.wake() })
                            content = .live(next)
                        case .table(let table):
                            content = .table(try makeTable!(s.columns, s.lines, table))
                        }
                    }
                }
            }
        }
    }

    /// Keys that need every row laid out (a live feed becomes a sectioned view of one section).
    private static func needsEveryRow(_ key: ViewerKey) -> Bool {
        switch key {
        case .search, .delete, .undo, .nextSection, .previousSection: return true
        default: return false
        }
    }

    /// Applies one key to a sectioned view.
    private func handle(_ key: ViewerKey, in table: inout SectionedFeedState, page: Int) throws {
        let top = Self.clamped(table.top, table, page: page)
        message = nil
        if var text = searchText {
            switch key {
            case .character(let c):
                text.append(c)
                searchText = text
                searchChanged = true
                return
            case .backspace:
                if !text.isEmpty { text.removeLast() }
                searchText = text
                searchChanged = true
                return
            case .escape:
                searchChanged = false
            default:
                try applySearch(to: &table)
            }
            switch key {
            case .enter:
                searchText = nil
            case .escape:
                searchText = nil
                try table.setFilter(filterBeforeSearch)
            case .lineDown, .lineUp, .pageDown, .pageUp, .top, .bottom:
                scroll(key, in: &table, top: top, page: page)
            default:
                break
            }
            return
        }
        switch key {
        case .lineDown, .lineUp, .pageDown, .pageUp, .top, .bottom:
            scroll(key, in: &table, top: top, page: page)
        case .enter:
            if !table.toggleSection(atTop: top) { scroll(.lineDown, in: &table, top: top, page: page) }
        case .nextSection, .previousSection:
            if !table.jumpToSection(next: key == .nextSection, top: top) {
                message = key == .nextSection ? "no section title below" : "no section title above"
            }
        case .character(let c):
            if !table.jump(toTitleStartingWith: c, top: top) { message = "no section title starts with \(c)" }
        case .search:
            searchText = ""
            filterBeforeSearch = table.filter?.keyword
        case .escape:
            try table.setFilter(nil)
        case .delete:
            if let deleted = try table.deleteRow(atTop: top, page: page) {
                message = "deleted #\(table.label(documentRow: deleted))"
            } else {
                message = "no row to delete"
            }
        case .undo:
            if let restored = try table.undoDelete() {
                message = "restored #\(table.label(documentRow: restored))"
            } else {
                message = "nothing to undo"
            }
        case .help:
            showHelp = true
        case .backspace, .quit:
            break
        }
    }

    /// Filters by the search text typed since the last frame: once for all the characters read
    /// together (each filter matches every row: 1.3 s a key on 100 000 rows).
    private func applySearch(to table: inout SectionedFeedState) throws {
        guard searchChanged, let searchText else { return }
        searchChanged = false
        try table.setFilter(searchText)
    }

    private func scroll(_ key: ViewerKey, in table: inout SectionedFeedState, top: Int, page: Int) {
        var position = ViewerPosition(top: top, page: page)
        position.apply(key, lineCount: table.lineCount)
        table.setTop(position.top)
    }

    private static func clamped(_ top: Int, _ table: SectionedFeedState, page: Int) -> Int {
        max(0, min(top, table.lineCount - page))
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
    private func load<T>(columns: Int, make: @escaping @Sendable (Int, Int) throws -> T) throws -> T? {
        var columns = columns
        Terminal.write(Self.message("loading…", columns: size.columns))
        while true {
            let result = Mutex<LoadOutcome<T>?>(nil)
            let lines = size.lines
            let wanted = columns
            Thread.detachNewThread {
                let outcome: LoadOutcome<T>
                do {
                    outcome = LoadOutcome(value: try make(wanted, lines), error: nil)
                } catch {
                    outcome = LoadOutcome(value: nil, error: error)
                }
                result.withLock { $0 = outcome }
                Terminal.wake()
            }
            var restart = false
            while true {
                if let r = result.withLock({ $0 }) {
                    if restart { break }
                    if let error = r.error { throw error }
                    return r.value!
                }
                switch Terminal.read() {
                case .end: return nil
                case .bytes(let bytes):
                    pending += bytes
                    if ViewerKey.decode(bytes).contains(.quit) { return nil }
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

    /// The keys, for the help screen (the README lists the same).
    static let helpLines = [
        "j k ↓ ↑ Ctrl-N Ctrl-P   a line down / up",
        "space f PgDn / b PgUp   a page down / up",
        "g Home / G End          top / bottom",
        "Enter                   open or close the section whose header is at the top",
        "] [                     next / previous section title",
        "a character             next section whose title starts with it ('x for x itself)",
        "/ text Enter            show the rows whose names or texts hold the text",
        "  Backspace, Escape     edit the text / cancel (Escape later clears the search)",
        "d / u                   delete the row at the top / undo the last delete",
        "?                       this help (any key closes it)",
        "q Ctrl-C                quit (Ctrl-Z suspends, fg resumes)",
    ]

    /// The screen lines and the status line of a frame, written at once.
    private func write(canvasLines: [String], page: Int, status: String) {
        var out = "\u{1B}[H"
        var lines = canvasLines
        if showHelp {
            let box = ["Keys"] + Self.helpLines
            lines = box.map { TerminalText.prefix($0, columns: size.columns) }
        }
        // Each row is erased before it is written (the terminal does not wrap: see
        // `Terminal.enter`): erasing after a line as wide as the screen would take its last
        // column with it.
        for line in lines.prefix(page) {
            out += "\u{1B}[2K"
            out += line
            out += "\r\n"
        }
        for _ in min(page, lines.count)..<page { out += "\u{1B}[2K\r\n" }
        // Titles and the search text come from the feed: sanitised, and cut by columns.
        let status = TerminalText.prefix(TerminalText.sanitized(status), columns: max(0, size.columns - 1))
        out += color ? "\u{1B}[2K\u{1B}[0;7m\(status)\u{1B}[0m" : "\u{1B}[2K\(status)"
        Terminal.write(out)
    }

    /// Draws one frame of a live feed; returns its duration in milliseconds.
    private func draw(_ feed: LiveFeed, page: Int) throws -> Double {
        let start = monotonicSeconds()
        let preview = feed.preview
        let top = self.top(in: preview)
        let lines = top..<min(preview.lineCount, top + page)
        // Every row on screen is measured (`settle`): asking for its cell changes no line count.
        var cells: [Int: CellGeometry] = [:]
        for row in preview.rows(inLines: lines) { cells[row] = try feed.cell(row) }
        let canvas = preview.canvas(lines: lines) { cells[$0]! }
        let rows = preview.rows(inLines: lines)
        let range = rows.isEmpty ? "–" : "\(rows.first!)–\(rows.last!)"
        let frame = lastFrame.map { String(format: "%.2f ms", $0) } ?? "–"
        let more = preview.isComplete ? "" : "+"
        let settled = feed.measuredCount == preview.rowCount ? "" : String(format: " (%.0f%% measured)", 100 * Double(feed.measuredCount) / Double(max(1, preview.rowCount)))
        // The frame time first, so a narrow terminal never cuts it off.
        let keys = makeTable == nil ? "j/k ↑↓ space PgUp/PgDn g/G ? q" : "j/k ↑↓ space PgUp/PgDn g/G / d u ? q"
        let status = "frame \(frame) · rows \(range) of \(preview.rowCount)\(more) · lines \(lines.lowerBound + 1)–\(lines.upperBound)"
            + " of \(preview.lineCount)\(more)\(settled) · \(keys)"
        write(canvasLines: canvas.lines(color: color, columns: size.columns), page: page, status: status)
        return (monotonicSeconds() - start) * 1000
    }

    /// Draws one frame of a sectioned view; returns its duration in milliseconds.
    private func draw(_ table: SectionedFeedState, page: Int, statsBefore: (hits: Int, misses: Int)?) -> Double {
        let start = monotonicSeconds()
        let top = Self.clamped(table.top, table, page: page)
        let lines = top..<min(table.lineCount, top + page)
        let canvas = table.canvas(top: top, page: page, screenColumns: size.columns)
        if let statsBefore {
            let after = table.document.engine.layoutCacheStatistics
            cellCounts = (after.misses - statsBefore.misses, after.hits - statsBefore.hits)
        }
        let rows = table.lines.indexPathsForRows(in: Double(lines.lowerBound)..<Double(max(lines.lowerBound + 1, lines.upperBound)))
        let range = rows.isEmpty ? "–" : "\(table.label(rows.first!))–\(table.label(rows.last!))"
        let frame = lastFrame.map { String(format: "%.2f ms", $0) } ?? "–"
        // What a key did first (a narrow terminal cuts the end): the message, the position, the
        // section, search and deletes, the cells laid out versus found in the cache.
        var status = ""
        if let searchText { status += "search: \(searchText)▏ (Enter keeps, Esc cancels) · " }
        if let message { status += message + " · " }
        status += "rows \(range) of \(table.document.geometry.numberOfRows)"
        status += " · lines \(lines.lowerBound + 1)–\(lines.upperBound) of \(table.lineCount)"
        let summary = table.summary(top: top)
        if !summary.isEmpty { status += " · " + summary }
        if let cellCounts { status += " · cells \(cellCounts.laidOut) laid out, \(cellCounts.cached) cached" }
        status += " · frame \(frame) · j/k space g/G Enter ]/[ / d u ? q"
        write(canvasLines: canvas.lines(color: color, columns: size.columns), page: page, status: status)
        return (monotonicSeconds() - start) * 1000
    }

    static func now() -> Double { monotonicSeconds() }
}

/// Carries what was made on the loading thread (or its error) to the viewer's thread; the value
/// is not used by both.
private struct LoadOutcome<T>: @unchecked Sendable {
    let value: T?
    let error: (any Error)?
}
