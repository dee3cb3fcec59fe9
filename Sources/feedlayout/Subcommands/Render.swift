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
            path (- writes to standard output).
            """)

    @Argument(help: "Feed files (plist, Weibo JSON, JSON Lines); - for standard input; none: the bundled demo feed.")
    var inputs: [String] = []

    @OptionGroup var feed: FeedInputOptions

    @OptionGroup var width: WidthOption

    @Option(name: .shortAndLong, help: "The PNG file to write (- for standard output; required).")
    var output: String

    @Option(help: "Rows to draw, A:B (rows A..<B from 0; either side may be left out; cut at the feed's end).")
    var rows = RowRange(lower: 0, upper: 10)

    @Flag(name: .customLong("debug-frames"), help: "Outline every part's frame.")
    var debugFrames = false

    func run() throws {
        do {
            try render()
        } catch let error as CLIError {
            printErrorLine(error.description)
            throw ExitCode(1)
        } catch let error as RasterRenderError {
            printError("\(error)")
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
        let loadOptions = LoadOptions(skipInvalid: feed.skipInvalid)
        let feedRows: FeedRows
        if inputs.count == 1, let indexed = try FeedRows.indexed(path: inputs[0], options: loadOptions) {
            feedRows = indexed
        } else {
            feedRows = FeedRows(statuses: try CLIEnvironment.loadStatuses(inputs, skipInvalid: feed.skipInvalid))
        }
        let count = try feedRows.countAll()
        guard count > 0 else { throw CLIError.input("feedlayout: the feed has no statuses to render") }
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
        let png = try PNGCodec.encode(image)
        if output == "-" {
            try DescriptorOutput.writeStandardOutput(png)
            return
        }
        // Regular files are replaced atomically, devices and pipes written in place (AtomicFileWriter).
        try FeedWriter.writeAtomically(png, to: URL(fileURLWithPath: output))
    }
}
