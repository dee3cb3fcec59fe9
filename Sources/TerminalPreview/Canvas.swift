import UnicodeText

/// How a character cell is drawn: foreground and background from the 256-colour palette, bold.
package struct TerminalStyle: Hashable, Sendable {
    package var foreground: UInt8?
    package var background: UInt8?
    package var bold: Bool

    package init(foreground: UInt8? = nil, background: UInt8? = nil, bold: Bool = false) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
    }

    package static let plain = TerminalStyle()

    /// The SGR sequence selecting this style from any other (it starts with a reset).
    var sgr: String {
        var s = "\u{1B}[0"
        if bold { s += ";1" }
        if let f = foreground { s += ";38;5;\(f)" }
        if let b = background { s += ";48;5;\(b)" }
        return s + "m"
    }
}

/// A grid of character cells: what the renderer draws into and prints.
///
/// Every string reaching the canvas goes through `TerminalText.sanitized`, so the canvas never
/// holds a control character. A wide character takes two cells: the second is a continuation
/// cell. Overwriting half of a wide character blanks its other half. Drawing outside `clip` is
/// ignored.
///
/// Thread-safety: a value type; not shared.
package struct Canvas: Sendable, Equatable {
    struct Cell: Sendable, Equatable {
        /// One grapheme cluster; "" marks the right half of a wide character.
        var text: String
        var style: TerminalStyle
    }

    package let width: Int
    package let height: Int
    fileprivate var cells: [Cell]
    /// Columns and lines drawing may touch (half-open).
    var clipX: Range<Int>
    var clipY: Range<Int>

    package init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: Cell(text: " ", style: .plain), count: self.width * self.height)
        clipX = 0..<self.width
        clipY = 0..<self.height
    }

    /// Restricts drawing to `x` × `y` (intersected with the canvas) while `body` runs.
    mutating func clipped(x: Range<Int>, y: Range<Int>, _ body: (inout Canvas) -> Void) {
        let (ox, oy) = (clipX, clipY)
        clipX = x.clamped(to: 0..<width)
        clipY = y.clamped(to: 0..<height)
        body(&self)
        clipX = ox
        clipY = oy
    }

    /// The cluster at (x, y) ("" for the right half of a wide character).
    package func character(x: Int, y: Int) -> String { cells[y * width + x].text }

    /// The style at (x, y).
    package func style(x: Int, y: Int) -> TerminalStyle { cells[y * width + x].style }

    /// Places one cluster taking `columns` cells (1 or 2) at (x, y). A cluster that does not fit
    /// inside the clip whole is not drawn. `cluster` MUST already be sanitised.
    mutating func put(_ cluster: String, columns: Int, x: Int, y: Int, style: TerminalStyle) {
        guard columns > 0, clipY.contains(y), x >= clipX.lowerBound, x + columns <= clipX.upperBound else { return }
        for c in x..<(x + columns) { unlink(x: c, y: y) }
        cells[y * width + x] = Cell(text: cluster, style: style)
        if columns == 2 { cells[y * width + x + 1] = Cell(text: "", style: style) }
    }

    /// Appends zero-width scalars (combining marks that the text engine measured as a cluster of
    /// their own, such as a mark on a space) to the character drawn at (x, y), so they combine
    /// with it on the terminal as they did in the text.
    mutating func combine(_ marks: String, x: Int, y: Int) {
        guard clipY.contains(y), clipX.contains(x) else { return }
        var i = y * width + x
        if cells[i].text.isEmpty, x > 0 { i -= 1 }  // the right half of a wide character
        cells[i].text += marks
    }

    /// Blanks the other half of a wide character at (x, y), if any.
    private mutating func unlink(x: Int, y: Int) {
        let i = y * width + x
        if cells[i].text.isEmpty, x > 0 {
            cells[i - 1].text = " "
        } else if x + 1 < width, cells[i + 1].text.isEmpty {
            cells[i + 1].text = " "
        }
    }

    /// Writes `string` from (x, y) rightwards, cluster by cluster, sanitised; stops at `maxX`
    /// (exclusive, default the clip's right edge). Returns the column after the last cluster drawn.
    @discardableResult
    mutating func text(_ string: String, x: Int, y: Int, style: TerminalStyle, maxX: Int? = nil) -> Int {
        let limit = min(maxX ?? clipX.upperBound, clipX.upperBound)
        var col = x
        for ch in TerminalText.sanitized(string) {
            let w = UnicodeProperties.terminalColumns(ofCluster: ch.unicodeScalars.lazy.map(\.value))
            if w == 0 { continue }
            if col + w > limit { break }
            put(String(ch), columns: w, x: col, y: y, style: style)
            col += w
        }
        return col
    }

    /// Sets the background of the cells in `x` × `y`, keeping their characters.
    mutating func shade(x: Range<Int>, y: Range<Int>, background: UInt8, foreground: UInt8?) {
        for row in y.clamped(to: clipY) {
            for col in x.clamped(to: clipX) {
                cells[row * width + col].style.background = background
                if let foreground, cells[row * width + col].style.foreground == nil {
                    cells[row * width + col].style.foreground = foreground
                }
            }
        }
    }

    /// Fills `x` × `y` with `character` (one column wide).
    mutating func fill(x: Range<Int>, y: Range<Int>, character: String, style: TerminalStyle) {
        // Only the clipped part is visited: a picture can be far larger than the slice drawn.
        for row in y.clamped(to: clipY) {
            for col in x.clamped(to: clipX) { put(character, columns: 1, x: col, y: row, style: style) }
        }
    }

    /// A horizontal rule on line `y` from `x.lowerBound` to `x.upperBound - 1`: `left`, `fill`…, `right`.
    mutating func rule(y: Int, x: Range<Int>, left: String, fill: String, right: String, style: TerminalStyle = .plain) {
        guard x.count >= 2 else { return }
        put(left, columns: 1, x: x.lowerBound, y: y, style: style)
        for col in (x.lowerBound + 1)..<(x.upperBound - 1) { put(fill, columns: 1, x: col, y: y, style: style) }
        put(right, columns: 1, x: x.upperBound - 1, y: y, style: style)
    }

    /// A box with light box-drawing characters around `x` × `y` (the edges are the outer cells).
    mutating func box(x: Range<Int>, y: Range<Int>, style: TerminalStyle = .plain) {
        guard x.count >= 2, y.count >= 1 else { return }
        if y.count == 1 {
            rule(y: y.lowerBound, x: x, left: "[", fill: "─", right: "]", style: style)
            return
        }
        rule(y: y.lowerBound, x: x, left: "┌", fill: "─", right: "┐", style: style)
        for row in (y.lowerBound + 1)..<(y.upperBound - 1) {
            put("│", columns: 1, x: x.lowerBound, y: row, style: style)
            put("│", columns: 1, x: x.upperBound - 1, y: row, style: style)
        }
        rule(y: y.upperBound - 1, x: x, left: "└", fill: "─", right: "┘", style: style)
    }

    /// The canvas as lines of text.
    ///
    /// Without colour, no escape byte is written and trailing spaces are dropped. With colour, a
    /// line's style changes are SGR sequences (`ESC [ … m`) only, and each line ends with a reset.
    /// - Parameter columns: print at most this many columns (a wide character cut by the edge is
    ///   left out).
    package func lines(color: Bool, columns: Int? = nil) -> [String] {
        let limit = min(columns ?? width, width)
        var out: [String] = []
        out.reserveCapacity(height)
        for y in 0..<height {
            var line = ""
            var current = TerminalStyle.plain
            var col = 0
            while col < limit {
                let cell = cells[y * width + col]
                let wide = col + 1 < width && cells[y * width + col + 1].text.isEmpty
                if cell.text.isEmpty || (wide && col + 1 >= limit) {
                    if !cell.text.isEmpty { line += " " }
                    col += 1
                    continue
                }
                if color && cell.style != current {
                    line += cell.style.sgr
                    current = cell.style
                }
                line += cell.text
                col += wide ? 2 : 1
            }
            if color {
                if current != .plain { line += "\u{1B}[0m" }
            } else {
                while line.last == " " { line.removeLast() }
            }
            out.append(line)
        }
        return out
    }
}

extension Canvas {
    /// Copies `other` onto this canvas with its top-left cell at (x, y), inside the clip.
    mutating func place(_ other: Canvas, x: Int, y: Int) {
        for row in 0..<other.height where clipY.contains(y + row) {
            for col in 0..<other.width where clipX.contains(x + col) {
                cells[(y + row) * width + x + col] = other.cells[row * other.width + col]
            }
        }
    }

    /// Writes `string` (sanitised) from (x, y) in `style`; returns the column after it.
    @discardableResult
    package mutating func write(_ string: String, x: Int, y: Int, style: TerminalStyle = .plain) -> Int {
        text(string, x: x, y: y, style: style)
    }
}
