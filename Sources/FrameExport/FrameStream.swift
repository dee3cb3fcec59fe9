import CellLayout
import Dispatch
import TableLayout
import TextMeasure

// The export of one layout (one width), produced while rows arrive.
//
// Design: rows are appended in order, in batches; the stream keeps the running sum of row heights
// in whole device pixels, which is exactly how `TableGeometry` places rows, so a feed of any length
// is written with O(batch) memory and no second pass. That is why the root's totals (`rowCount`,
// `rowRange`, `contentHeight`) and the section's footer come after the rows in the key order.
// Each row of a batch is encoded on its own (a row's bytes depend only on its cell, indices and
// y), so a batch is split into contiguous slices encoded in parallel and concatenated in order:
// the bytes are the same at any thread count.

/// The export format.
public enum FrameFormat: String, Sendable, CaseIterable {
    /// One JSON document per run (one layout, or `{"layouts": [...]}` for several widths).
    case json
    /// JSON Lines: one row object per line, with a leading `"width"` key.
    case jsonl
}

/// One font of the cascade the layout was measured with, as recorded in the export.
public struct FontRecord: Sendable, Equatable {
    public var role: String
    public var file: String
    public var faceIndex: Int
    public var sha256: String

    public init(role: String, file: String, faceIndex: Int, sha256: String) {
        self.role = role
        self.file = file
        self.faceIndex = faceIndex
        self.sha256 = sha256
    }
}

/// What the export records about its producer: generator name and version, fonts used.
public struct FrameExportHeader: Sendable, Equatable {
    public var generatorName: String
    public var generatorVersion: String
    public var fonts: [FontRecord]

    public init(generatorName: String = "feedlayout", generatorVersion: String, fonts: [FontRecord]) {
        self.generatorName = generatorName
        self.generatorVersion = generatorVersion
        self.fonts = fonts
    }

    /// The fonts of a loaded cascade's manifest (`FontSet.manifest`), in manifest order.
    package init(generatorName: String = "feedlayout", generatorVersion: String, manifest: FontManifest) {
        self.init(
            generatorName: generatorName, generatorVersion: generatorVersion,
            fonts: manifest.fonts.map { FontRecord(role: $0.role, file: $0.file, faceIndex: $0.faceIndex, sha256: $0.sha256) })
    }
}

/// Errors of the frame export.
public enum FrameExportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The layout options cannot be exported (invalid width or scale).
    case invalidOptions(String)

    public var description: String {
        switch self {
        case .invalidOptions(let m): return "cannot export: \(m)"
        }
    }
}

/// Writes the export of one layout incrementally: `begin`, `append` batches of rows in order,
/// `finish`. The concatenated output is exactly `FrameExport.data` of the same rows.
///
/// The table is the feed's: one section without header or footer, plain or grouped as
/// `options.tableStyle` says (grouped adds the section spacing above and the horizontal inset).
/// Thread-safety: a value; use one stream from one thread at a time (`append` parallelizes itself).
public struct FrameStream: Sendable {
    public let options: FeedOptions
    public let header: FrameExportHeader
    public let format: FrameFormat
    /// The rows written (row indices of the feed); nil writes every row. Rows outside it are still
    /// appended, for their heights: y offsets and the content height are those of the whole feed.
    public let selectedRows: Range<Int>?
    /// True inside a multi-layout document (`FrameExport.beginLayouts`): no trailing newline.
    public let isNested: Bool

    /// Rows appended so far.
    public private(set) var rowCount = 0
    private var rowsWritten = 0
    private var yPixels: Int64
    private let spacingPixels: Int64
    private let insetPixels: Int64
    private let widthPixels: Int64

    /// The largest row origin a stream takes: row indices past it (10^15 − 1) would be no feed's,
    /// and the rows counted after it could overflow.
    public static let maxRowOrigin = 999_999_999_999_999
    /// The bound of a stream's y origin in points (exclusive), the command line's `--y-origin`'s.
    public static let maxYOrigin = 1e15

