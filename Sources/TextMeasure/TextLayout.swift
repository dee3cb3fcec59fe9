/// The result of laying out prepared text at a width, and the options that control it.

/// How tall lines are.
public enum LineHeightPolicy: Hashable, Sendable {
    /// Each line is as tall as the largest ascent plus the largest descent of the fonts and inline
    /// objects on it (like CoreText and Pango); lines stack without gaps.
    case natural
    /// A fixed grid: line `i`'s baseline is at `ascent + i * pitch`; a line's box is `ascent` above
    /// and `descent` below its baseline, whatever fonts it holds, so emoji and fallback fonts never
    /// change a line's height.
    case grid(pitch: Double, ascent: Double, descent: Double)

    /// The grid of a font size: pitch `multiple × size`, ascent `ascentFraction × size`, descent
    /// `(1 − ascentFraction) × size` (the Weibo cell uses 1.34 and 0.86).
    public static func grid(size: Double, multiple: Double, ascentFraction: Double) -> LineHeightPolicy {
        .grid(pitch: multiple * size, ascent: ascentFraction * size, descent: (1 - ascentFraction) * size)
    }

    /// The policy as layout applies it: a grid's pitch, ascent and descent each in
    /// [0, `maxExtent`] (`extent`: a NaN ascent made NaN baselines, a negative pitch negative
    /// heights, a pitch of 1e308 infinite ones). The grid itself when it is in range, the
    /// common case, tested with six comparisons.
    @inline(__always)
    var sanitized: LineHeightPolicy {
        guard case .grid(let pitch, let ascent, let descent) = self else { return self }
        if Self.inRange(pitch) && Self.inRange(ascent) && Self.inRange(descent) { return self }
        return .grid(pitch: Self.extent(pitch), ascent: Self.extent(ascent), descent: Self.extent(descent))
    }

    /// The largest pitch, ascent or descent layout uses, and the largest extent of an inline
    /// object (points): sums of a few million of them stay finite.
    static let maxExtent = 1e6

    /// Whether `v` is in [0, `maxExtent`] (false for NaN).
    @inline(__always) static func inRange(_ v: Double) -> Bool { v >= 0 && v <= maxExtent }

    /// `v` in [0, `maxExtent`]: non-finite and negative values 0, larger ones `maxExtent`.
    @inline(__always) static func extent(_ v: Double) -> Double {
        inRange(v) ? v : v > maxExtent && v.isFinite ? maxExtent : 0
    }
}

/// Where lines may break.
public enum WrapMode: UInt8, Hashable, Sendable {
    /// At UAX #14 opportunities; a run that does not fit on a line of its own is then broken at
    /// grapheme-cluster boundaries (UIKit's word wrapping, Pango's WRAP_WORD_CHAR).
    case word
    /// At any grapheme-cluster boundary (character wrapping).
    case character
}

/// Options for `PreparedText.layout`.
public struct LayoutOptions: Hashable, Sendable {
    /// The line width in points. Non-finite or negative widths are treated as 0 (one cluster per line).
    public var width: Double
    /// At most this many lines are shown; 0 means no limit.
    public var maxLines: Int
    public var lineHeight: LineHeightPolicy
    public var wrap: WrapMode
    /// The bounding size is rounded up to this pixel grid (nil: not rounded).
    public var grid: PixelGrid?

    public init(
        width: Double, maxLines: Int = 0, lineHeight: LineHeightPolicy = .natural,
        wrap: WrapMode = .word, grid: PixelGrid? = nil
    ) {
        self.width = width
        self.maxLines = maxLines
        self.lineHeight = lineHeight
        self.wrap = wrap
        self.grid = grid
    }
}

/// One laid-out line.
public struct TextLine: Hashable, Sendable {
    /// UTF-16 range of the text on this line, trailing spaces and the hard break included. On a
    /// truncated last line it ends where the truncation token begins.
    public var range: Range<Int>
    /// Cluster range (indices into the prepared text's clusters).
    public var clusters: Range<Int>
    /// Advance width of the line without hanging spaces (and without the truncation token).
    public var width: Double
    /// Baseline, from the top of the text.
    public var baseline: Double
    public var ascent: Double
    public var descent: Double

    public var top: Double { baseline - ascent }
    public var bottom: Double { baseline + descent }
}

/// Where the truncation token sits: on the last visible line, after the kept text.
public struct TokenPlacement: Hashable, Sendable {
    public var line: Int
    public var x: Double
    public var width: Double
    public init(line: Int, x: Double, width: Double) {
        self.line = line
        self.x = x
        self.width = width
    }
}

/// The rects of an entity, one per line fragment, for hit-testing.
public struct EntityRects: Hashable, Sendable {
    /// Index into the attributed text's `entities`.
    public var entity: Int
    public var rects: [Rect]
}

/// Lines, their metrics and the bounding size of a text at a width.
///
/// The token's placement is stored as plain fields (its line index in 32 bits, −1 for none) rather
/// than as an optional struct, the full line count in 32 bits (a prepared text's offsets are
/// 32-bit), and truncation is read from the counts: the value stays at 64 bytes, and a cell's
/// text boxes, which hold one each, stay small enough (128 bytes) to be copied inline rather than
/// by a call to `memcpy` (a warm cell copies its boxes about twenty times).
public struct TextLayout: Hashable, Sendable {
    public var lines: TextLines
    /// Width of the widest line and height of the text, rounded up to the options' pixel grid.
    public var size: Size
    /// Height the untruncated text would take (rounded like `size`), so expanding is a lookup.
    public var fullHeight: Double
    private var tokenX = 0.0
    private var tokenWidth = 0.0
    private var tokenLine: Int32 = -1
    private var storedFullLineCount: Int32

    /// The number of lines without `maxLines`.
    public var fullLineCount: Int { Int(storedFullLineCount) }

    /// True only when text was cut by `maxLines` (fewer lines are shown than the text has).
    public var isTruncated: Bool { lines.count < fullLineCount }

    /// Where the truncation token sits (nil when the text was not truncated, or without a token).
    public var token: TokenPlacement? {
        get { tokenLine < 0 ? nil : TokenPlacement(line: Int(tokenLine), x: tokenX, width: tokenWidth) }
        set {
            // Unset fields are zero, so that equal layouts have equal stored fields.
            guard let t = newValue else {
                (tokenLine, tokenX, tokenWidth) = (-1, 0, 0)
                return
            }
            precondition(t.line >= 0 && t.line <= Int(Int32.max), "token line index out of range")
            (tokenLine, tokenX, tokenWidth) = (Int32(t.line), t.x, t.width)
        }
    }

    init(lines: TextLines, size: Size, fullLineCount: Int, fullHeight: Double, token: TokenPlacement?) {
        precondition(fullLineCount >= lines.count && fullLineCount <= Int(Int32.max), "line count out of range")
        self.lines = lines
        self.size = size
        self.storedFullLineCount = Int32(fullLineCount)
        self.fullHeight = fullHeight
        self.token = token
    }

    public static let empty = TextLayout(lines: TextLines(), size: .zero, fullLineCount: 0, fullHeight: 0, token: nil)
}
