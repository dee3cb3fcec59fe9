// Writing feeds in the Weibo key schema (JSON, JSON Lines, model plist).
//
// Statuses are first turned into a small ordered value tree (`WireValue`), then emitted by our
// own emitters, JSON and XML property lists alike: keys in a fixed order, so output is
// byte-identical on every run and platform, and fast enough to stream millions of statuses
// (PropertyListSerialization took 17 s for a plist of 10 000 statuses, 40 times the JSON Lines
// writer). Everything the loader reads is written, so load(write(feed)) == feed.
import FeedLayoutSupport
import Foundation

/// An ordered JSON/plist value.
enum WireValue {
    case string(String)
    case int(Int64)
    case bool(Bool)
    case array([WireValue])
    case object([(String, WireValue)])

    /// Appends the value as XML property-list elements, one per line, indented by `depth` tabs
    /// (Apple's layout); strings escape `&`, `<` and `>` and keep every other character as it is,
    /// which `XMLPlistReader` reads back unchanged.
    func appendPlistXML(to out: inout [UInt8], depth: Int) {
        @inline(__always) func line(_ text: StaticString) {
            out.append(contentsOf: repeatElement(UInt8(ascii: "\t"), count: depth))
            out.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
            out.append(0x0A)
        }
        switch self {
        case .string(let s):
            out.append(contentsOf: repeatElement(UInt8(ascii: "\t"), count: depth))
            Self.appendPlistText("string", s, to: &out)
        case .int(let i):
            out.append(contentsOf: repeatElement(UInt8(ascii: "\t"), count: depth))
            out.append(contentsOf: "<integer>\(i)</integer>\n".utf8)
        case .bool(let b):
            line(b ? "<true/>" : "<false/>")
        case .array(let a):
            if a.isEmpty { return line("<array/>") }
            line("<array>")
            for v in a { v.appendPlistXML(to: &out, depth: depth + 1) }
            line("</array>")
        case .object(let o):
            if o.isEmpty { return line("<dict/>") }
            line("<dict>")
            for (k, v) in o {
                out.append(contentsOf: repeatElement(UInt8(ascii: "\t"), count: depth + 1))
                Self.appendPlistText("key", k, to: &out)
                v.appendPlistXML(to: &out, depth: depth + 1)
            }
            line("</dict>")
        }
    }