    /// - Parameters:
    ///   - options: the layout's options (width, style, scale, line limit, table style).
    ///   - header: the generator and fonts written at the top of the document.
    ///   - format: one JSON document, or JSON Lines.
    ///   - rows: the rows written (feed row indices); nil writes every row.
    ///   - isNested: the document is one of several layouts inside a `{"layouts": [...]}` wrapper
    ///     (no header of its own).
    ///   - rowOrigin: the index of the first row appended, for a stream that writes a part of a
    ///     feed whose rows above were laid out elsewhere (one partition of a distributed export):
    ///     its rows are then byte-identical to the same rows of the whole feed's stream, and its
    ///     totals (`rowCount`, `contentHeight`) count the rows above.
    ///   - yOrigin: the y (points, on the pixel grid) of the first row appended, for the same use.
    /// - Throws: `.invalidOptions` when `options.validate()` fails, a row origin is past
    ///   `maxRowOrigin`, or a y origin is outside [0, `maxYOrigin`) (past it, pixels at scale 4
    ///   no longer fit the 64-bit integers the writer formats).
    public init(
        options: FeedOptions, header: FrameExportHeader, format: FrameFormat, rows: Range<Int>? = nil, isNested: Bool = false,
        rowOrigin: Int = 0, yOrigin: Double = 0
    ) throws(FrameExportError) {
        guard rowOrigin >= 0, rowOrigin <= Self.maxRowOrigin, yOrigin.isFinite, yOrigin >= 0, yOrigin < Self.maxYOrigin else {
            throw .invalidOptions(
                "the row origin (\(rowOrigin)) must be in 0...\(Self.maxRowOrigin) and the y origin (\(yOrigin)) in [0, 1e15)")
        }
        do {
            try options.validate()
        } catch {
            throw .invalidOptions(error.description)
        }
        self.options = options
        self.header = header
        self.format = format
        self.selectedRows = rows
        self.isNested = isNested
        let table = TableConfiguration(style: options.tableStyle, width: options.width, scale: options.scale)
        let grid = JSONBytes(scale: options.scale, capacity: 0)
        spacingPixels = grid.pixels(table.sectionSpacing)
        insetPixels = grid.pixels(table.horizontalInset)
        widthPixels = grid.pixels(options.width)
        yPixels = spacingPixels + grid.pixels(yOrigin)
        rowCount = rowOrigin
    }

    /// Appends the document's opening (nothing for JSON Lines).
    public mutating func begin(into out: inout [UInt8]) {
        guard format == .json else { return }
        var w = JSONBytes(scale: options.scale, capacity: 1024)
        Self.layoutHead(options: options, header: header, into: &w)
        w.raw(",\"sections\":[{\"section\":0,\"header\":")
        sectionEdge(spacingPixels, into: &w)
        w.raw(",\"rows\":[")
        w.append(to: &out)
    }

    /// A layout object's keys up to its fonts (shared with the sectioned export).
    static func layoutHead(options: FeedOptions, header: FrameExportHeader, into w: inout JSONBytes) {
        w.raw("{\"schemaVersion\":")
        w.int(FrameExport.schemaVersion)
        w.raw(",\"generator\":")
        FrameExport.generator(header, into: &w)
        w.raw(",\"style\":")
        w.string(options.style.name)
        w.raw(",\"tableStyle\":")
        w.raw(options.tableStyle == .grouped ? "\"grouped\"" : "\"plain\"")
        w.raw(",\"width\":")
        w.plainNumber(options.width)
        w.raw(",\"scale\":")
        w.plainNumber(options.scale)
        w.raw(",\"maxTextLines\":")
        w.int(options.maxTextLines)
        w.raw(",\"fonts\":[")
        for (i, f) in header.fonts.enumerated() {
            if i > 0 { w.byte(UInt8(ascii: ",")) }
            w.raw("{\"role\":")
            w.string(f.role)
            w.raw(",\"file\":")
            w.string(f.file)
            w.raw(",\"faceIndex\":")
            w.int(f.faceIndex)
            w.raw(",\"sha256\":")
            w.string(f.sha256)
            w.byte(UInt8(ascii: "}"))
        }
        w.byte(UInt8(ascii: "]"))
    }

    /// Appends the next rows of the feed, in order: their y offsets continue the running sum.
    /// - Parameters:
    ///   - cells: the next rows' cells.
    ///   - threads: workers that encode slices of the batch (the output does not depend on it).
    ///   - out: the bytes are appended to it.
    /// - Precondition: every cell was laid out at the stream's width and scale (`options`).
    /// - Complexity: O(total size of the cells), divided over the workers.
    public mutating func append(_ cells: [CellGeometry], threads: Int = 1, into out: inout [UInt8]) {
        append(cells[...], threads: threads, into: &out)
    }

