// Untyped dictionaries -> `Status`, for the Weibo API keys (JSON, JSON Lines, model plist) and
// the classic tutorial keys.
//
// Required keys — a status without them fails (or is skipped with `skipInvalid`):
//   Weibo: `id`, `text`, `user` (with `id` and `screen_name`), except that a status marked
//          `deleted` may have no `user` (the API sends deleted retweets that way); every
//          `url_struct` entry needs `short_url`, every `topic_struct` entry `topic_title`,
//          every `tag_struct` entry `tag_name`, every picture one size variant
//          (large, bmiddle, thumbnail, original, largest, woriginal, middleplus), every
//          id in `pic_ids` an entry in `pic_infos`, listed once, and every entry of `pic_infos`
//          an id in `pic_ids` (when it is present).
//   Classic: `Id`, `userName`, `text`.
// Two keys beyond the API let the model plist express the classic format: `created_at_text`
// (the display string) and `mbtype_image` (the member badge image name).
// Everything else defaults (documented on the model's properties). A present key with a wrong
// type or an unusable value is always an error, never silently replaced by the default.
import FeedLayoutSupport
import Foundation

enum StatusDecoder {
    /// Picture size variants in order of preference.
    static let variants = ["large", "bmiddle", "thumbnail", "original", "largest", "woriginal", "middleplus"]

    static func weibo<N: DecodedNode>(_ f: Fields<N>) throws(FieldError) -> Status {
        let id = try f.int64("id")
        let text = try f.string("text")
        let deleted = try f.bool("deleted", default: false)
        let user: User
        if let u = try f.object("user") {
            user = try weiboUser(u)
        } else if deleted {
            user = .unknown
        } else {
            throw f.fail("user", .missing)
        }
        var createdAt: Date?
        if let s = try f.optionalString("created_at") {
            guard let d = WeiboDate.parse(s) else {
                throw f.fail("created_at", .invalid(expected: "date like \"Wed Sep 09 10:11:34 +0800 2015\"", found: describeString(s)))
            }
            createdAt = d
        }
        let source = anchorText(try f.string("source", default: ""))
        var retweet: Status?
        if let r = try f.object("retweeted_status") { retweet = try weibo(r) }
        let pictures = try pictureList(f)
        let urls = try f.objects("url_struct").map { (u) throws(FieldError) -> URLEntity in
            URLEntity(
                shortURL: try u.string("short_url"), title: try u.string("url_title", default: ""),
                originalURL: try u.string("ori_url", default: ""), type: try u.int("url_type", default: 0),
                iconURL: try u.string("url_type_pic", default: ""), pageID: try u.string("page_id", default: ""),
                pictures: try pictureList(u))
        }
        let topics = try f.objects("topic_struct").map { (t) throws(FieldError) -> Topic in
            Topic(title: try t.string("topic_title"), url: try t.string("topic_url", default: ""))
        }
        // Every entry is checked; the model keeps the first.
        let tag = try f.objects("tag_struct").map { (t) throws(FieldError) -> Tag in
            Tag(
                name: try t.string("tag_name"), type: try t.int("tag_type", default: 0),
                iconURL: try t.string("url_type_pic", default: ""), scheme: try t.string("tag_scheme", default: ""))
        }.first
        var card: PageInfo?
        if let p = try f.object("page_info") {
            card = PageInfo(
                title: try p.string("page_title", default: ""), desc: try p.string("page_desc", default: ""),
                tips: try p.string("tips", default: ""), type: try p.int("type", default: 0),
                objectType: try p.string("object_type", default: ""), pictureURL: try p.string("page_pic", default: ""),
                typeIconURL: try p.string("type_icon", default: ""), hasButton: (try p.arrayCount("buttons") ?? 0) > 0,
                pageURL: try p.string("page_url", default: ""), pageID: try p.string("page_id", default: ""))
        }
        var title: TitleBar?
        if let t = try f.object("title") {
            title = TitleBar(text: try t.string("text", default: ""), iconURL: try t.string("icon_url", default: ""))
        }
        // A retweet without its own url_struct / page_info shows its parent's (the API puts the
        // entities of the reposted text on the outer status).
        if var r = retweet {
            if r.urlEntities.isEmpty { r.urlEntities = urls }
            if r.pageInfo.isNone { r.pageInfo = card }
            retweet = r
        }
        return Status(
            id: id, createdAt: createdAt, createdAtText: try f.optionalString("created_at_text"), source: source, text: text, user: user, isDeleted: deleted,
            retweetedStatus: retweet, pictures: pictures, urlEntities: urls, topics: topics, tag: tag, pageInfo: card,
            titleBar: title, repostsCount: try f.count("reposts_count"), commentsCount: try f.count("comments_count"),
            attitudesCount: try f.count("attitudes_count"), liked: try f.int("attitudes_status", default: 0) != 0,
            memberBadge: try f.optionalString("mbtype_image"))
    }

    static func weiboUser<N: DecodedNode>(_ u: Fields<N>) throws(FieldError) -> User {
        let screenName = try u.string("screen_name")
        return User(
            id: try u.int64("id"), name: try u.string("name", default: screenName), screenName: screenName,
            remark: try u.string("remark", default: ""), avatarURL: try u.string("profile_image_url", default: ""),
            verifiedType: try u.int("verified_type", default: -1), mbrank: try u.int("mbrank", default: 0),
            mbtype: try u.int("mbtype", default: 0))
    }

