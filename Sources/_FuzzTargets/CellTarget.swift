// The cell layout target: a status built from fuzzed fields, prepared in both styles and laid
// out at a fuzzed width, scale and line limit.
import CellLayout
import Foundation
import StatusModel
import TextMeasure

public enum CellTarget {
    // No prepared-cell cache: the second preparation below must really prepare again.
    static let engine = CellLayoutEngine(
        measurer: TextTarget.measurer, now: Date(timeIntervalSince1970: 1_700_000_000), preparedCellBudgetBytes: 0)

    /// Input layout: 12 parameter bytes, then fields separated by 0x1F: text, user name, source,
    /// retweeted text, tag name, card title, card description, title bar, topic, link title.
    public static func run(_ input: inout FuzzInput) {
        let steps = input.uint16()
        let scale = Double(input.byte() % 3 + 1)
        let width = 240 + Double(steps % 2400) / scale  // 240 … 2639 pt, on the pixel grid
        let maxLines = Int(input.byte() % 10)
        let flags = input.uint16()
        let counts = input.byte()
        let pictureSeed = input.uint16()
        let textMode = input.byte()
        let created = Double(input.uint16()) * 60_000
        _ = input.byte()

        func next() -> String { fuzzText(input.field(), mode: textMode) }
        let text = next(), name = next(), source = next(), retweetText = next()
        let tagName = next(), cardTitle = next(), cardDesc = next(), title = next(), topic = next(), link = next()

        func pictures(_ n: Int, salt: Int) -> [Picture] {
            (0..<n).map { i in
                let h = (Int(pictureSeed) &* 31 &+ i &* 7 &+ salt) & 0xFFFF
                let kinds: [Picture.Kind] = [.jpeg, .gif, .other]
                return Picture(
                    id: "p\(i)", url: "", width: h % 5 == 0 ? 0 : h % 3000, height: (h >> 3) % 9000,
                    kind: kinds[h % kinds.count], keepSize: h % 11 == 0)
            }
        }
        var retweet: Status?
        if flags & 1 != 0 {
            retweet = Status(
                id: 2, text: retweetText, user: User(id: 3, name: String(name.prefix(8))),
                pictures: pictures(Int(counts >> 4), salt: 1),
                pageInfo: flags & 2 != 0 ? PageInfo(title: cardTitle, desc: cardDesc, objectType: flags & 4 != 0 ? "video" : "webpage") : nil)
        }
        let status = Status(
            id: 1, createdAt: Date(timeIntervalSince1970: 1_700_000_000 - created), source: source, text: text,
            user: User(id: 4, name: name, verifiedType: Int(flags >> 3 & 3) - 1, mbrank: Int(flags >> 5 & 7), mbtype: Int(flags >> 8 & 15)),
            isDeleted: flags & 0x1000 != 0, retweetedStatus: retweet,
            pictures: retweet == nil ? pictures(Int(counts & 15), salt: 0) : [],
            urlEntities: link.isEmpty ? [] : [URLEntity(shortURL: "http://t.cn/A", title: link, type: Int(flags >> 13 & 3))],
            topics: topic.isEmpty ? [] : [Topic(title: topic)],
            tag: tagName.isEmpty ? nil : Tag(name: tagName, type: Int(flags >> 15)),
            pageInfo: retweet == nil && flags & 2 != 0 ? PageInfo(title: cardTitle, desc: cardDesc, objectType: flags & 4 != 0 ? "video" : "webpage") : nil,
            titleBar: title.isEmpty ? nil : TitleBar(text: title),
            repostsCount: Int(pictureSeed) * 977, commentsCount: Int(counts) * 13, attitudesCount: Int(created),
            liked: flags & 0x4000 != 0, memberBadge: flags & 0x2000 != 0 ? "vip" : nil)

        for style in [CellStyle.weibo, .classic] {
            let prepared = engine.prepare(status, style: style)
            let cell = prepared.layout(width: width, scale: scale, maxTextLines: maxLines)
            if ProcessInfo.processInfo.environment["FUZZ_DEBUG"] != nil {
                for box in textBoxes(of: cell) {
                    let options = LayoutOptions(width: box.frame.width, maxLines: 0)
                    dump(box.prepared.text, box.prepared, options, box.layout)
                }
            }
            check(cell, width: width, scale: scale)
            let full = prepared.layout(width: width, scale: scale)
            check(full, width: width, scale: scale)
            fuzzCheck(cell.height <= full.height + 1e-9, "a line limit made the cell taller: \(cell.height) > \(full.height)")
            fuzzCheck(abs(cell.expandedHeight - full.height) < 1e-9, "expanded height \(cell.expandedHeight), full layout \(full.height)")
            let again = engine.prepare(status, style: style).layout(width: width, scale: scale, maxTextLines: maxLines)
            fuzzCheck(again == cell, "second layout differs (\(style))")
        }
    }

