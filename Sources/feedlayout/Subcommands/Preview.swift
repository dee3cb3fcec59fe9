import ArgumentParser
import CellLayout
import FeedPipeline
import Foundation
import StatusModel
import TableLayout
import Synchronization
import TerminalPreview

/// `feedlayout preview`: the feed drawn in the terminal from its computed layouts.
struct Preview: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show a feed in the terminal, drawn from its computed layouts (the demo feed without INPUT).",
        usage: """
            feedlayout preview [<input>] [--width <width>] [--rows <rows>] [--color <color>] [<options>]
            feedlayout preview [<input>] --interactive [--width <width>] [--group-by <group-by>] [--table-style <table-style>] [--expansion <expansion>] [<options>]
            """,
        discussion: """
            Scale: one terminal line is the line pitch of the style's smallest multi-line text (weibo 21.44 pt, \
            classic 20.272 pt) and one column is 0.4 em of the main text (weibo 6.8 pt, classic 5.6 pt). Each \
            laid-out text line takes one terminal line, its characters in the engine's order, wide ones on two \
            columns; frames in box-drawing characters, avatars and pictures as shaded blocks labelled with \
            their size in points.
            Static mode (the default) prints the lines of --rows A:B (feed rows A..<B, numbered from 0 as the \
            row separators #N are), or else the first screenful ($LINES, the terminal's height, or 24 lines), \
            and exits. A range is cut at the feed's end; one that starts after the last row is an error (exit 1), \
            as in `render`. Only the heights of the rows above the last one printed and the cells of the rows \
            printed are computed; a JSON Lines file is indexed and only those rows are decoded.
            --interactive opens the viewer on the alternate screen: j/k or ↓/↑ by line, space/PgDn and \
            b/PgUp by page, g/G top/bottom, q quits (Ctrl-C too; the terminal is always restored; Ctrl-Z \
            suspends and `fg` resumes). Without --width it lays the feed out at the terminal's width, again \
            after each resize. The first screen is drawn from the first rows: rows not laid out yet have \
            estimated heights (the mean of the rows measured), replaced by their real heights in the \
            background without moving the rows on screen; the status line shows the share measured. A JSON \
            Lines file is indexed in the background and its statuses decoded when needed (G waits for the \
            index only); other formats, standard input and --skip-invalid load the feed whole first. With \
            INPUT -, keys are read from /dev/tty.
            A friend list (or a plist with "sections", or any feed with --group-by) prints, in static mode, \
            every section as a box titled with its disclosure mark (▸ closed, ▾ open), title and count, \
            holding the rows of open sections (a friend list's groups start closed; --expand N opens section N, --expand-all all of them).
            Sections (with --interactive): a friend list or a plist with sections is shown in its sections, \
            and --group-by day|user|source puts any feed in titled sections; --table-style plain keeps the \
            header of the section at the top on the first line, grouped insets the sections; --expansion \
            accordion (a friend list's default) starts with every section closed and keeps one open. Enter \
            opens or closes the section whose header is at the top; ] and [ go to the next and previous title; \
            a character that is no command (or ' and any character) goes to the next title starting with it; \
            / and a text shows the rows whose names or texts hold it (Enter keeps it, Escape clears it); d \
            deletes the row at the top and u puts it back; ? lists the keys. A plain feed is laid out whole \
            on the first of /, d, u, ], [.
            Colours only when standard output is a terminal, NO_COLOR is unset and TERM is not dumb \
            (--color always/never overrides). Control characters and bidi controls of statuses are shown as �.
            """)

    enum ColorMode: String, ExpressibleByArgument, CaseIterable {
        case auto, always, never
    }

    @Argument(help: "A feed file (plist, JSON or JSON Lines; - for standard input). Default: the bundled demo feed.")
    var input: String?

    @OptionGroup var feed: FeedInputOptions

    @Option(name: .customLong("width"), parsing: .unconditional,
            help: "Cell width in points, in [1, 100000]; the last one given counts. (default: 375; with --interactive, the terminal's width, followed on resize)")
    var width: Double?

    @Option(help: "Feed rows to print, A:B (A..<B from 0; either side may be left out; cut at the feed's end). (default: the first screenful)")
    var rows: RowRange?

    @Flag(name: [.customShort("i"), .long], help: "Browse the feed interactively.")
    var interactive = false

    @Option(help: "Colours: auto, always or never.")
    var color: ColorMode = .auto

    /// `--table-style`: UITableView's two styles.
    enum TableStyleName: String, ExpressibleByArgument, CaseIterable {
        case plain, grouped

        var style: TableStyle { self == .grouped ? .grouped : .plain }
    }

    /// `--expansion`: how sections open and close.
    enum ExpansionName: String, ExpressibleByArgument, CaseIterable {
        case independent, accordion

        var mode: SectionExpansionMode { self == .accordion ? .accordion : .independent }
    }

    @OptionGroup var sections: SectionOptions

    @Option(name: .customLong("table-style"), help: "plain (headers float at the top) or grouped (inset sections) (with --interactive).")
    var tableStyle: TableStyleName = .plain

    @Option(help: "independent, or accordion: one section open at a time, all closed at first (with --interactive; default: accordion for a friend list).")
    var expansion: ExpansionName?

    func validate() throws {
        if let width { try checkWidth(width) }
        if interactive && rows != nil { throw ValidationError("--rows is for static output; leave it out with --interactive") }
        // --group-by, --expand and --expand-all work in both modes (static: one box per section).
        if !interactive && (tableStyle != .plain || expansion != nil) {
            throw ValidationError("--table-style and --expansion are for --interactive")
        }
    }

    func run() throws { try reportingErrors(runCommand) }

    private func runCommand() throws {
        let engine = try CLIEnvironment.feedEngine(feed)
        let name = Self.feedName(input.map { [$0] } ?? [])
        let useColor = Self.colorEnabled(color)
        let style = feed.options(width: 375).style
        let scale = PreviewScale(style: style)
        let feed = feed
        let input = input
        let title = { @Sendable (rows: Int, complete: Bool, width: Double) -> String in
            Self.title(name, rows: rows, complete: complete, style: style, width: width)
        }

        if interactive {
            // The rows are opened on the viewer's loading thread (standard input is read there,
            // while keys come from the terminal), once for every width.
            let opened = Mutex<FeedRows?>(nil)
            let rowsOnce = { @Sendable () throws -> FeedRows in
                try opened.withLock { (r) throws -> FeedRows in
                    if let r { return r }
                    let new = try Self.openRows(input, feed: feed)
                    r = new
                    return new
                }
            }
            let fixed = width
            let sectionOptions = sections
            let tableStyle = tableStyle.style
            let expansion = expansion?.mode
            // A feed in sections (a friend list, a plist with sections, --group-by) or in grouped
            // style is laid out whole at once; a plain one is shown lazily, and laid out whole only
            // when a key needs every row (search, delete, undo, a section jump).
            let sectioned = sectionOptions.groupBy != nil || tableStyle == .grouped || input.map(CLIEnvironment.mayBeSectioned) ?? false
            let makeTable: InteractiveViewer.MakeTable = { columns, _, previous in
                func width(_ style: CellStyle, index: Bool) -> Double {
                    let cellColumns = SectionedFeedState.cellColumns(fittingTerminalColumns: columns, style: tableStyle, index: index)
                    return fixed ?? max(160, min(1024, PreviewScale(style: style).width(fittingColumns: cellColumns)))
                }
                func titles(_ style: CellStyle, _ width: Double) -> @Sendable (Int) -> String {
                    { rows in Self.title(name, rows: rows, style: style, width: width) }
                }
                if var previous {
                    let w = width(previous.document.options.style, index: previous.sectionIndex != nil)
                    previous = try previous.resized(toWidth: w)
                    previous.titleForRows = titles(previous.document.options.style, w)
                    previous.title = titles(previous.document.options.style, w)(previous.document.geometry.numberOfRows)
                    return previous
                }
                let loaded: Feed
                if sectioned {
                    loaded = try CLIEnvironment.loadFeed(input.map { [$0] } ?? [], skipInvalid: feed.skipInvalid)
                } else {
                    let rows = try rowsOnce()
                    loaded = Feed(statuses: try rows.statuses(0..<rows.countAll()))
                }
                let list = sectionOptions.sections(of: loaded, now: feed.now)
                var options = feed.options(width: 375, format: loaded.format)
                options.width = width(options.style, index: list != nil)
                options.tableStyle = tableStyle
                let document = try list.map { try sectionOptions.document($0, format: loaded.format, engine: engine, options: options) }
                    ?? FeedDocument(engine: engine, options: options, statuses: loaded.statuses)
                var state = try SectionedFeedState(
                    document: document, title: Self.title(name, rows: loaded.statuses.count, style: options.style, width: options.width),
                    expansion: expansion)
                state.titleForRows = titles(options.style, options.width)
                return state
            }
            let live: @Sendable (Int, Int) throws -> LiveFeed = { columns, lines in
                let width = fixed ?? max(160, min(1024, scale.width(fittingColumns: columns)))
                return try Self.liveFeed(
                    rows: try rowsOnce(), engine: engine, options: feed.options(width: width), firstLines: lines,
                    title: { n, complete in title(n, complete, width) })
            }
            do {
                let viewer = try InteractiveViewer(
                    color: useColor, followWidth: fixed == nil, keysFromTTY: input == "-", makeFeed: sectioned ? nil : live,
                    makeTable: makeTable)
                try viewer.run()
            } catch let e as TerminalPreviewError {
                throw CLIError.input("feedlayout: \(e)")
            } catch let e as StatusModelError {
                throw CLIError.input("feedlayout: \(e)")
            } catch let e as FeedError {
                throw CLIError.input("feedlayout: \(e)")
            }
            return
        }

        if let loaded = try sections.loadSections(input.map { [$0] } ?? [], skipInvalid: feed.skipInvalid, now: feed.now) {
            guard self.rows == nil else {
                throw CLIError.input("feedlayout: --rows applies to plain feeds; a sectioned feed prints every section")
            }
            return try printSections(loaded.list, format: loaded.format, engine: engine, color: useColor)
        }
        let rows = try Self.openRows(input, feed: feed)
        let width = self.width ?? 375
        let options = feed.options(width: width)
        let count: Int
        do { count = try rows.countAll() } catch { throw CLIError.input("feedlayout: \(error)") }
        // Only the heights the y offsets need (the rows up to the last one printed) and the cells
        // of the rows printed are computed.
        var heights: [Double] = []
        let measure = { (range: Range<Int>) throws in
            do {
                heights += try rows.heights(range, engine: engine, options: options, threads: ProcessInfo.processInfo.activeProcessorCount)
            } catch let e as StatusModelError {
                throw CLIError.input("feedlayout: \(e)")
            }
        }
        var wanted: Range<Int>?
        if let rowsOption = self.rows {
            let (a, b) = (rowsOption.lower, rowsOption.upper)
            let lo = a ?? 0
            guard lo < count else {
                throw Self.rowsPastTheEnd(name: name, option: rowsOption.defaultValueDescription, count: count)
            }
            let hi = min(b ?? count, count)
            wanted = lo..<hi
            try measure(0..<hi)
        } else {
            // The first screenful: rows until their lines fill it.
            let screen = Self.screenLines()
            var lines = 1
            while heights.count < count && lines < screen {
                let before = heights.count
                try measure(before..<min(count, before + 32))
                lines += heights[before...].reduce(0) { $0 + scale.lineCount(ofHeight: $1) }
            }
        }
        let preview: FeedPreview
        do {
            preview = try FeedPreview(
                scale: scale, columns: scale.columnCount(ofWidth: width), title: title(count, true, width),
                readMoreToken: style.readMoreToken, heights: heights, complete: heights.count == count)
        } catch {
            throw CLIError.input("feedlayout: \(error)")
        }
        let lines = wanted.map { preview.lines(ofRows: $0) } ?? 0..<min(preview.lineCount, Self.screenLines())
        var out = OutputBuffer()
        try Self.printSlices(of: preview, lines: lines, color: useColor, to: &out) { row in
            let status: Status
            do { status = try rows.status(row) } catch { throw CLIError.input("feedlayout: \(error)") }
            return engine.cell(for: status, options: options)
        }
        try out.flush()
    }

    /// Prints `lines` of `preview`, streamed: drawn and printed a slice of lines at a time, each
    /// slice's canvas at most `maxCanvasCells` cells, so that memory grows with neither the range
    /// nor the width (a whole range drawn at once: `--width 100000 --rows 0:` tried to allocate
    /// 9.1 GB, and one section of 100 000 lines at `--width 10000` aborted). The cell of the last
    /// row drawn is kept: a row taller than a slice is laid out once.
    private static func printSlices(
        of preview: FeedPreview, lines: Range<Int>, color: Bool, to out: inout OutputBuffer, cell: (Int) throws -> CellGeometry
    ) throws {
        let step = max(1, maxCanvasCells / max(1, preview.columns))
        var kept: (row: Int, cell: CellGeometry)?
        var start = lines.lowerBound
        while start < lines.upperBound {
            let slice = start..<min(lines.upperBound, start + step)
            var cells: [Int: CellGeometry] = [:]
            for row in preview.rows(inLines: slice) {
                if let kept, kept.row == row {
                    cells[row] = kept.cell
                    continue
                }
                let c = try cell(row)
                cells[row] = c
                kept = (row, c)
            }
            for line in preview.canvas(lines: slice, cell: { cells[$0]! }).lines(color: color) {
                try out.write(line)
                try out.write("\n")
            }
            start = slice.upperBound
        }
    }

    /// A sectioned feed, printed whole: one box per section, titled with its disclosure mark,
    /// title and count, holding the rows of the section when it is open.
    private func printSections(_ list: [StatusSection], format: FeedFormat, engine: FeedEngine, color: Bool) throws {
        let options = feed.options(width: width ?? 375, format: format)
        let doc = try sections.document(list, format: format, engine: engine, options: options)
        let scale = PreviewScale(style: options.style)
        var out = OutputBuffer()
        for s in 0..<doc.numberOfSections {
            let open = !doc.geometry.isCollapsed(s)
            var title = ""
            switch doc.header(ofSection: s) {
            case .header(let h):
                title = (h.showsDisclosure ? (open ? "▾ " : "▸ ") : "") + h.title + (h.detail(rowCount: doc.numberOfRows(inSection: s)).map { "  \($0)" } ?? "")
            case .title(let t): title = t
            case .none, .fixed: break
            }
            let statuses = open ? doc.statuses(inSection: s) : []
            let heights = statuses.indices.map { doc.cell(at: TableIndexPath(section: s, row: $0)).height }
            let preview: FeedPreview
            do {
                preview = try FeedPreview(
                    scale: scale, columns: scale.columnCount(ofWidth: options.width), title: title,
                    readMoreToken: options.style.readMoreToken, heights: heights, complete: true)
            } catch {
                throw CLIError.input("feedlayout: \(error)")
            }
            try Self.printSlices(of: preview, lines: 0..<preview.lineCount, color: color, to: &out) {
                doc.cell(at: TableIndexPath(section: s, row: $0))
            }
        }
        try out.flush()
    }

    /// The rule of every command's --rows (`preview`, `render`, `layout`): a range is cut at the
    /// feed's end; a range with no row in the feed is an input error (exit 1) naming the feed.
    static func rowsPastTheEnd(name: String, option: String, count: Int) -> CLIError {
        CLIError.input("feedlayout: \(name): --rows \(option) starts after the feed's last row (\(count) rows: 0..<\(count))")
    }

    /// The feed's name in messages and the header: the file's name, <stdin>, or "demo feed".
    static func feedName(_ inputs: [String]) -> String {
        switch inputs.count {
        case 0: return "demo feed"
        case 1: return inputs[0] == "-" ? FeedSource.standardInputName : (inputs[0] as NSString).lastPathComponent
        default: return "\(inputs.count) files"
        }
    }

    /// The title line of a feed: its name, rows (with "+" while more are being found), style and width.
    static func title(_ name: String, rows: Int, complete: Bool = true, style: CellStyle, width: Double) -> String {
        "\(name) · \(rows)\(complete ? "" : "+") rows · \(style.name) \(JSONNumber.fixed(width, 2)) pt"
    }

    /// The viewer's feed at one width: rows estimated, then measured on screen and in the background.
    static func liveFeed(
        rows: FeedRows, engine: FeedEngine, options: FeedOptions, firstLines: Int,
        title: @escaping @Sendable (Int, Bool) -> String
    ) throws -> LiveFeed {
        let scale = PreviewScale(style: options.style)
        let more: (@Sendable () throws -> Bool)? = rows.isIndexed ? { @Sendable () throws -> Bool in
            // A small first step: the first screen needs a few rows, not the first 16 MB of them.
            try rows.findMoreRows(maxBytes: rows.progress.count == 0 ? 256 << 10 : 16 << 20)
        } : nil
        let source = PreviewRowSource(
            progress: { rows.progress },
            findMoreRows: more,
            heights: { (range: Range<Int>) throws -> [Double] in try rows.heights(range, engine: engine, options: options) },
            cell: { (row: Int) throws -> CellGeometry in engine.cell(for: try rows.status(row), options: options) },
            title: title)
        return try LiveFeed(
            source: source, scale: scale, columns: scale.columnCount(ofWidth: options.width), readMoreToken: options.style.readMoreToken,
            firstLines: firstLines)
    }

    /// The feed's rows: a JSON Lines file indexed (decoded by row), anything else loaded whole.
    static func openRows(_ input: String?, feed: FeedInputOptions) throws -> FeedRows {
        if let input {
            do {
                if let rows = try FeedRows.indexed(path: input, options: LoadOptions(skipInvalid: feed.skipInvalid)) { return rows }
            } catch {
                throw CLIError.input("feedlayout: \(error)")
            }
        }
        return FeedRows(statuses: try CLIEnvironment.loadFeed(input.map { [$0] } ?? [], skipInvalid: feed.skipInvalid).statuses)
    }

    /// Cells of the canvas of one printed slice (about 40 MB at most).
    static let maxCanvasCells = 1 << 20

    /// Colour when asked, or (auto) when stdout is a terminal, NO_COLOR is unset and TERM is not dumb.
    static func colorEnabled(_ mode: ColorMode) -> Bool {
        switch mode {
        case .always: return true
        case .never: return false
        case .auto:
            let env = ProcessInfo.processInfo.environment
            return isatty(1) == 1 && env["NO_COLOR"] == nil && env["TERM"] != "dumb"
        }
    }

    /// Lines of a screen: $LINES, else the terminal's height, else 24.
    static func screenLines() -> Int {
        if let s = ProcessInfo.processInfo.environment["LINES"], let n = Int(s), n > 0 { return n }
        var ws = winsize()
        if isatty(1) == 1, ioctl(1, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_row > 0 { return Int(ws.ws_row) }
        return 24
    }
}
