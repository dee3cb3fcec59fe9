import CellLayout

/// How points map to character cells.
///
/// The scale rule: one terminal line is the line pitch of the style's smallest multi-line text
/// (Weibo: the retweet text, 16 × 1.34 = 21.44 pt; classic: the 14 pt text on the natural line
/// height of the primary face, 14 × 1.448 = 20.272 pt), and one column is half the main text's
/// font size (Weibo 8.5 pt, classic 7 pt), so a CJK character of the main text, one em wide, takes
/// exactly its two columns. Every laid-out text line then gets a terminal line of its own without
/// running into the part below it, and lines hold about as many characters as the engine put on them.
///
/// Vertical placement is relative to each cell: a cell's first terminal line is its separator (the
/// frame's top edge), and the cell's point y maps to line `1 + ⌊y / line⌋` (frames: their edges
/// rounded). A cell of height h takes `1 + ⌈h / line⌉` lines, a function of its height alone, so
/// the terminal lines of a whole feed follow from its heights without any cell being laid out.
public struct PreviewScale: Sendable, Equatable {
    /// Points per terminal column.
    public var pointsPerColumn: Double
    /// Points per terminal line.
    public var pointsPerLine: Double

    public init(pointsPerColumn: Double, pointsPerLine: Double) {
        precondition(pointsPerColumn > 0 && pointsPerLine > 0, "scale MUST be positive")
        self.pointsPerColumn = pointsPerColumn
        self.pointsPerLine = pointsPerLine
    }

    /// The scale of a style (see the type's rule).
    public init(style: CellStyle) {
        switch style.arrangement {
        case .stacked(let m):
            self.init(pointsPerColumn: m.textFontSize / 2, pointsPerLine: m.retweetTextFontSize * m.lineMultiple)
        case .classic(let m):
            self.init(pointsPerColumn: m.textFontSize / 2, pointsPerLine: m.textFontSize * 1.448)
        }
    }

    /// Terminal lines of a cell of height `height`: its separator plus ⌈height / line⌉.
    public func lineCount(ofHeight height: Double) -> Int {
        1 + max(1, Int((height / pointsPerLine - 1e-9).rounded(.up)))
    }

    /// Columns of a cell of width `width`, frame edges included.
    public func columnCount(ofWidth width: Double) -> Int {
        2 + max(1, Int((width / pointsPerColumn - 1e-9).rounded(.up)))
    }

    /// The widest cell (in points) whose frame fits `columns` columns.
    public func width(fittingColumns columns: Int) -> Double {
        Double(max(1, columns - 2)) * pointsPerColumn
    }

    /// Cell-relative line of the point y (line 0 is the separator).
    func line(ofY y: Double) -> Int { 1 + Int((y / pointsPerLine + 1e-9).rounded(.down)) }

    /// Cell-relative column of the point x (column 0 is the frame's left edge).
    func column(ofX x: Double) -> Int { 1 + Int((x / pointsPerColumn + 1e-9).rounded(.down)) }

    /// Lines covered by [minY, maxY): both edges rounded, at least one line.
    func lines(from minY: Double, to maxY: Double) -> Range<Int> {
        let a = 1 + Int((minY / pointsPerLine).rounded())
        let b = 1 + Int((maxY / pointsPerLine).rounded())
        return a..<max(a + 1, b)
    }

    /// Lines of an image block: the top edge rounded, the bottom one floored, so that a gap of
    /// a few points between two pictures shows.
    func blockLines(from minY: Double, to maxY: Double) -> Range<Int> {
        let a = 1 + Int((minY / pointsPerLine).rounded())
        let b = 1 + Int((maxY / pointsPerLine + 1e-9).rounded(.down))
        return a..<max(a + 1, b)
    }

    /// Columns of an image block (like `blockLines`).
    func blockColumns(from minX: Double, to maxX: Double) -> Range<Int> {
        let a = 1 + Int((minX / pointsPerColumn).rounded())
        let b = 1 + Int((maxX / pointsPerColumn + 1e-9).rounded(.down))
        return a..<max(a + 1, b)
    }

    /// Columns covered by [minX, maxX): both edges rounded, at least one column.
    func columns(from minX: Double, to maxX: Double) -> Range<Int> {
        let a = 1 + Int((minX / pointsPerColumn).rounded())
        let b = 1 + Int((maxX / pointsPerColumn).rounded())
        return a..<max(a + 1, b)
    }
}

extension Range<Int> {
    func shifted(by d: Int) -> Range<Int> { (lowerBound + d)..<(upperBound + d) }
}