    /// Appends the next rows of the feed (see the array form).
    public mutating func append(_ slice: ArraySlice<CellGeometry>, threads: Int = 1, into out: inout [UInt8]) {
        let base = slice.startIndex
        let cells = UnsafeCellList(slice: slice, base: base)
        let first = rowCount
        var ys = [Int64](repeating: 0, count: cells.count)
        let grid = JSONBytes(scale: options.scale, capacity: 0)
        for i in 0..<cells.count {
            Self.checkLaidOut(slice[base + i], width: options.width, scale: options.scale)
            ys[i] = yPixels
            yPixels += grid.pixels(slice[base + i].height)
        }
        rowCount += cells.count
        // The indices of this batch that are written.
        let lo = max(0, min(cells.count, (selectedRows?.lowerBound ?? 0) - first))
        let hi = max(lo, min(cells.count, (selectedRows?.upperBound ?? Int.max) - first))
        guard lo < hi else { return }
        let width: Double? = format == .jsonl ? options.width : nil
        let scale = options.scale
        let json = format == .json
        let leadingWritten = rowsWritten
        let encodeRow: (Int, inout JSONBytes) -> Void = { i, w in
            if json { w.raw(leadingWritten + i - lo == 0 ? "\n" : ",\n") }
            w.row(cells.slice[cells.base + i], section: 0, row: first + i, yPixels: ys[i], width: width)
            if !json { w.byte(0x0A) }
        }
        let encode: (Range<Int>) -> [UInt8] = { range in
            var w = JSONBytes(scale: scale, capacity: range.count * 3072)
            for i in range { encodeRow(i, &w) }
            return w.bytes
        }
        let count = hi - lo
        let workers = max(1, min(threads, count / 32))
        if workers == 1 {
            // Rows go through a small buffer that stays in the cache, into `out` made big enough
            // once: no second copy of the batch, and no fresh pages but the output's own.
            let expected = count * 3072
            if out.capacity - out.count < expected { out.reserveCapacity(max(out.count + expected, 2 * out.capacity)) }
            var w = JSONBytes(scale: scale, capacity: 1 << 15)
            for i in lo..<hi {
                encodeRow(i, &w)
                if w.count >= 1 << 14 {
                    w.append(to: &out)
                    w.removeAll()
                }
            }
            w.append(to: &out)
        } else {
            let parts = UnsafeMutableBufferPointer<[UInt8]>.allocate(capacity: workers)
            parts.initialize(repeating: [])
            nonisolated(unsafe) let p = parts
            nonisolated(unsafe) let run = encode
            DispatchQueue.concurrentPerform(iterations: workers) { k in
                let a = lo + count * k / workers, b = lo + count * (k + 1) / workers
                p[k] = run(a..<b)
            }
            for part in parts { out.append(contentsOf: part) }
            parts.deinitialize()
            parts.deallocate()
        }
        rowsWritten += count
    }

    /// Stops when `cell` was not laid out at the stream's width and scale: its frames would be
    /// written under another layout's width, on another pixel grid.
    @inline(__always)
    static func checkLaidOut(_ cell: CellGeometry, width: Double, scale: Double) {
        precondition(
            cell.width == width && cell.scale == scale,
            "FrameStream: cell \(cell.statusID) laid out at width \(cell.width), scale \(cell.scale); the stream's are \(width), \(scale)")
    }

    /// Appends rows encoded apart from the stream (`EncodedRows`, possibly on other threads), in
    /// order: their row indices and y offsets continue the stream's. The bytes are those `append`
    /// writes for the same cells.
    /// - Complexity: O(bytes of the rows): a copy, two numbers per row.
    public mutating func append(_ rows: EncodedRows, into out: inout [UInt8]) {
        precondition(rows.scale == options.scale, "FrameStream.append: rows encoded at another scale")
        let first = rowCount
        let lo = selectedRows?.lowerBound ?? 0
        let hi = selectedRows?.upperBound ?? Int.max
        let width: Double? = format == .jsonl ? options.width : nil
        let json = format == .json
        var head = JSONBytes(scale: options.scale, capacity: 256)
        var next = 0
        rows.storage.bytes.withBytes { body in
            for i in 0..<rows.heightPixels.count {
                let row = first + i
                if next < rows.pieces.count && Int(rows.pieces[next].row) == i {
                    let piece = rows.pieces[next]
                    next += 1
                    if row >= lo && row < hi {
                        // The row's start and index, its id up to the y, the y, the rest.
                        head.removeAll()
                        if json { head.raw(rowsWritten == 0 ? "\n" : ",\n") }
                        head.rowHead(section: 0, row: row, width: width)
                        head.append(to: &out)
                        out.append(contentsOf: UnsafeBufferPointer(rebasing: body[Int(piece.start)..<Int(piece.hole)]))
                        head.removeAll()
                        head.pixelNumber(yPixels)
                        head.append(to: &out)
                        out.append(contentsOf: UnsafeBufferPointer(rebasing: body[Int(piece.hole)..<Int(piece.end)]))
                        if !json { out.append(0x0A) }
                        rowsWritten += 1
                    }
                }
                yPixels += rows.heightPixels[i]
            }
        }
        rowCount += rows.heightPixels.count
    }

