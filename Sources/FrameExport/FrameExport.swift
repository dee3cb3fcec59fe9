import CellLayout
import TableLayout

/// The documented, deterministic JSON export of computed frames (docs/frames.schema.json).
///
/// Same input and options give byte-identical output at any thread count and on every run: keys
/// in a fixed order, numbers quantized to the pixel grid of the scale and written in a fixed
/// shortest form, and no dependence on the locale or float printing.
public enum FrameExport {
    /// The version of the document format; bumped on any incompatible change of the schema.
    public static let schemaVersion = 1

    /// The export of a laid-out feed (its cells retained), in `format`.
    ///
    /// - Parameters:
    ///   - layout: a feed laid out with `retainCells: true`.
    ///   - header: the generator and fonts written at the top of the document.
    ///   - format: one JSON document, or JSON Lines.
    ///   - rows: the rows written (nil: all); y offsets and the content height stay the whole feed's.
    ///   - threads: encoding workers; the bytes do not depend on it.
    /// - Throws: `.cellsNotRetained` when `layout.cells` is nil.
    /// - Complexity: O(size of the output).
    public static func data(
        _ layout: FeedLayout, header: FrameExportHeader, format: FrameFormat = .json, rows: Range<Int>? = nil, threads: Int = 1
    ) throws(FrameExportError) -> [UInt8] {
        try data([layout], header: header, format: format, rows: rows, threads: threads)
    }

    /// The export of several layouts of the same feed (one per width). In JSON, one layout is the
    /// root document itself; several are wrapped in `{"schemaVersion", "generator", "layouts": [...]}`.
    /// In JSON Lines the layouts' rows follow each other, each line naming its width.
    public static func data(
        _ layouts: [FeedLayout], header: FrameExportHeader, format: FrameFormat = .json, rows: Range<Int>? = nil, threads: Int = 1
    ) throws(FrameExportError) -> [UInt8] {
        var out: [UInt8] = []
        let nested = format == .json && layouts.count > 1
        if nested { beginLayouts(header: header, into: &out) }
        for (i, layout) in layouts.enumerated() {
            guard let cells = layout.cells else { throw .cellsNotRetained }
            if nested && i > 0 { separateLayouts(into: &out) }
            var stream = try FrameStream(options: layout.options, header: header, format: format, rows: rows, isNested: nested)
            stream.begin(into: &out)
            stream.append(cells, threads: threads, into: &out)
            stream.finish(into: &out)
        }
        if nested { endLayouts(into: &out) }
        return out
    }

    /// Opens a multi-layout JSON document; each layout is then a `FrameStream` made with
    /// `isNested: true`, separated by `separateLayouts`, and `endLayouts` closes the document.
    public static func beginLayouts(header: FrameExportHeader, into out: inout [UInt8]) {
        var w = JSONBytes(scale: 1, capacity: 256)
        w.raw("{\"schemaVersion\":")
        w.int(schemaVersion)
        w.raw(",\"generator\":")
        generator(header, into: &w)
        w.raw(",\"layouts\":[\n")
        w.append(to: &out)
    }

    /// Goes between two layouts of a multi-layout document.
    public static func separateLayouts(into out: inout [UInt8]) {
        out.append(contentsOf: [UInt8(ascii: ","), 0x0A])
    }

    /// Closes a multi-layout document.
    public static func endLayouts(into out: inout [UInt8]) {
        out.append(contentsOf: [0x0A, UInt8(ascii: "]"), UInt8(ascii: "}"), 0x0A])
    }

    static func generator(_ header: FrameExportHeader, into w: inout JSONBytes) {
        w.raw("{\"name\":")
        w.string(header.generatorName)
        w.raw(",\"version\":")
        w.string(header.generatorVersion)
        w.byte(UInt8(ascii: "}"))
    }
}