    /// Appends `<element>text</element>` and a newline, `&`, `<` and `>` escaped.
    static func appendPlistText(_ element: StaticString, _ text: String, to out: inout [UInt8]) {
        let name = UnsafeBufferPointer(start: element.utf8Start, count: element.utf8CodeUnitCount)
        out.append(UInt8(ascii: "<"))
        out.append(contentsOf: name)
        out.append(UInt8(ascii: ">"))
        var text = text
        text.withUTF8 { bytes in
            var from = 0
            for (i, b) in bytes.enumerated() where b == UInt8(ascii: "&") || b == UInt8(ascii: "<") || b == UInt8(ascii: ">") {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[from..<i]))
                out.append(contentsOf: (b == UInt8(ascii: "&") ? "&amp;" : b == UInt8(ascii: "<") ? "&lt;" : "&gt;").utf8)
                from = i + 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[from...]))
        }
        out.append(contentsOf: "</".utf8)
        out.append(contentsOf: name)
        out.append(contentsOf: ">\n".utf8)
    }

    /// Appends compact JSON (UTF-8, no insignificant whitespace) to `out`.
    func appendJSON(to out: inout [UInt8]) {
        switch self {
        case .string(let s): Self.appendJSONString(s, to: &out)
        case .int(let i): out.append(contentsOf: String(i).utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .array(let a):
            out.append(UInt8(ascii: "["))
            for (i, v) in a.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                v.appendJSON(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let o):
            out.append(UInt8(ascii: "{"))
            for (i, (k, v)) in o.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                Self.appendJSONString(k, to: &out)
                out.append(UInt8(ascii: ":"))
                v.appendJSON(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Appends `s` as a JSON string literal (`JSONString`).
    static func appendJSONString(_ s: String, to out: inout [UInt8]) { JSONString.append(s, to: &out) }
}

/// Turns model values into the Weibo key schema.
enum WireEncoder {
    static func status(_ s: Status) -> WireValue {
        var o: [(String, WireValue)] = [("id", .int(s.id)), ("idstr", .string(String(s.id)))]
        if let d = s.createdAt { o.append(("created_at", .string(WeiboDate.format(d)))) }
        if let t = s.createdAtText { o.append(("created_at_text", .string(t))) }
        o.append(("text", .string(s.text)))
        if !s.source.isEmpty {
            o.append(("source", .string("<a href=\"\" rel=\"nofollow\">\(escapeHTML(s.source))</a>")))
        }
        if s.isDeleted { o.append(("deleted", .string("1"))) }
        if s.user != .unknown || !s.isDeleted { o.append(("user", user(s.user))) }
        if let r = s.retweetedStatus { o.append(("retweeted_status", status(r))) }
        o.append(contentsOf: pictures(s.pictures))
        if !s.urlEntities.isEmpty {
            o.append(("url_struct", .array(s.urlEntities.map { u in
                var e: [(String, WireValue)] = [
                    ("short_url", .string(u.shortURL)), ("url_title", .string(u.title)), ("ori_url", .string(u.originalURL)),
                    ("url_type", .int(Int64(u.type))), ("url_type_pic", .string(u.iconURL)),
                ]
                if !u.pageID.isEmpty { e.append(("page_id", .string(u.pageID))) }
                e.append(contentsOf: pictures(u.pictures))
                return .object(e)
            })))
        }
        if !s.topics.isEmpty {
            o.append(("topic_struct", .array(s.topics.map {
                .object([("topic_title", .string($0.title)), ("topic_url", .string($0.url))])
            })))
        }
        if let t = s.tag {
            o.append(("tag_struct", .array([.object([
                ("tag_name", .string(t.name)), ("tag_type", .int(Int64(t.type))), ("url_type_pic", .string(t.iconURL)),
                ("tag_scheme", .string(t.scheme)),
            ])])))
        }
        if let p = s.pageInfo {
            var c: [(String, WireValue)] = [
                ("page_title", .string(p.title)), ("page_desc", .string(p.desc)), ("tips", .string(p.tips)),
                ("type", .int(Int64(p.type))), ("object_type", .string(p.objectType)), ("page_pic", .string(p.pictureURL)),
                ("type_icon", .string(p.typeIconURL)), ("page_url", .string(p.pageURL)), ("page_id", .string(p.pageID)),
            ]
            if p.hasButton { c.append(("buttons", .array([.object([("type", .string("default"))])]))) }
            o.append(("page_info", .object(c)))
        }
        if let t = s.titleBar {
            o.append(("title", .object([("text", .string(t.text)), ("icon_url", .string(t.iconURL))])))
        }
        o.append(("reposts_count", .int(Int64(s.repostsCount))))
        o.append(("comments_count", .int(Int64(s.commentsCount))))
        o.append(("attitudes_count", .int(Int64(s.attitudesCount))))
        o.append(("attitudes_status", .int(s.liked ? 1 : 0)))
        if let b = s.memberBadge { o.append(("mbtype_image", .string(b))) }
        return .object(o)
    }

    static func user(_ u: User) -> WireValue {
        .object([
            ("id", .int(u.id)), ("name", .string(u.name)), ("screen_name", .string(u.screenName)),
            ("remark", .string(u.remark)), ("profile_image_url", .string(u.avatarURL)),
            ("verified_type", .int(Int64(u.verifiedType))), ("mbrank", .int(Int64(u.mbrank))),
            ("mbtype", .int(Int64(u.mbtype))),
        ])
    }

    static func pictures(_ ps: [Picture]) -> [(String, WireValue)] {
        guard !ps.isEmpty else { return [] }
        var infos: [(String, WireValue)] = []
        for p in ps where !infos.contains(where: { $0.0.utf8.elementsEqual(p.id.utf8) }) {
            infos.append((p.id, .object([
                ("pic_id", .string(p.id)), ("keep_size", .int(p.keepSize ? 1 : 0)),
                ("large", .object([
                    ("url", .string(p.url)), ("width", .int(Int64(p.width))), ("height", .int(Int64(p.height))),
                    ("type", .string(p.kind.rawValue)),
                ])),
            ])))
        }
        return [("pic_ids", .array(ps.map { .string($0.id) })), ("pic_infos", .object(infos))]
    }

    /// `s` with the five characters the API escapes written as entities (`anchorText` reads
    /// them back). Works on UTF-8 bytes, not characters: a `>` followed by a combining mark is
    /// one `Character` that is not `>`, yet an HTML reader still sees the `>`.
    static func escapeHTML(_ s: String) -> String {
        func entity(_ b: UInt8) -> StaticString? {
            switch b {
            case UInt8(ascii: "&"): "&amp;"
            case UInt8(ascii: "<"): "&lt;"
            case UInt8(ascii: ">"): "&gt;"
            case UInt8(ascii: "\""): "&quot;"
            case UInt8(ascii: "'"): "&#39;"
            default: nil
            }
        }
        guard s.utf8.contains(where: { entity($0) != nil }) else { return s }
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count + 16)
        for b in s.utf8 {
            if let e = entity(b) {
                out.append(contentsOf: UnsafeBufferPointer(start: e.utf8Start, count: e.utf8CodeUnitCount))
            } else {
                out.append(b)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// Serializes feeds in the Weibo key schema. Output is deterministic (fixed key order).
public enum FeedWriter {
    /// The bytes of `statuses` in `format` (`.weiboJSON`: `{"statuses":[…]}`; `.modelPlist`: an XML
    /// plist dict with `statuses`; `.jsonLines`: one compact object per line).
    /// `.classicPlist` and `.friendList` are not write formats: passing them is a programmer error.
    public static func data(_ statuses: [Status], format: FeedFormat) -> Data {
        switch format {
        case .weiboJSON:
            var out: [UInt8] = Array("{\"statuses\":[\n".utf8)
            for (i, s) in statuses.enumerated() {
                if i > 0 { out.append(contentsOf: Array(",\n".utf8)) }
                WireEncoder.status(s).appendJSON(to: &out)
            }
            out.append(contentsOf: Array("\n]}\n".utf8))
            return Data(out)
        case .jsonLines:
            var out: [UInt8] = []
            for s in statuses { jsonLine(s, into: &out) }
            return Data(out)
        case .modelPlist:
            var out: [UInt8] = Array(
                """
                <?xml version="1.0" encoding="UTF-8"?>
                <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
                <plist version="1.0">
                <dict>
                \t<key>statuses</key>

                """.utf8)
            WireValue.array(statuses.map(WireEncoder.status)).appendPlistXML(to: &out, depth: 1)
            out.append(contentsOf: "</dict>\n</plist>\n".utf8)
            return Data(out)
        case .classicPlist, .friendList:
            preconditionFailure("the classic plist and the friend list are input formats only")
        }
    }

    /// Appends `status` as one compact JSON object (no newline) to `out`.
    package static func json(_ status: Status, into out: inout [UInt8]) {
        WireEncoder.status(status).appendJSON(to: &out)
    }

    /// Appends one JSON Lines line (compact JSON + "\n") for `status` to `out`.
    package static func jsonLine(_ status: Status, into out: inout [UInt8]) {
        WireEncoder.status(status).appendJSON(to: &out)
        out.append(0x0A)
    }

    /// Writes `data` to `url` atomically: a temporary file in the same directory, then a rename.
    package static func writeAtomically(_ data: Data, to url: URL) throws(StatusModelError) {
        let w = try AtomicFileWriter(url: url)
        try w.write(data)
        try w.commit()
    }
}