    /// Appends the document's closing: the section footer and the totals (nothing for JSON Lines).
    public mutating func finish(into out: inout [UInt8]) {
        guard format == .json else { return }
        var w = JSONBytes(scale: options.scale, capacity: 256)
        w.raw(rowsWritten > 0 ? "\n],\"footer\":" : "],\"footer\":")
        sectionEdge(yPixels, into: &w)
        w.raw("}],\"rowCount\":")
        w.int(rowCount)
        let lo = min(rowCount, max(0, selectedRows?.lowerBound ?? 0))
        let hi = max(lo, min(rowCount, selectedRows?.upperBound ?? rowCount))
        w.raw(",\"rowRange\":[")
        w.int(lo)
        w.byte(UInt8(ascii: ","))
        w.int(hi)
        w.raw("],\"contentHeight\":")
        w.pixelNumber(yPixels)
        w.byte(UInt8(ascii: "}"))
        if !isNested { w.byte(0x0A) }
        w.append(to: &out)
    }

    /// The batch, shared read-only with the encoding workers.
    private struct UnsafeCellList: @unchecked Sendable {
        let slice: ArraySlice<CellGeometry>
        let base: Int
        var count: Int { slice.count }
    }

    /// The zero-height header or footer rect of the section at `top` pixels.
    private func sectionEdge(_ top: Int64, into w: inout JSONBytes) {
        w.byte(UInt8(ascii: "["))
        w.pixelNumber(insetPixels)
        w.byte(UInt8(ascii: ","))
        w.pixelNumber(top)
        w.byte(UInt8(ascii: ","))
        w.pixelNumber(widthPixels - 2 * insetPixels)
        w.raw(",0]")
    }
}

/// Rows of a feed encoded for a `FrameStream` without their row index and y offset, which depend
/// on every row before them: a batch can be encoded on any thread, before the rows above it are
/// laid out, and spliced into the stream in order (`FrameStream.append(_:into:)`).
///
/// A row is added either with its cell (it is written) or with its height only (it is not
/// written but still moves the rows below it).
public struct EncodedRows: Sendable {
    /// The pixel grid of the stream the rows go to.
    public let scale: Double
    /// Each row's height in whole device pixels.
    public private(set) var heightPixels: [Int64] = []
    /// The encoded rows' bytes, one after the other; owned by this value alone (never shared
    /// between two values that are mutated: a batch's rows are built by one worker, then read).
    fileprivate let storage: Storage
    private(set) var pieces: [Piece] = []

    fileprivate final class Storage: @unchecked Sendable {
        var bytes: JSONBytes
        // A batch of rows is megabytes (512 generated rows are 1.4 MB): starting at 4 MB saves
        // the copies of doubling (pages are only touched when written).
        init(scale: Double) { bytes = JSONBytes(scale: scale, capacity: 1 << 22) }
    }

    /// Where an encoded row's bytes are: from its id to its y, then from its y to its end.
    struct Piece: Sendable {
        var row: Int32
        var start: Int32
        var hole: Int32
        var end: Int32
    }

    public init(scale: Double) {
        self.scale = scale
        storage = Storage(scale: scale)
    }

    /// Rows added so far.
    public var count: Int { heightPixels.count }

    /// Adds a row to be written.
    /// - Precondition: `cell` was laid out at the rows' scale.
    public mutating func append(_ cell: CellGeometry) {
        precondition(cell.scale == scale, "EncodedRows: cell \(cell.statusID) laid out at scale \(cell.scale); the rows' is \(scale)")
        let start = storage.bytes.count
        storage.bytes.rowID(cell)
        let hole = storage.bytes.count
        storage.bytes.rowRest(cell)
        pieces.append(Piece(row: Int32(heightPixels.count), start: Int32(start), hole: Int32(hole), end: Int32(storage.bytes.count)))
        heightPixels.append(storage.bytes.pixels(cell.height))
    }

    /// Adds a row that is not written: only its height counts.
    public mutating func appendHeight(_ height: Double) {
        heightPixels.append(storage.bytes.pixels(height))
    }
}
