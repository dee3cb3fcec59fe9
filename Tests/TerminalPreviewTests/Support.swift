import CellLayout
import Foundation
import StatusModel
import TableLayout
import TerminalPreview
import TextMeasure
import XCTest
import _LayoutTestSupport

/// One real engine per test process (the fonts are ~50 MB).
enum Shared {
    static let engine: FeedEngine? = (try? FontSet.load(directory: TestPaths.fonts)).map {
        FeedEngine(cellEngine: CellLayoutEngine(measurer: TextMeasurer(fonts: $0), now: nil))
    }

    static func requireEngine() throws -> FeedEngine {
        guard let engine else { throw XCTSkip("fonts are not installed in Fonts/: run scripts/setup.sh (make test does it)") }
        return engine
    }

    static func statuses(_ fixture: String) throws -> [Status] {
        try FeedLoader.load(contentsOf: TestPaths.fixtures.appendingPathComponent(fixture)).feed.statuses
    }

    /// The document `feedlayout preview` builds: a heights-only layout, cells from the engine.
    static func document(_ statuses: [Status], width: Double, style: CellStyle, title: String) throws -> PreviewDocument {
        let engine = try requireEngine()
        let options = FeedOptions(width: width, style: style)
        let layout = try engine.layout(statuses, options: options, threads: 1)
        let widthText = width == width.rounded() ? String(Int(width)) : String(width)
        let preview = try FeedPreview(layout: layout, title: "\(title) · \(statuses.count) rows · \(style.name) \(widthText) pt")
        return PreviewDocument(preview: preview) { engine.cell(for: statuses[$0], options: options) }
    }

    /// Every line of a document as text.
    static func render(_ doc: PreviewDocument, color: Bool) -> String {
        doc.preview.canvas(lines: 0..<doc.preview.lineCount, cell: doc.cell).lines(color: color).joined(separator: "\n") + "\n"
    }
}
