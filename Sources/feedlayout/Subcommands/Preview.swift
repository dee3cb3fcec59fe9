import ArgumentParser
import CellLayout
import Foundation
import StatusModel
import TableLayout
import TerminalPreview

/// `feedlayout preview`: the feed drawn in the terminal from its computed layouts.
struct Preview: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show a feed in the terminal, drawn from its computed layouts (the demo feed without INPUT).",
        discussion: """
            Scale: one terminal line is the line pitch of the style's smallest multi-line text (weibo 21.44 pt, \
            classic 20.272 pt) and one column is 0.4 em of the main text (weibo 6.8 pt, classic 5.6 pt). Each \
            laid-out text line takes one terminal line, its characters in the engine's order, wide ones on two \
            columns; frames in box-drawing characters, avatars and pictures as shaded blocks labelled with \
            their size in points.
            Static mode (the default) prints the lines of --rows A:B (feed rows A..<B), or else the first \
            screenful ($LINES, the terminal's height, or 24 lines), and exits.
            --interactive opens the viewer on the alternate screen: j/k or ↓/↑ by line, space/PgDn and \
            b/PgUp by page, g/G top/bottom, q quits (Ctrl-C too; the terminal is always restored). Without \
            --width it lays the feed out at the terminal's width, again after each resize.
            Colours only when standard output is a terminal, NO_COLOR is unset and TERM is not dumb \
            (--color always/never overrides). Control characters and bidi controls of statuses are shown as �.
            """)

    enum ColorMode: String, ExpressibleByArgument, CaseIterable {
        case auto, always, never
    }

    @Argument(help: "A feed file (plist, JSON or JSON Lines; - for standard input). Default: the bundled demo feed.")
    var input: String?

    @OptionGroup var feed: FeedInputOptions

    @Option(help: "Feed rows to print, A:B (A..<B; either side may be left out).")
    var rows: String?

    @Flag(name: [.customShort("i"), .long], help: "Browse the feed interactively.")
    var interactive = false

    @Option(help: "Colours: auto, always or never.")
    var color: ColorMode = .auto

    func validate() throws {
        if feed.widths.count > 1 { throw ValidationError("preview takes one --width") }
        if let rows { _ = try Self.parseRows(rows) }
        if interactive && rows != nil { throw ValidationError("--rows is for static output; leave it out with --interactive") }
    }

    static func parseRows(_ s: String) throws -> (Int?, Int?) {
        let parts = s.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw ValidationError("--rows must be A:B") }
        func bound(_ p: Substring) throws -> Int? {
            if p.isEmpty { return nil }
            guard let v = Int(p), v >= 0 else { throw ValidationError("--rows bounds must be integers ≥ 0") }
            return v
        }
        let (a, b) = (try bound(parts[0]), try bound(parts[1]))
        if let a, let b, a > b { throw ValidationError("--rows A:B needs A ≤ B") }
        return (a, b)
    }

    func run() throws {
        let statuses = try CLIEnvironment.loadStatuses(input.map { [$0] } ?? [], skipInvalid: feed.skipInvalid)
        let engine = try CLIEnvironment.feedEngine(feed)
        let title = input.map { ($0 as NSString).lastPathComponent } ?? "demo feed"
        let useColor = Self.colorEnabled(color)
        let style = feed.options(width: 375).style

        /// Lays the feed out (heights only: cells are asked for per row, from the engine's cache).
        let document = { @Sendable (width: Double) throws -> PreviewDocument in
            let options = feed.options(width: width)
            let layout = try engine.layout(statuses, options: options, retainCells: false)
            let preview = try FeedPreview(layout: layout, title: "\(title) · \(statuses.count) rows · \(style.name) \(JSONNumber.fixed(width, 2)) pt")
            return PreviewDocument(preview: preview) { engine.cell(for: statuses[$0], options: options) }
        }

        if interactive {
            let scale = PreviewScale(style: style)
            let fixed = feed.widths.first
            let viewer = InteractiveViewer(color: useColor, followWidth: fixed == nil) { columns in
                try document(fixed ?? max(160, min(1024, scale.width(fittingColumns: columns))))
            }
            do {
                try viewer.run()
            } catch let e as TerminalPreviewError {
                throw CLIError.input("feedlayout: \(e)")
            }
            return
        }

        let doc = try document(feed.widths.first ?? 375)
        let preview = doc.preview
        let lines: Range<Int>
        if let rows {
            let (a, b) = try Self.parseRows(rows)
            let lo = min(a ?? 0, preview.rowCount), hi = min(b ?? preview.rowCount, preview.rowCount)
            lines = preview.lines(ofRows: lo..<hi)
        } else {
            lines = 0..<min(preview.lineCount, Self.screenLines())
        }
        // Streamed: the range is drawn and printed a slice of lines at a time, each slice's canvas
        // at most `maxCanvasCells` cells, so memory does not grow with the range or the width
        // (the whole range was built first: --width 100000 --rows 0: tried to allocate 9.1 GB).
        // The cell of the last row drawn is kept: a row taller than a slice is laid out once.
        var out = OutputBuffer()
        let step = max(1, Self.maxCanvasCells / max(1, preview.columns))
        var kept: (row: Int, cell: CellLayout)?
        let cell = { (row: Int) -> CellLayout in
            if let kept, kept.row == row { return kept.cell }
            let c = doc.cell(row)
            kept = (row, c)
            return c
        }
        var start = lines.lowerBound
        while start < lines.upperBound {
            let slice = start..<min(lines.upperBound, start + step)
            for line in preview.canvas(lines: slice, cell: cell).lines(color: useColor) {
                try out.write(line)
                try out.write("\n")
            }
            start = slice.upperBound
        }
        try out.flush()
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
