import FeedLayoutSupport
import TextMeasure

// A deterministic text dump of a cell layout, for goldens and debugging. Numbers are printed with
// at most three decimals (frames lie on a 1/2 or 1/3 point grid, so three decimals identify them),
// without locale or float-formatting differences between platforms.

extension CellGeometry {
    /// A deterministic multi-line description of every frame, text line and entity.
    package func describe() -> String {
        var out = ""
        func line(_ depth: Int, _ s: String) {
            out += String(repeating: "  ", count: depth) + s + "\n"
        }
        line(0, "cell \(statusID) style=\(styleName) w=\(fmt(width)) scale=\(fmt(scale)) h=\(fmt(height)) expanded=\(fmt(expandedHeight)) truncated=\(isTextTruncated)")
        line(1, "blocks " + blocks.map { "\($0.kind.rawValue)@\(fmt($0.frame.minY))+\(fmt($0.frame.height))" }.joined(separator: " "))
        if let t = titleBar {
            line(1, "title \(fmt(t.frame))" + (t.icon.map { " icon=\(fmt($0))" } ?? ""))
            describe(t.label, "label", 2, line)
        }
        line(1, "avatar \(fmt(avatar))" + (avatarBadge.map { " badge=\($0.name)@\(fmt($0.frame))" } ?? ""))
        describe(name, "name", 1, line)
        if let b = memberBadge { line(1, "memberBadge \(b.name)@\(fmt(b.frame))") }
        describe(time, "time", 1, line)
        if let s = source { describe(s, "source", 1, line) }
        if let t = text { describe(t, "text", 1, line) }
        if let r = retweet {
            line(1, "retweet \(fmt(r.frame))")
            describe(r.text, "text", 2, line)
            if let p = r.pictures { describe(p, 2, line) }
            if let c = r.card { describe(c, 2, line) }
        }
        if let p = pictures { describe(p, 1, line) }
        if let c = card { describe(c, 1, line) }
        if let t = tag {
            line(1, "tag \(fmt(t.frame)) place=\(t.isPlace)" + (t.icon.map { " icon=\(fmt($0))" } ?? ""))
            describe(t.label, "label", 2, line)
        }
        if let bar = toolbar {
            line(1, "toolbar \(fmt(bar.frame))")
            for b in bar.buttons {
                line(2, "\(b.kind.rawValue) \(fmt(b.frame)) icon=\(fmt(b.icon)) label=\(fmt(b.label.frame)) \"\(b.string)\"")
            }
        }
        return out
    }

    private func describe(_ box: TextBox, _ title: String, _ depth: Int, _ line: (Int, String) -> Void) {
        let l = box.layout
        var head = "\(title) \(fmt(box.frame)) lines=\(l.lines.count)/\(l.fullLineCount)"
        if l.isTruncated { head += " truncated fullHeight=\(fmt(l.fullHeight))" }
        head += " \"\(escape(box.string))\""
        line(depth, head)
        let utf16 = Array(box.string.utf16)
        for (i, ln) in l.lines.enumerated() {
            let r = ln.range.clamped(to: 0..<utf16.count)
            let s = String(decoding: utf16[r], as: UTF16.self)
            line(depth + 1, "line \(i) base=\(fmt(ln.baseline)) w=\(fmt(ln.width)) \"\(escape(s))\"")
        }
        if let t = box.token { line(depth + 1, "token \(fmt(t))") }
        for e in box.entities {
            line(depth + 1, "\(e.kind.rawValue) \"\(escape(e.value))\" " + e.rects.map(fmt).joined(separator: " "))
        }
        for a in box.attachments { line(depth + 1, "object \"\(escape(a.name))\" \(fmt(a.frame))") }
    }

    private func describe(_ g: PictureGridLayout, _ depth: Int, _ line: (Int, String) -> Void) {
        line(depth, "pictures \(fmt(g.frame)) n=\(g.pictures.count)")
        for p in g.pictures {
            line(depth + 1, "picture \(fmt(p.frame))" + (p.badge.map { " badge=\($0.name)@\(fmt($0.frame))" } ?? ""))
        }
    }

    private func describe(_ c: CardLayout, _ depth: Int, _ line: (Int, String) -> Void) {
        var head = "card \(fmt(c.frame)) video=\(c.isVideo)"
        if let i = c.image { head += " image=\(fmt(i))" }
        if let b = c.badge { head += " badge=\(b.name)@\(fmt(b.frame))" }
        if let b = c.button { head += " button=\(fmt(b))" }
        line(depth, head)
        if let t = c.text { describe(t, "text", depth + 1, line) }
    }
}

private func escape(_ s: String) -> String {
    var out = ""
    for ch in s.unicodeScalars {
        switch ch {
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\u{FFFC}": out += "\\o"
        default: out.unicodeScalars.append(ch)
        }
    }
    return out
}

/// A number with at most three decimals, trailing zeros dropped ("12", "12.5", "33.333").
func fmt(_ v: Double) -> String { DecimalText.string(v, decimals: 3) }

func fmt(_ r: Rect) -> String { "(\(fmt(r.minX)),\(fmt(r.minY)) \(fmt(r.width))x\(fmt(r.height)))" }
