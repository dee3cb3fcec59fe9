import ArgumentParser
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
            default 0:10). The PNG (written with libpng) replaces FILE atomically; FILE must be a regular file or a new \
            path (- writes to standard output).
            """)

    @Argument(help: "Feed files (plist, Weibo JSON, JSON Lines); - for standard input; none: the bundled demo feed.")
    var inputs: [String] = []

    @OptionGroup var feed: FeedInputOptions

    @Option(name: .shortAndLong, help: "The PNG file to write (- for standard output).")
    var output: String

    @Option(help: "Rows to draw, A:B (rows A..<B).")
    var rows: String = "0:10"

    @Flag(name: .customLong("debug-frames"), help: "Outline every part's frame.")
    var debugFrames = false

    func validate() throws {
        guard feed.widths.count <= 1 else { throw ValidationError("render takes one --width") }
        guard Self.parseRows(rows) != nil else { throw ValidationError("--rows must be A:B with 0 ≤ A < B (either side may be omitted)") }
    }

    /// "A:B", "A:", ":B" → (A, B?) with B nil for "to the end".
    static func parseRows(_ s: String) -> (Int, Int?)? {
        let parts = s.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let a = parts[0].isEmpty ? 0 : Int(parts[0])
        let b = parts[1].isEmpty ? nil : Int(parts[1])
        guard let a, a >= 0, parts[1].isEmpty || (b != nil && b! > a) else { return nil }
        return (a, b)
    }

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
        let statuses = try CLIEnvironment.loadStatuses(inputs, skipInvalid: feed.skipInvalid)
        guard !statuses.isEmpty else { throw CLIError.input("feedlayout: the feed has no statuses to render") }
        let (a, b) = Self.parseRows(rows)!
        guard a < statuses.count else {
            throw CLIError.input("feedlayout: --rows \(rows) starts after the feed's last row (\(statuses.count) rows)")
        }
        let range = a..<min(statuses.count, b ?? statuses.count)
        // Glyphs are retained so every text of every cell carries its shaped glyphs.
        let engine = try CLIEnvironment.feedEngine(feed, retainGlyphs: true)
        let options = feed.options(width: feed.widthList[0])
        let layout = try engine.layout(statuses, options: options, retainCells: false)
        guard let measurer = engine.cellEngine.measurer as? TextMeasurer else {
            throw CLIError.input("feedlayout: render needs the FreeType text measurer")
        }
        let renderer = FeedRenderer(fonts: measurer.fonts, options: RenderOptions(debugFrames: debugFrames))
        let image = try renderer.render(feed: layout, rows: range) { engine.cell(for: statuses[$0], options: options) }
        let png = try PNGCodec.encode(image)
        if output == "-" {
            try DescriptorOutput.writeStandardOutput(png)
            return
        }
        // Regular files are replaced atomically, devices and pipes written in place (AtomicFileWriter).
        try FeedWriter.writeAtomically(png, to: URL(fileURLWithPath: output))
    }
}
