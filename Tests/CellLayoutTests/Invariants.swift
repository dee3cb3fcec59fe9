import Foundation
import StatusModel
import TextMeasure
import XCTest

@testable import CellLayout

/// Checks of a laid-out cell against the spec, computed independently of the arrangers where it
/// matters (block heights, text heights, picture sizes). Each returns human-readable failures.
enum Invariants {
    static let pitch17 = 1.34 * 17, pitch16 = 1.34 * 16

    /// Every frame of the cell with a name, for containment and grid checks.
    static func frames(of c: CellGeometry) -> [(String, Rect)] {
        var out: [(String, Rect)] = []
        func text(_ name: String, _ t: TextBox) {
            out.append((name, t.frame))
            for e in t.entities { for r in e.rects { out.append(("\(name).\(e.kind.rawValue)", r)) } }
            for a in t.attachments { out.append(("\(name).object", a.frame)) }
            if let k = t.token { out.append(("\(name).token", k)) }
        }
        func grid(_ name: String, _ g: PictureGridLayout) {
            out.append((name, g.frame))
            for p in g.pictures {
                out.append(("\(name).picture", p.frame))
                if let b = p.badge { out.append(("\(name).badge", b.frame)) }
            }
        }
        func card(_ name: String, _ k: CardLayout) {
            out.append((name, k.frame))
            if let i = k.image { out.append(("\(name).image", i)) }
            if let b = k.badge { out.append(("\(name).badge", b.frame)) }
            if let b = k.button { out.append(("\(name).button", b)) }
            if let t = k.text { text("\(name).text", t) }
        }
        for b in c.blocks { out.append(("block.\(b.kind.rawValue)", b.frame)) }
        out.append(("avatar", c.avatar))
        if let b = c.avatarBadge { out.append(("avatarBadge", b.frame)) }
        text("name", c.name)
        if let b = c.memberBadge { out.append(("memberBadge", b.frame)) }
        text("time", c.time)
        if let s = c.source { text("source", s) }
        if let t = c.titleBar {
            out.append(("title", t.frame))
            if let i = t.icon { out.append(("title.icon", i)) }
            text("title.label", t.label)
        }
        if let t = c.text { text("text", t) }
        if let r = c.retweet {
            out.append(("retweet", r.frame))
            text("retweet.text", r.text)
            if let g = r.pictures { grid("retweet.pictures", g) }
            if let k = r.card { card("retweet.card", k) }
        }
        if let g = c.pictures { grid("pictures", g) }
        if let k = c.card { card("card", k) }
        if let t = c.tag {
            out.append(("tag", t.frame))
            if let i = t.icon { out.append(("tag.icon", i)) }
            text("tag.label", t.label)
        }
        if let bar = c.toolbar {
            out.append(("toolbar", bar.frame))
            for b in bar.buttons {
                out.append(("toolbar.\(b.kind.rawValue)", b.frame))
                out.append(("toolbar.\(b.kind.rawValue).icon", b.icon))
                text("toolbar.\(b.kind.rawValue).label", b.label)
            }
        }
        return out
    }

    /// Pairs of frames that must not overlap, with their names.
    static func siblings(of c: CellGeometry) -> [[(String, Rect)]] {
        var groups: [[(String, Rect)]] = []
        groups.append(c.blocks.map { ($0.kind.rawValue, $0.frame) })
        var header: [(String, Rect)] = [("avatar", c.avatar), ("name", c.name.frame), ("time", c.time.frame)]
        if let b = c.memberBadge { header.append(("memberBadge", b.frame)) }
        if let s = c.source { header.append(("source", s.frame)) }
        groups.append(header)
        for g in [c.pictures, c.retweet?.pictures].compactMap({ $0 }) {
            groups.append(g.pictures.map { ("picture", $0.frame) })
        }
        if let r = c.retweet {
            groups.append([("retweet.text", r.text.frame)] + [r.pictures?.frame, r.card?.frame].compactMap { $0 }.map { ("below", $0) })
        }
        for k in [c.card, c.retweet?.card].compactMap({ $0 }) where !k.isVideo {
            groups.append([k.image.map { ("image", $0) }, k.button.map { ("button", $0) }, k.text.map { ("text", $0.frame) }].compactMap { $0 })
        }
        if let t = c.tag { groups.append([t.icon.map { ("icon", $0) }, ("label", t.label.frame)].compactMap { $0 }) }
        if let t = c.titleBar { groups.append([t.icon.map { ("icon", $0) }, ("label", t.label.frame)].compactMap { $0 }) }
        if let bar = c.toolbar {
            groups.append(bar.buttons.map { ($0.kind.rawValue, $0.frame) })
            for b in bar.buttons { groups.append([("icon", b.icon), ("label", b.label.frame)]) }
        }
        return groups
    }

