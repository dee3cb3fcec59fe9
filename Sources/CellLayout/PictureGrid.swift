import StatusModel
import TextMeasure

/// Picture-grid geometry (docs/cell-spec.md, section 2), relative to the grid's top-left corner.
///
/// `len = roundToPixel((cW + gap) / 3 − gap)`. One picture: aspect-fit inside a square of side
/// `2·len + gap` (a tall picture takes the full height, a wide one the full width); with
/// `keep_size` or a side under 1, a square of `cW / 2`. Two or three pictures: one row of `len`
/// squares; four: 2 × 2; five or six: two rows of three; seven to nine: three rows of three.
package enum PictureGrid {
    /// The side of a grid square (0 when the content is too narrow for three).
    package static func itemLength(contentWidth cW: Double, gap: Double, grid: PixelGrid) -> Double {
        max(0, grid.round((cW + gap) / 3 - gap))
    }

    /// Columns per row for `count` pictures (count ≥ 2).
    package static func columns(_ count: Int) -> Int { count == 4 ? 2 : 3 }

    /// Number of rows for `count` pictures.
    package static func rows(_ count: Int) -> Int {
        switch count {
        case ...0: 0
        case 1...3: 1
        case 4...6: 2
        default: 3
        }
    }

    /// The grid's height for `count` (≥ 2) pictures: one row `len`, two `2·len + gap`, three `3·len + 2·gap`.
    package static func height(count: Int, len: Double, gap: Double) -> Double {
        let r = Double(rows(count))
        return r * len + max(0, r - 1) * gap
    }

    /// The size of a lone picture (unrounded), or nil for a square grid cell.
    package static func singleSize(_ p: Picture, len: Double, contentWidth cW: Double, gap: Double) -> Size {
        let w = Double(p.width), h = Double(p.height)
        if p.keepSize || w < 1 || h < 1 {
            return Size(width: cW / 2, height: cW / 2)
        }
        let side = 2 * len + gap
        if h > w {
            return Size(width: max(1, side * w / h), height: side)
        }
        return Size(width: side, height: max(1, side * h / w))
    }

    /// Frames of at most nine pictures, relative to the grid's origin, on the pixel grid.
    package static func frames(
        _ pictures: ArraySlice<Picture>, contentWidth cW: Double, gap: Double, grid: PixelGrid
    ) -> [Rect] {
        let len = itemLength(contentWidth: cW, gap: gap, grid: grid)
        return pictures.indices.map { frame($0 - pictures.startIndex, of: pictures, len: len, contentWidth: cW, gap: gap, grid: grid) }
    }

    /// The frame of the `i`-th picture (from 0) of `pictures`, as in `frames`, for a caller that
    /// places each picture as it goes; `len` is `itemLength` of the same content width and gap.
    package static func frame(
        _ i: Int, of pictures: ArraySlice<Picture>, len: Double, contentWidth cW: Double, gap: Double, grid: PixelGrid
    ) -> Rect {
        if pictures.count == 1 {
            let s = singleSize(pictures[pictures.startIndex], len: len, contentWidth: cW, gap: gap)
            return grid.round(Rect(x: 0, y: 0, width: s.width, height: s.height))
        }
        let cols = columns(pictures.count)
        let r = Double(i / cols), c = Double(i % cols)
        return grid.round(Rect(x: c * (len + gap), y: r * (len + gap), width: len, height: len))
    }
}