    /// Pictures in `pic_ids` order, looked up in `pic_infos`; sorted `pic_infos` keys when
    /// `pic_ids` is absent. `pic_ids` names each picture once, and every entry of `pic_infos` is
    /// one it names: a picture listed twice would be drawn twice, an entry it does not list would
    /// not be drawn at all.
    static func pictureList<N: DecodedNode>(_ f: Fields<N>) throws(FieldError) -> [Picture] {
        let infos = try f.object("pic_infos")
        var ids = try f.strings("pic_ids")
        if !f.has("pic_ids"), let infos {
            ids = infos.node.memberKeys.sorted()
        } else if ids.count > 1 || infos != nil {
            var listed = Set<String>(minimumCapacity: ids.count)
            for (k, pid) in ids.enumerated() where !listed.insert(pid).inserted {
                throw FieldError(
                    path: try f.elements("pic_ids")[k].path, kind: .invalid(expected: "a picture id not listed before", found: "\"\(pid)\""))
            }
            if let infos, infos.node.memberKeys.count != listed.count,
                let unlisted = infos.node.memberKeys.first(where: { !listed.contains($0) })
            {
                throw infos.fail(unlisted, .invalid(expected: "a picture pic_ids lists", found: "an entry pic_ids does not list"))
            }
        }
        guard !ids.isEmpty else { return [] }
        guard let infos else { throw f.fail("pic_infos", .missing) }
        var out: [Picture] = []
        out.reserveCapacity(ids.count)
        // Found together (a scan of `pic_infos` per id was quadratic in the pictures); as
        // `infos.object(pid)` reads each: absent or null is missing, another kind a type error.
        for (pid, value) in zip(ids, infos.node.members(forKeys: ids)) {
            guard let value, !value.isNull else { throw infos.fail(pid, .missing) }
            guard value.isObject else { throw infos.fail(pid, .type(expected: "object", found: value.valueDescription)) }
            out.append(try picture(Fields(value, maxStringBytes: infos.maxStringBytes), id: pid))
        }
        return out
    }

    static func picture<N: DecodedNode>(_ p: Fields<N>, id: String) throws(FieldError) -> Picture {
        var variant: Fields<N>?
        for name in variants {
            if let v = try p.object(name) {
                variant = v
                break
            }
        }
        guard let v = variant else { throw p.fail("large", .missing) }
        let w = try v.int("width", default: 0)
        let h = try v.int("height", default: 0)
        if w < 0 { throw v.fail("width", .invalid(expected: "width ≥ 0", found: "\(w)")) }
        if h < 0 { throw v.fail("height", .invalid(expected: "height ≥ 0", found: "\(h)")) }
        return Picture(
            id: try p.string("pic_id", default: id), url: try v.string("url", default: ""), width: w, height: h,
            kind: Picture.Kind(apiName: try v.string("type", default: "")), keepSize: try p.bool("keep_size", default: false))
    }

    static func classic<N: DecodedNode>(_ f: Fields<N>) throws(FieldError) -> Status {
        let id = try f.int64("Id")
        let name = try f.string("userName")
        let text = try f.string("text")
        let created = try f.optionalString("createdAt")
        var badge = try f.raw("mbtype").map { (v) throws(FieldError) -> String in
            if let n = v.lenientInt64, !v.isString { return "\(n)" }
            return try f.checkedString(v, key: "mbtype")
        }
        if badge == "" { badge = nil }
        return Status(
            id: id, createdAt: created.flatMap(WeiboDate.parseClassic), createdAtText: created,
            source: try f.string("source", default: ""), text: text,
            user: User(id: 0, name: name, avatarURL: try f.string("profileImageUrl", default: "")),
            memberBadge: badge)
    }

    /// The text of an HTML anchor (`<a href="…">name</a>` → "name"), entities decoded; plain
    /// text is returned unchanged.
    ///
    /// Works on UTF-8 bytes: `<`, `>` and `&` are ASCII and never part of another scalar's
    /// encoding, so removing tags byte by byte removes exactly the scalars between them.
    static func anchorText(_ html: String) -> String {
        guard html.utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") }) else { return html }
        var html = html
        return html.withUTF8 { anchorText(utf8: $0) }
    }

    /// `anchorText(_:)` of valid UTF-8 bytes: one string made, from the text left.
    static func anchorText(utf8 bytes: UnsafeBufferPointer<UInt8>) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(1, bytes.count)) { out in
            var n = 0
            var inTag = false
            var entity = false
            for b in bytes {
                if b == UInt8(ascii: "<") {
                    inTag = true
                } else if b == UInt8(ascii: ">") {
                    inTag = false
                } else if !inTag {
                    out[n] = b
                    n += 1
                    entity = entity || b == UInt8(ascii: "&")
                }
            }
            let count = entity ? decodeEntities(UnsafeMutableBufferPointer(rebasing: out[0..<n])) : n
            return String(decoding: UnsafeBufferPointer(rebasing: out[0..<count]), as: UTF8.self)
        }
    }

    /// The five entities the API escapes (`&lt;` `&gt;` `&quot;` `&#39;` `&amp;`), decoded in
    /// place, left to right; returns the new length. A decoded character never forms another
    /// entity, so one pass equals replacing each entity in turn.
    static func decodeEntities(_ b: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let entities: [(StaticString, UInt8)] = [
            ("&lt;", UInt8(ascii: "<")), ("&gt;", UInt8(ascii: ">")), ("&quot;", UInt8(ascii: "\"")),
            ("&#39;", UInt8(ascii: "'")), ("&amp;", UInt8(ascii: "&")),
        ]
        var r = 0
        var w = 0
        let n = b.count
        scan: while r < n {
            if b[r] == UInt8(ascii: "&") {
                for (name, char) in entities {
                    let len = name.utf8CodeUnitCount
                    if r + len <= n && memcmp(b.baseAddress! + r, name.utf8Start, len) == 0 {
                        b[w] = char
                        w += 1
                        r += len
                        continue scan
                    }
                }
            }
            b[w] = b[r]
            w += 1
            r += 1
        }
        return w
    }
}