    /// Geometry checks common to every style.
    static func checkGeometry(_ c: CellGeometry) -> [String] {
        var failures: [String] = []
        let cell = Rect(x: 0, y: 0, width: c.width, height: c.height)
        let grid = PixelGrid(scale: c.scale)
        for (name, r) in frames(of: c) {
            if !cell.contains(r) { failures.append("\(name) \(r) outside the cell \(cell)") }
            for v in [r.minX, r.minY, r.maxX, r.maxY] where !grid.isAligned(v) {
                failures.append("\(name) \(r) edge \(v) off the \(c.scale)x grid")
            }
        }
        for group in siblings(of: c) {
            for i in group.indices {
                for j in group.indices where j > i && group[i].1.overlaps(group[j].1) {
                    failures.append("\(group[i].0) \(group[i].1) overlaps \(group[j].0) \(group[j].1)")
                }
            }
        }
        // Blocks tile the cell from 0 to the height.
        var y = 0.0
        for b in c.blocks {
            if abs(b.frame.minY - y) > 1e-9 { failures.append("block \(b.kind) starts at \(b.frame.minY), expected \(y)") }
            y = b.frame.maxY
        }
        if abs(y - c.height) > 1e-9 { failures.append("blocks end at \(y), height \(c.height)") }
        return failures
    }

    /// Height of a text block on the grid of `size` with `n` lines: 10 + lines + 10, or 0 without text.
    static func textBlockHeight(lines n: Int, pitch: Double, size: Double, grid: PixelGrid) -> Double {
        n == 0 ? 0 : 20 + grid.ceil(size + pitch * Double(n - 1))
    }

    /// The spec's picture-grid height for `pictures` at content width `cW`.
    static func gridHeight(_ pictures: [Picture], cW: Double, grid: PixelGrid) -> Double {
        let len = grid.round((cW + 4) / 3 - 4)
        switch pictures.count {
        case 0: return 0
        case 1:
            let p = pictures[0]
            if p.keepSize || p.width < 1 || p.height < 1 { return grid.round(cW / 2) }
            let side = 2 * len + 4
            return p.height > p.width ? side : grid.round(max(1, side * Double(p.height) / Double(p.width)))
        case 2...3: return len
        case 4...6: return 2 * len + 4
        default: return 3 * len + 8
        }
    }

