import CellLayout

/// How points map to character cells.
///
/// The scale rule: one terminal line is the line pitch of the style's smallest multi-line text
/// (Weibo: the retweet text, 16 × 1.34 = 21.44 pt; classic: the 14 pt text on the natural line
/// height of the primary face, 14 × 1.448 = 20.272 pt), so every laid-out text line gets a terminal
/// line of its own without running into the part below it. One column is 0.4 em of the main text
/// (Weibo 6.8 pt, classic 5.6 pt): characters are written one after another (a CJK character or an
/// emoji on two columns, others on one), so a column must be narrow enough that a line the engine
/// filled with narrow Latin letters still fits its frame. At 0.5 em (CJK exactly two columns) about
/// 1 line in 13 of the shared Weibo corpus at 320 pt outgrows its frame; at 0.4 em none does, at
/// 320, 375 or 414 pt, in either style. CJK text then fills about 80 % of its frame's width.
///
/// Vertical placement is relative to each cell: a cell's first terminal line is its separator (the
/// frame's top edge), and the cell's point y maps to line `1 + ⌊y / line⌋` (frames: their edges
/// rounded). A cell of height h takes `1 + ⌈h / line⌉` lines, a function of its height alone, so
/// the terminal lines of a whole feed follow from its heights without any cell being laid out.
package struct PreviewScale: Sendable, Equatable {
    /// Points per terminal column.
    package var pointsPerColumn: Double
    /// Points per terminal line.
    package var pointsPerLine: Double

    package init(pointsPerColumn: Double, pointsPerLine: Double) {
        precondition(pointsPerColumn > 0 && pointsPerLine > 0, "scale MUST be positive")
        self.pointsPerColumn = pointsPerColumn
        self.pointsPerLine = pointsPerLine
    }

    /// Width of a column in ems of the main text.
    package static let columnEm = 0.4

    /// The scale of a style (see the type's rule).
    package init(style: CellStyle) {
        switch style.arrangement {
        case .stacked(let m):
            self.init(pointsPerColumn: m.textFontSize * Self.columnEm, pointsPerLine: m.retweetTextFontSize * m.lineMultiple)
        case .classic(let m):
            self.init(pointsPerColumn: m.textFontSize * Self.columnEm, pointsPerLine: m.textFontSize * 1.448)
        case .list(let m):
            // A 60 pt row is three lines: the separator, the name and the signature.
            self.init(pointsPerColumn: m.nameFontSize * Self.columnEm, pointsPerLine: m.rowHeight / 2)
        }
    }

    /// Terminal lines of a cell of height `height`: its separator plus ⌈height / line⌉.
    package func lineCount(ofHeight height: Double) -> Int {
        1 + max(1, Int((height / pointsPerLine - 1e-9).rounded(.up)))
    }

    /// Columns of a cell of width `width`, frame edges included.
    package func columnCount(ofWidth width: Double) -> Int {
        2 + max(1, Int((width / pointsPerColumn - 1e-9).rounded(.up)))
    }

    /// The widest cell (in points) whose frame fits `columns` columns.
    package func width(fittingColumns columns: Int) -> Double {
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

    /// Lines of an image block: both edges rounded (a picture grid then keeps a gap line between
    /// its rows by taking the last line off a picture that touches the one below it).
    func blockLines(from minY: Double, to maxY: Double) -> Range<Int> { lines(from: minY, to: maxY) }

    /// Columns of an image block: both edges floored (like text, so a picture lines up with the
    /// text above it), so that a gap of a few points between two pictures shows.
    func blockColumns(from minX: Double, to maxX: Double) -> Range<Int> {
        let a = 1 + Int((minX / pointsPerColumn + 1e-9).rounded(.down))
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
