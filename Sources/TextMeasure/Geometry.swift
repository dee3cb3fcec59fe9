/// Geometry in points (pt). Frames are quantized to the pixel grid of a screen scale by `PixelGrid`.

/// A point in points, y down.
public struct Point: Hashable, Sendable, Codable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }
    public static let zero = Point(x: 0, y: 0)
}

/// A width and a height in points.
public struct Size: Hashable, Sendable, Codable {
    public var width: Double
    public var height: Double
    public init(width: Double, height: Double) { self.width = width; self.height = height }
    public static let zero = Size(width: 0, height: 0)
}

/// A rectangle in points: its top-left origin and its size.
public struct Rect: Hashable, Sendable, Codable {
    public var origin: Point
    public var size: Size

    public init(x: Double, y: Double, width: Double, height: Double) {
        origin = Point(x: x, y: y)
        size = Size(width: width, height: height)
    }
    public init(origin: Point, size: Size) { self.origin = origin; self.size = size }

    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    public var x: Double { origin.x }
    public var y: Double { origin.y }
    public var width: Double { size.width }
    public var height: Double { size.height }
    public var minX: Double { origin.x }
    public var minY: Double { origin.y }
    public var maxX: Double { origin.x + size.width }
    public var maxY: Double { origin.y + size.height }
    public var midY: Double { origin.y + size.height / 2 }
    public var isEmpty: Bool { size.width <= 0 || size.height <= 0 }

    /// The rect moved by (dx, dy).
    public func offsetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: origin.x + dx, y: origin.y + dy, width: size.width, height: size.height)
    }

    /// True when the two rects share interior area (touching edges do not count).
    public func overlaps(_ other: Rect) -> Bool {
        minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
    }

    /// True when `other` lies inside this rect (edges included).
    public func contains(_ other: Rect) -> Bool {
        other.minX >= minX && other.maxX <= maxX && other.minY >= minY && other.maxY <= maxY
    }
}

/// The pixel grid of a screen scale (1, 2 or 3 pixels per point).
///
/// Every frame edge MUST go through the same rounding function, so that two frames that share an
/// edge before rounding share it after rounding: rounding edges (not origins and sizes separately)
/// creates no gaps and no overlaps.
public struct PixelGrid: Hashable, Sendable {
    public let scale: Double

    /// - Precondition: `scale` is finite and positive.
    public init(scale: Double) {
        precondition(scale.isFinite && scale > 0, "scale must be finite and positive")
        self.scale = scale
    }

    /// The nearest grid position (ties away from zero).
    @inlinable @inline(__always) public func round(_ v: Double) -> Double { Self.roundHalfAwayFromZero(v * scale) / scale }
    /// The smallest grid position not below `v` (tolerates 1e-9 of float noise).
    @inlinable @inline(__always) public func ceil(_ v: Double) -> Double { (v * scale - 1e-9).rounded(.up) / scale }
    /// The largest grid position not above `v` (tolerates 1e-9 of float noise).
    @inlinable package func floor(_ v: Double) -> Double { (v * scale + 1e-9).rounded(.down) / scale }

    /// A rect whose four edges are each rounded to the grid.
    @inlinable @inline(__always) public func round(_ r: Rect) -> Rect {
        let x0 = round(r.minX), y0 = round(r.minY)
        let x1 = round(r.maxX), y1 = round(r.maxY)
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// `x.rounded()` (to nearest, ties away from zero), computed inline. On x86-64 without SSE4.1
    /// `rounded()` is a call into libm's `round` (~20 instructions plus the call, dozens of times
    /// per cell). Here, for |x| < 2⁵², adding 2⁵² to |x| lands where the doubles are exactly the
    /// integers, so the sum rounds |x| to the nearest integer (ties to even) and subtracting 2⁵²
    /// again is exact; a tie that went down to the even neighbour goes up instead (`n − |x|` is
    /// exact, its magnitude at most ½). The result is bit-identical, the sign of zero included,
    /// in ~11 instructions where a conversion through `Int64` took ~22 (its range checks).
    /// Larger magnitudes (already integers), infinities and NaN go to `rounded()`.
    @inlinable @inline(__always) static func roundHalfAwayFromZero(_ x: Double) -> Double {
        let magnitude = abs(x)
        guard magnitude < 0x1p52 else { return x.rounded() }
        var n = (magnitude + 0x1p52) - 0x1p52
        if n - magnitude == -0.5 { n += 1 }
        return Double(signOf: x, magnitudeOf: n)
    }

    /// True when `v` lies on the grid.
    @inlinable package func isAligned(_ v: Double) -> Bool {
        let p = v * scale
        return abs(p - p.rounded()) < 1e-6
    }
}