    static func check(_ c: CellGeometry, width: Double, scale: Double) {
        let eps = 1e-9
        fuzzCheck(c.width == width && c.height.isFinite && c.height >= 0, "cell \(c.width)×\(c.height)")
        let cell = Rect(x: 0, y: 0, width: c.width, height: c.height)
        let grid = PixelGrid(scale: scale)
        for (name, r) in frames(of: c) {
            fuzzCheck([r.minX, r.minY, r.maxX, r.maxY].allSatisfy(\.isFinite), "\(name) \(r) not finite")
            fuzzCheck(r.width >= 0 && r.height >= 0, "\(name) \(r) negative size")
            fuzzCheck(
                r.minX >= -eps && r.minY >= -eps && r.maxX <= cell.maxX + eps && r.maxY <= cell.maxY + eps,
                "\(name) \(r) outside the cell \(cell) (\(c.styleName))")
            for v in [r.minX, r.minY, r.maxX, r.maxY] {
                fuzzCheck(grid.isAligned(v), "\(name) \(r) off the \(scale)x grid (\(c.styleName))")
            }
        }
        var y = 0.0
        for b in c.blocks {
            fuzzCheck(abs(b.frame.minY - y) < eps, "block \(b.kind) starts at \(b.frame.minY), expected \(y)")
            y = b.frame.maxY
        }
        fuzzCheck(abs(y - c.height) < eps, "blocks end at \(y), height \(c.height)")
        for box in textBoxes(of: c) {
            let n = box.prepared.text.utf16Count
            var unit = 0
            for line in box.layout.lines {
                fuzzCheck(line.range.lowerBound == unit, "text line starts at \(line.range.lowerBound), expected \(unit)")
                unit = line.range.upperBound
            }
            if !box.layout.isTruncated && box.prepared.clusterCount > 0 {
                fuzzCheck(unit == n, "text lines end at \(unit) of \(n)")
            }
        }
    }

    static func textBoxes(of c: CellGeometry) -> [TextBox] {
        var boxes = [c.name, c.time]
        if let s = c.source { boxes.append(s) }
        if let t = c.titleBar { boxes.append(t.label) }
        if let t = c.text { boxes.append(t) }
        if let r = c.retweet {
            boxes.append(r.text)
            if let t = r.card?.text { boxes.append(t) }
        }
        if let t = c.card?.text { boxes.append(t) }
        if let t = c.tag { boxes.append(t.label) }
        if let buttons = c.toolbar?.buttons { for b in buttons { boxes.append(b.label) } }
        return boxes
    }

    static func frames(of c: CellGeometry) -> [(String, Rect)] {
        var out: [(String, Rect)] = c.blocks.map { ("block \($0.kind)", $0.frame) }
        out.append(("avatar", c.avatar))
        if let b = c.avatarBadge { out.append(("avatar badge", b.frame)) }
        if let b = c.memberBadge { out.append(("member badge", b.frame)) }
        if let t = c.titleBar {
            out.append(("title bar", t.frame))
            if let i = t.icon { out.append(("title icon", i)) }
        }
        for box in textBoxes(of: c) {
            out.append(("text \"\(box.string.prefix(20))\"", box.frame))
            for e in box.entities { for r in e.rects { out.append(("entity \(e.kind)", r)) } }
            for a in box.attachments { out.append(("inline \(a.name)", a.frame)) }
            if let k = box.token { out.append(("token", k)) }
        }
        func grid(_ g: PictureGridLayout?) {
            guard let g else { return }
            out.append(("pictures", g.frame))
            for p in g.pictures {
                out.append(("picture \(p.pictureID)", p.frame))
                if let b = p.badge { out.append(("picture badge", b.frame)) }
            }
        }
        func card(_ k: CardLayout?) {
            guard let k else { return }
            out.append(("card", k.frame))
            if let i = k.image { out.append(("card image", i)) }
            if let b = k.badge { out.append(("card badge", b.frame)) }
            if let b = k.button { out.append(("card button", b)) }
        }
        grid(c.pictures)
        card(c.card)
        if let r = c.retweet {
            out.append(("retweet", r.frame))
            grid(r.pictures)
            card(r.card)
        }
        if let t = c.tag {
            out.append(("tag", t.frame))
            if let i = t.icon { out.append(("tag icon", i)) }
        }
        if let bar = c.toolbar {
            out.append(("toolbar", bar.frame))
            for b in bar.buttons {
                out.append(("button \(b.kind)", b.frame))
                out.append(("button icon \(b.kind)", b.icon))
            }
        }
        return out
    }
}
