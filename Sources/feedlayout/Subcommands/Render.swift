import ArgumentParser
import FeedPipeline
import Foundation
import RasterRender
import StatusModel
import TableLayout
import TextMeasure

/// `feedlayout render`: rows of a feed rasterized to a PNG, from the computed layouts.
struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render rows of a feed to a PNG, drawn from the computed layouts (nothing re-measured).",
        discussion: """
            Glyphs come from FreeType at the positions the layout computed (line baselines, cluster \
            advances, shaped offsets); colour emoji are the font's bitmaps scaled to size. Avatars and pictures \
            are placeholders with their size in points written in them. The image is width × scale pixels wide \
            and as tall as the rows drawn. --rows A:B draws rows A..<B (0-based; either side may be left out; \
            default 0:10; a range is cut at the feed's end, and one that starts after the last row is an error, exit 1). \
            Of a JSON Lines file only the rows drawn are decoded and laid out. The PNG (written with libpng) replaces FILE atomically; FILE must be a regular file or a new \
            path (- writes to standard output). \
            A friend list (or a plist with "sections", or any feed with --group-by) is drawn whole with its \
            sections: headers with their disclosure mark, title and count, footers, and the rows of open \
            sections (a friend list's groups start closed; --expand N opens section N, --expand-all all of them). There --rows A:B counts \
            the rows of every section in order and draws from the header of row A's section to row B-1 (its \
            section's footer too when it is the section's last row).
            """)

    @Argument(help: "Feed files (plist, Weibo JSON, JSON Lines); - for standard input; none: the bundled demo feed.")
    var inputs: [String] = []

    @OptionGroup var feed: FeedInputOptions

    @OptionGroup var width: WidthOption

    @Option(name: .shortAndLong, help: "The PNG file to write (- for standard output; required).")
    var output: String

    @Option(help: "Rows to draw, A:B (rows A..<B from 0; either side may be left out; cut at the feed's end; default 0:10).")
    var rows: RowRange?

    @OptionGroup var sections: SectionOptions

    @Flag(name: .customLong("debug-frames"), help: "Outline every part's frame.")
    var debugFrames = false

    func validate() throws {
        try checkInputs(inputs)
        try checkOutput(output)
    }

    func run() throws {
        do {
            try render()
        } catch let error as CLIError {
            printErrorLine(error.description)
            throw ExitCode(1)
        } catch let error as RasterRenderError {
            // (An image too large for the feed and width: the feed is named.)
            printError("\(Preview.feedName(inputs)): \(error)")
            throw ExitCode(1)
        } catch let error as StatusModelError {
            printError("\(error)")
            throw ExitCode(1)
        } catch let error as FeedError {
            printError("\(error)")
            throw ExitCode(1)
        }
    }

    private func render() throws {
        // A single JSON Lines file is indexed and only the rows drawn are decoded and laid out
        // (their y offsets relative to the first one drawn are all the image needs); other
        // inputs are loaded whole.
        if let loaded = try sections.loadSections(inputs, skipInvalid: feed.skipInvalid, now: feed.now) {
            return try renderSections(loaded.list, format: loaded.format)
        }
        let rows = self.rows ?? RowRange(lower: 0, upper: 10)
        let loadOptions = LoadOptions(skipInvalid: feed.skipInvalid)
        let feedRows: FeedRows
        if inputs.count == 1, let indexed = try FeedRows.indexed(path: inputs[0], options: loadOptions) {
            feedRows = indexed
        } else {
            feedRows = FeedRows(statuses: try CLIEnvironment.loadFeed(inputs, skipInvalid: feed.skipInvalid).statuses)
        }
        let count = try feedRows.countAll()
        guard count > 0 else { throw CLIError.input("feedlayout: \(Preview.feedName(inputs)): the feed has no statuses to render") }
        let (a, b) = (rows.lower ?? 0, rows.upper)
        guard a < count else {
            throw Preview.rowsPastTheEnd(name: Preview.feedName(inputs), option: rows.defaultValueDescription, count: count)
        }
        let statuses = try feedRows.statuses(a..<min(count, b ?? count))
        // Glyphs are retained so every text of every cell carries its shaped glyphs.
        let engine = try CLIEnvironment.feedEngine(feed, retainGlyphs: true)
        let options = feed.options(width: width.value)
        let layout = try engine.layout(statuses, options: options)
        guard let measurer = engine.cellEngine.measurer as? TextMeasurer else {
            throw CLIError.input("feedlayout: render needs the FreeType text measurer")
        }
        let renderer = FeedRenderer(fonts: measurer.fonts, options: RenderOptions(debugFrames: debugFrames))
        let image = try renderer.render(feed: layout, rows: 0..<statuses.count) { engine.cell(for: statuses[$0], options: options) }
        try write(image)
    }

    /// A sectioned feed, drawn whole.
    private func renderSections(_ list: [StatusSection], format: FeedFormat) throws {
        let engine = try CLIEnvironment.feedEngine(feed, retainGlyphs: true)
        guard let measurer = engine.cellEngine.measurer as? TextMeasurer else {
            throw CLIError.input("feedlayout: render needs the FreeType text measurer")
        }
        let doc = try sections.document(list, format: format, engine: engine, options: feed.options(width: width.value, format: format))
        guard doc.geometry.contentHeight > 0 else { throw CLIError.input("feedlayout: \(Preview.feedName(inputs)): the feed has nothing to render") }
        var (top, bottom) = (0.0, doc.geometry.contentHeight)
        if let rows {
            // Rows counted over every section in order.
            let count = doc.geometry.numberOfRows
            let a = rows.lower ?? 0
            guard a < count else {
                throw Preview.rowsPastTheEnd(name: Preview.feedName(inputs), option: rows.defaultValueDescription, count: count)
            }
            let b = min(rows.upper ?? count, count)
            func path(_ flat: Int) -> TableIndexPath {
                var rest = flat
                for s in 0..<doc.numberOfSections {
                    let n = doc.numberOfRows(inSection: s)
                    if rest < n { return TableIndexPath(section: s, row: rest) }
                    rest -= n
                }
                preconditionFailure("row \(flat) of \(count)")
            }
            let first = path(a), last = path(b - 1)
            top = doc.geometry.rectForHeader(inSection: first.section).y
            bottom = doc.geometry.rectForRow(last).maxY
            if last.row == doc.numberOfRows(inSection: last.section) - 1 {
                bottom = doc.geometry.rectForFooter(inSection: last.section).maxY
            }
            // A closed section's rows have no height: its header is drawn.
            bottom = max(bottom, doc.geometry.rectForHeader(inSection: last.section).maxY)
        }
        let renderer = FeedRenderer(fonts: measurer.fonts, options: RenderOptions(debugFrames: debugFrames))
        try write(try renderer.render(document: doc, from: top, to: bottom))
    }

    private func write(_ image: RasterImage) throws {
        let png = try PNGCodec.encode(image)
        if output == "-" {
            try DescriptorOutput.writeStandardOutput(png)
            return
        }
        // Regular files are replaced atomically, devices and pipes written in place (AtomicFileWriter).
        try FeedWriter.writeAtomically(png, to: URL(fileURLWithPath: output))
    }
}