    /// The Weibo checks of docs/cell-spec.md section 2 for `status` laid out as `c`.
    static func checkWeibo(_ c: CellGeometry, status s: Status) -> [String] {
        var failures = checkGeometry(c)
        let grid = PixelGrid(scale: c.scale)
        let W = c.width, cW = W - 24
        func expect(_ what: String, _ got: Double?, _ want: Double) {
            guard let got else { return failures.append("\(what) missing, expected \(want)") }
            if abs(got - want) > 1e-9 { failures.append("\(what) = \(got), expected \(want)") }
        }
        // Text block: 10 + 10 + the grid formula for its line count.
        let textLines = c.text?.layout.lines.count ?? 0
        let textH = textBlockHeight(lines: textLines, pitch: pitch17, size: 17, grid: grid)
        expect("text block", c.block(.text)?.frame.height ?? 0, textH)
        if let t = c.text {
            expect("text frame height", t.frame.height, grid.ceil(17 + pitch17 * Double(textLines - 1)))
            expect("text width", t.frame.width, cW)
        }
        // Below the text: retweet | pictures | card.
        var middle = 0.0
        var ownPicturesOrCard = false
        if let rt = s.retweetedStatus {
            guard let r = c.retweet else { return failures + ["retweet missing"] }
            var h = textBlockHeight(lines: r.text.layout.lines.count, pitch: pitch16, size: 16, grid: grid)
            let pics = Array(rt.pictures.prefix(9))
            if !pics.isEmpty {
                let gh = gridHeight(pics, cW: cW, grid: grid)
                expect("retweet grid", r.pictures?.frame.height, gh)
                h += gh + 12
            } else if let page = rt.pageInfo {
                let ch = page.isVideo ? grid.round((2 * cW - 4) / 3) : 70
                expect("retweet card", r.card?.frame.height, ch)
                h += ch + 12
            }
            expect("retweet block", r.frame.height, h)
            middle = h
        } else if !s.pictures.isEmpty {
            let gh = gridHeight(Array(s.pictures.prefix(9)), cW: cW, grid: grid)
            expect("picture grid", c.pictures?.frame.height, gh)
            if let g = c.pictures {
                let len = grid.round((cW + 4) / 3 - 4)
                if g.pictures.count > 1 {
                    for p in g.pictures where abs(p.frame.width - len) > 1e-9 || abs(p.frame.height - len) > 1e-9 {
                        failures.append("grid picture \(p.frame) is not \(len) square")
                    }
                }
            }
            middle = gh
            ownPicturesOrCard = true
        } else if let page = s.pageInfo {
            let ch = page.isVideo ? grid.round((2 * cW - 4) / 3) : 70
            expect("card", c.card?.frame.height, ch)
            middle = ch
            ownPicturesOrCard = true
        }
        let tagH: Double = s.tag.map { $0.name.isEmpty ? 0 : ($0.isPlace ? 40 : 32) } ?? 0
        let gap: Double = tagH == 0 && ownPicturesOrCard ? 12 : 0
        let title: Double = (s.titleBar.map { !$0.text.isEmpty } ?? false) ? 36 : 0
        expect("row height", c.height, 8 + title + 56 + textH + middle + tagH + gap + 35 + 2)
        // Profile constants.
        let profileTop = 8 + title
        expect("avatar x", c.avatar.minX, 12)
        expect("avatar y", c.avatar.minY, profileTop + 15)
        expect("name x", c.name.frame.minX, 66)
        if c.name.frame.width > W - 110 + 1e-9 { failures.append("name wider than W − 110") }
        if abs(c.name.frame.midY - (profileTop + 27)) > 1 / c.scale { failures.append("name not centred on 27") }
        if abs(c.time.frame.midY - (profileTop + 47)) > 1 / c.scale { failures.append("time not centred on 47") }
        if let bar = c.toolbar, bar.buttons.count == 3 {
            let widths = bar.buttons.map(\.frame.width)
            if widths.max()! - widths.min()! > 1 / c.scale + 1e-9 { failures.append("toolbar buttons unequal \(widths)") }
        } else {
            failures.append("toolbar missing")
        }
        return failures
    }

    /// The classic relations of docs/cell-spec.md section 1 (labels may be clipped at the right padding).
    static func checkClassic(_ c: CellGeometry, status s: Status) -> [String] {
        var failures = checkGeometry(c)
        func expect(_ what: String, _ got: Double?, _ want: Double) {
            guard let got else { return failures.append("\(what) missing") }
            if abs(got - want) > 1e-9 { failures.append("\(what) = \(got), expected \(want)") }
        }
        if c.avatar != Rect(x: 10, y: 10, width: 40, height: 40) { failures.append("avatar \(c.avatar)") }
        expect("name x", c.name.frame.minX, 60)
        expect("name y", c.name.frame.minY, 10)
        if let b = c.memberBadge {
            expect("badge x", b.frame.minX, c.name.frame.maxX + 10)
            expect("badge size", b.frame.width, 13)
        }
        expect("date x", c.time.frame.minX, 60)
        expect("date bottom", c.time.frame.maxY, 50)
        expect("source x", c.source?.frame.minX, c.time.frame.maxX + 10)
        expect("source y", c.source?.frame.minY, c.time.frame.minY)
        if let t = c.text {
            expect("text x", t.frame.minX, 10)
            expect("text y", t.frame.minY, 60)
            if t.frame.width > c.width - 20 + 1e-9 { failures.append("text wider than W − 20") }
            expect("height", c.height, t.frame.maxY + 10)
        } else {
            expect("height", c.height, 70)
        }
        return failures
    }
}
