// The fast path of JSON status decoding: a Weibo status read straight from the parsed tape, one
// pass over each object's members (each key matched once against the keys the decoder knows)
// instead of one linear `member(_:)` search per key asked, with strings made once from the input
// bytes and values the model does not keep (picture types, dates) read from the bytes.
//
// It decodes only what it is sure of and answers nil for anything else: a wrong type, a missing
// required key, an id or date with escapes, a number with a fraction, an integer string with a
// sign or spaces, a negative count. `StatusDecoder` (generic over `DecodedNode`) then decodes the
// status again and either returns it or throws the error that names the key path, so what is
// accepted, what is rejected and every error message stay the generic decoder's.
// `TapeStatusDecoderTests` compares the two on the corpus, the generated feed, the invalid
// fixtures and mutated statuses.
//
// Measured with callgrind on 10 000 generated statuses (nine pictures each): decoding the tape
// into statuses cost about 40 instructions per input byte with the generic decoder alone, 18
// with this one first.
import FeedLayoutSupport
import Foundation

/// Keys of one kind of object, matched by length and first eight bytes as one word (the rest of
/// longer keys compared byte by byte).
///
/// `@unchecked Sendable`: the pointers are those of string literals (constant data of the binary).
struct KeySet: @unchecked Sendable {
    let count: Int
    /// `first[n]..<first[n + 1]` are the entries of keys of length n.
    private let first: [Int]
    private let slots: [Int]
    private let keys: [UnsafePointer<UInt8>]
    private let words: [UInt64]
    private let longest: Int

    init(_ keys: [StaticString]) {
        count = keys.count
        longest = keys.map(\.utf8CodeUnitCount).max() ?? 0
        let order = keys.indices.sorted { (keys[$0].utf8CodeUnitCount, $0) < (keys[$1].utf8CodeUnitCount, $1) }
        slots = order
        self.keys = order.map { keys[$0].utf8Start }
        words = order.map { JSONTape.signature(keys[$0].utf8Start, count: keys[$0].utf8CodeUnitCount, readable: 0) }
        let lengths = order.map { keys[$0].utf8CodeUnitCount }
        first = (0...(longest + 1)).map { n in lengths.firstIndex { $0 >= n } ?? lengths.count }
    }

    /// The slot (index in the keys given to `init`) of the `n` bytes at `key`, or -1. `readable`:
    /// how many bytes from `key` on may be read.
    @inline(__always)
    func slot(_ key: UnsafePointer<UInt8>, count n: Int, readable: Int) -> Int {
        guard n <= longest else { return -1 }
        var e = first[n]
        let end = first[n + 1]
        guard e < end else { return -1 }
        let word = JSONTape.signature(key, count: n, readable: readable)
        while e < end {
            if words[e] == word && (n <= 8 || JSONNode.same(key + 8, UnsafeBufferPointer(start: keys[e] + 8, count: n - 8))) {
                return slots[e]
            }
            e += 1
        }
        return -1
    }
}

/// The last `source` strings a decoder read, as written and as decoded: the statuses of a feed
/// come from a few clients, so most `source` anchors are found here and compared, not decoded.
/// Held by one decoder at a time (`JSONLinesDecoder` replaces a shared one before decoding).
final class RecentSources {
    static let capacity = 8
    private var raws: [[UInt8]] = []
    private var texts: [String] = []
    /// The entry replaced next once full.
    private var next = 0

    /// The decoded text of the source written as `raw`, if it is one of the last ones.
    func text(_ raw: UnsafeBufferPointer<UInt8>) -> String? {
        for k in raws.indices where raws[k].withUnsafeBufferPointer({ JSONTape.equal($0, raw) }) { return texts[k] }
        return nil
    }

    func insert(_ raw: UnsafeBufferPointer<UInt8>, _ text: String) {
        if raws.count < Self.capacity {
            raws.append(Array(raw))
            texts.append(text)
            return
        }
        raws[next] = Array(raw)
        texts[next] = text
        next = (next + 1) % Self.capacity
    }
}

/// Decodes Weibo statuses from a `JSONDocument`; nil when the generic decoder must decide.
struct TapeStatusDecoder {
    let document: JSONDocument
    let maxStringBytes: Int
    /// Kept alive by the caller for the decoder's lifetime (a reference here would be retained
    /// and released with every copy of the decoder).
    var recentSources: Unmanaged<RecentSources>? = nil

    private var nodes: UnsafePointer<JSONTape.Node> { document.nodes }

    // MARK: Objects

    private enum StatusKey: Int, CaseIterable {
        case id, text, deleted, user, createdAt, source, retweet, picIDs, picInfos, urls, topics, tags, pageInfo, title
        case createdAtText, reposts, comments, attitudes, attitudesStatus, badge
    }
    private static let statusKeys = KeySet([
        "id", "text", "deleted", "user", "created_at", "source", "retweeted_status", "pic_ids", "pic_infos", "url_struct",
        "topic_struct", "tag_struct", "page_info", "title", "created_at_text", "reposts_count", "comments_count",
        "attitudes_count", "attitudes_status", "mbtype_image",
    ])
    private static let userKeys = KeySet(["screen_name", "id", "name", "remark", "profile_image_url", "verified_type", "mbrank", "mbtype"])
    /// `pic_id`, `keep_size`, then the size variants in `StatusDecoder.variants` order.
    private static let pictureKeys = KeySet([
        "pic_id", "keep_size", "large", "bmiddle", "thumbnail", "original", "largest", "woriginal", "middleplus",
    ])
    private static let variantKeys = KeySet(["width", "height", "url", "type"])
    private static let urlKeys = KeySet(["short_url", "url_title", "ori_url", "url_type", "url_type_pic", "page_id", "pic_ids", "pic_infos"])
    private static let topicKeys = KeySet(["topic_title", "topic_url"])
    private static let tagKeys = KeySet(["tag_name", "tag_type", "url_type_pic", "tag_scheme"])
    private static let pageKeys = KeySet([
        "page_title", "page_desc", "tips", "type", "object_type", "page_pic", "type_icon", "buttons", "page_url", "page_id",
    ])
    private static let titleKeys = KeySet(["text", "icon_url"])

    /// Calls `body` with the value node of each of `keys` in the object at `object` (-1 when absent).
    @inline(__always)
    private func withMembers<R>(of object: Int, _ keys: KeySet, _ body: (UnsafeMutablePointer<Int32>) -> R?) -> R? {
        let o = nodes[object]
        guard o.kind == .object else { return nil }
        return withUnsafeTemporaryAllocation(of: Int32.self, capacity: keys.count) { slots -> R? in
            let s = slots.baseAddress!
            s.initialize(repeating: -1, count: keys.count)
            var i = object + 1
            for _ in 0..<o.length {
                let key = nodes[i]
                // A key in the input is followed by at least a quote, a colon, a value and a
                // brace (property lists' bytes are padded to match: `FeedLoader.withPlist`):
                // eight bytes can be read from keys of four bytes or more.
                let copy = key.flags & JSONTape.Node.keyCopy != 0
                let slot = keys.slot(
                    (copy ? document.keys : document.bytes) + Int(key.offset), count: Int(key.length),
                    readable: copy ? 0 : Int(key.length) + 4)
                if slot >= 0 { s[slot] = Int32(i + 1) }
                i = Int(nodes[i + 1].end)
            }
            return body(s)
        }
    }

    /// The status at node `index`. A retweet is given its parent's own URL entities and card
    /// (`inheritedURLs`, `inheritedCard`): it takes them when it has none, built once with them
    /// (a `Status` computes its fingerprint again on every change). For a status that is not a
    /// retweet they are empty, and taking them changes nothing.
    func status(_ index: Int, inheritedURLs: [URLEntity] = [], inheritedCard: PageInfo? = nil) -> Status? {
        withMembers(of: index, Self.statusKeys) { s -> Status? in
            func at(_ k: StatusKey) -> Int { Int(s[k.rawValue]) }
            guard let id = int64(at(.id)), let text = string(at(.text)), let deleted = bool(at(.deleted), default: false)
            else { return nil }
            let user: User
            if present(at(.user)) {
                guard let u = self.user(at(.user)) else { return nil }
                user = u
            } else if deleted {
                user = .unknown
            } else {
                return nil
            }
            var createdAt: Date?
            if present(at(.createdAt)) {
                guard let raw = plainBytes(at(.createdAt)), let d = WeiboDate.parse(utf8: raw) else { return nil }
                createdAt = d
            }
            var source = ""
            if present(at(.source)) {
                guard let s = sourceText(at(.source)) else { return nil }
                source = s
            }
            guard let pictures = pictureList(ids: at(.picIDs), infos: at(.picInfos)),
                var urls = objects(at(.urls), { self.urlEntity($0) }),
                let topics = objects(at(.topics), { self.topic($0) }),
                // Every entry is checked; the model keeps the first.
                let tags = objects(at(.tags), { self.tag($0) })
            else { return nil }
            var card: PageInfo?
            if present(at(.pageInfo)) {
                guard let p = pageInfo(at(.pageInfo)) else { return nil }
                card = p
            }
            var retweet: Status?
            if present(at(.retweet)) {
                guard let r = status(at(.retweet), inheritedURLs: urls, inheritedCard: card) else { return nil }
                retweet = r
            }
            if urls.isEmpty { urls = inheritedURLs }
            if card.isNone { card = inheritedCard }
            var title: TitleBar?
            if present(at(.title)) {
                guard let t = titleBar(at(.title)) else { return nil }
                title = t
            }
            guard let createdAtText = optionalString(at(.createdAtText)), let reposts = count(at(.reposts)),
                let comments = count(at(.comments)), let attitudes = count(at(.attitudes)),
                let liked = int(at(.attitudesStatus), default: 0), let badge = optionalString(at(.badge))
            else { return nil }
            return Status(
                id: id, createdAt: createdAt, createdAtText: createdAtText, source: source, text: text,
                user: user, isDeleted: deleted, retweetedStatus: retweet, pictures: pictures, urlEntities: urls, topics: topics,
                tag: tags.first, pageInfo: card, titleBar: title, repostsCount: reposts, commentsCount: comments,
                attitudesCount: attitudes, liked: liked != 0, memberBadge: badge)
        }
    }

    /// The anchor text of the `source` string at `index`, made from the bytes (one string
    /// instead of two), or a recent status's when the bytes are the same.
    private func sourceText(_ index: Int) -> String? {
        let n = nodes[index]
        guard n.kind == .string, Int(n.length) <= maxStringBytes else { return nil }
        let raw = UnsafeBufferPointer(start: document.bytes + Int(n.offset), count: Int(n.length))
        if let recent = recentSources?.takeUnretainedValue(), let text = recent.text(raw) { return text }
        guard let text = withContent(index, StatusDecoder.anchorText(utf8:)) else { return nil }
        recentSources?.takeUnretainedValue().insert(raw, text)
        return text
    }

    private func user(_ index: Int) -> User? {
        withMembers(of: index, Self.userKeys) { s -> User? in
            guard let screenName = string(Int(s[0])), let id = int64(Int(s[1])) else { return nil }
            // The name is most often the screen name: the same string, made once.
            let name: String
            if present(Int(s[2])), let a = plainBytes(Int(s[2])), let b = plainBytes(Int(s[0])), JSONTape.equal(a, b) {
                name = screenName
            } else {
                guard let n = string(Int(s[2]), default: screenName) else { return nil }
                name = n
            }
            guard let remark = string(Int(s[3]), default: ""), let avatar = string(Int(s[4]), default: ""),
                let verified = int(Int(s[5]), default: -1), let mbrank = int(Int(s[6]), default: 0),
                let mbtype = int(Int(s[7]), default: 0)
            else { return nil }
            return User(
                id: id, name: name, screenName: screenName, remark: remark, avatarURL: avatar, verifiedType: verified,
                mbrank: mbrank, mbtype: mbtype)
        }
    }

    /// Pictures in `pic_ids` order, found in `pic_infos`. Nil (the generic decoder decides) when
    /// `pic_ids` is absent but `pic_infos` has entries (their keys sorted), or an id holds escapes.
    private func pictureList(ids: Int, infos: Int) -> [Picture]? {
        if present(infos) && nodes[infos].kind != .object { return nil }
        guard present(ids) else {
            return present(infos) && nodes[infos].length > 0 ? nil : []
        }
        let list = nodes[ids]
        guard list.kind == .array else { return nil }
        // Every id must be a string within the limit, even when nothing is looked up.
        var e = ids + 1
        for _ in 0..<list.length {
            let n = nodes[e]
            guard n.kind == .string, n.flags & JSONTape.Node.escaped == 0, Int(n.length) <= maxStringBytes else { return nil }
            e += 1
        }
        guard list.length > 0 else { return present(infos) && nodes[infos].length > 0 ? nil : [] }
        // The search below is quadratic when ids and infos are in different orders: a long list
        // goes to the generic decoder, which indexes `pic_infos` once.
        // (Ids listed twice, or entries of `pic_infos` no id names, are errors the generic
        // decoder reports: the lists must pair one to one.)
        guard present(infos), list.length <= 64, nodes[infos].length == list.length else { return nil }
        var paired: UInt64 = 0
        var out: [Picture] = []
        out.reserveCapacity(Int(list.length))
        // Ids usually come in the order of `pic_infos`: the search resumes after the last one found.
        let info = nodes[infos]
        var cursor = infos + 1
        var cursorOrdinal = 0
        e = ids + 1
        for _ in 0..<list.length {
            let pid = UnsafeBufferPointer(start: document.bytes + Int(nodes[e].offset), count: Int(nodes[e].length))
            var found = -1
            for _ in 0..<info.length {
                if cursorOrdinal == Int(info.length) {
                    cursor = infos + 1
                    cursorOrdinal = 0
                }
                let key = nodes[cursor]
                let base = key.flags & JSONTape.Node.keyCopy != 0 ? document.keys : document.bytes
                let next = Int(nodes[cursor + 1].end)
                let matches = Int(key.length) == pid.count && JSONNode.same(base + Int(key.offset), pid)
                if matches {
                    guard paired & (1 << UInt64(cursorOrdinal)) == 0 else { return nil }
                    paired |= 1 << UInt64(cursorOrdinal)
                    found = cursor + 1
                }
                cursor = next
                cursorOrdinal += 1
                if matches { break }
            }
            guard found >= 0, nodes[found].kind == .object, let p = picture(found, idBytes: pid) else { return nil }
            out.append(p)
            e += 1
        }
        return out
    }

    private func picture(_ index: Int, idBytes: UnsafeBufferPointer<UInt8>) -> Picture? {
        withMembers(of: index, Self.pictureKeys) { s -> Picture? in
            var variant = -1
            for k in 2..<Self.pictureKeys.count where present(Int(s[k])) {
                variant = Int(s[k])
                break
            }
            guard variant >= 0, let keepSize = bool(Int(s[1]), default: false) else { return nil }
            // `pic_id` is most often the id it is listed under: the same string, made once.
            let id: String
            if present(Int(s[0])), plainBytes(Int(s[0])).map({ JSONTape.equal($0, idBytes) }) != true {
                guard let own = string(Int(s[0])) else { return nil }
                id = own
            } else {
                id = String(decoding: idBytes, as: UTF8.self)
            }
            return withMembers(of: variant, Self.variantKeys) { v -> Picture? in
                guard let w = int(Int(v[0]), default: 0), let h = int(Int(v[1]), default: 0), w >= 0, h >= 0,
                    let url = string(Int(v[2]), default: ""), let kind = pictureKind(Int(v[3]))
                else { return nil }
                return Picture(id: id, url: url, width: w, height: h, kind: kind, keepSize: keepSize)
            }
        }
    }

    /// `Picture.Kind(apiName:)` of the string at `index` ("" when absent), short ASCII names
    /// compared as bytes.
    private func pictureKind(_ index: Int) -> Picture.Kind? {
        guard present(index) else { return Picture.Kind(apiName: "") }
        if let raw = plainBytes(index), raw.count <= 4 {
            var word: UInt32 = 0
            for b in raw {
                guard b < 0x80 else { return string(index).map(Picture.Kind.init(apiName:)) }
                word = word << 8 | UInt32(b >= 0x61 && b <= 0x7A ? b - 0x20 : b)
            }
            switch (raw.count, word) {
            case (3, 0x47_49_46): return .gif
            case (4, 0x4A_50_45_47): return .jpeg
            case (4, 0x57_45_42_50): return .webp
            default: return .other
            }
        }
        return string(index).map(Picture.Kind.init(apiName:))
    }

    private func urlEntity(_ index: Int) -> URLEntity? {
        withMembers(of: index, Self.urlKeys) { s -> URLEntity? in
            guard let short = string(Int(s[0])), let title = string(Int(s[1]), default: ""),
                let original = string(Int(s[2]), default: ""), let type = int(Int(s[3]), default: 0),
                let icon = string(Int(s[4]), default: ""), let page = string(Int(s[5]), default: ""),
                let pictures = pictureList(ids: Int(s[6]), infos: Int(s[7]))
            else { return nil }
            return URLEntity(
                shortURL: short, title: title, originalURL: original, type: type, iconURL: icon, pageID: page, pictures: pictures)
        }
    }

    private func topic(_ index: Int) -> Topic? {
        withMembers(of: index, Self.topicKeys) { s -> Topic? in
            guard let title = string(Int(s[0])), let url = string(Int(s[1]), default: "") else { return nil }
            return Topic(title: title, url: url)
        }
    }

    private func tag(_ index: Int) -> Tag? {
        withMembers(of: index, Self.tagKeys) { s -> Tag? in
            guard let name = string(Int(s[0])), let type = int(Int(s[1]), default: 0),
                let icon = string(Int(s[2]), default: ""), let scheme = string(Int(s[3]), default: "")
            else { return nil }
            return Tag(name: name, type: type, iconURL: icon, scheme: scheme)
        }
    }

    private func pageInfo(_ index: Int) -> PageInfo? {
        withMembers(of: index, Self.pageKeys) { s -> PageInfo? in
            let buttons = Int(s[7])
            if present(buttons) && nodes[buttons].kind != .array { return nil }
            guard let title = string(Int(s[0]), default: ""), let desc = string(Int(s[1]), default: ""),
                let tips = string(Int(s[2]), default: ""), let type = int(Int(s[3]), default: 0),
                let objectType = string(Int(s[4]), default: ""), let picture = string(Int(s[5]), default: ""),
                let typeIcon = string(Int(s[6]), default: ""), let url = string(Int(s[8]), default: ""),
                let page = string(Int(s[9]), default: "")
            else { return nil }
            return PageInfo(
                title: title, desc: desc, tips: tips, type: type, objectType: objectType, pictureURL: picture,
                typeIconURL: typeIcon, hasButton: present(buttons) && nodes[buttons].length > 0, pageURL: url, pageID: page)
        }
    }

    private func titleBar(_ index: Int) -> TitleBar? {
        withMembers(of: index, Self.titleKeys) { s -> TitleBar? in
            guard let text = string(Int(s[0]), default: ""), let icon = string(Int(s[1]), default: "") else { return nil }
            return TitleBar(text: text, iconURL: icon)
        }
    }

    /// The array at `index` (empty when absent), every element an object, each decoded by `body`.
    private func objects<T>(_ index: Int, _ body: (Int) -> T?) -> [T]? {
        guard present(index) else { return [] }
        let a = nodes[index]
        guard a.kind == .array else { return nil }
        var out: [T] = []
        var e = index + 1
        for _ in 0..<Int(a.length) {
            guard nodes[e].kind == .object else { return nil }
            guard let v = body(e) else { return nil }
            out.append(v)
            e = Int(nodes[e].end)
        }
        return out
    }

    // MARK: Values

    /// True when the key was present with a value other than null.
    @inline(__always)
    private func present(_ index: Int) -> Bool { index >= 0 && nodes[index].kind != .null }

    /// The content of a string without escapes within the length limit; nil otherwise.
    @inline(__always)
    private func plainBytes(_ index: Int) -> UnsafeBufferPointer<UInt8>? {
        let n = nodes[index]
        guard n.kind == .string, n.flags & JSONTape.Node.escaped == 0, Int(n.length) <= maxStringBytes else { return nil }
        return UnsafeBufferPointer(start: document.bytes + Int(n.offset), count: Int(n.length))
    }

    /// A required string (nil when absent, not a string, or longer than the limit as written).
    private func string(_ index: Int) -> String? {
        guard index >= 0 else { return nil }
        if nodes[index].kind == .string && nodes[index].length == 0 { return "" }
        return withContent(index) { String(decoding: $0, as: UTF8.self) }
    }

    /// `body` of a string's content, escapes resolved (in a temporary buffer when needed); nil
    /// when absent, not a string, or longer than the limit as written.
    @inline(__always)
    private func withContent<R>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R? {
        guard index >= 0 else { return nil }
        let n = nodes[index]
        guard n.kind == .string, Int(n.length) <= maxStringBytes else { return nil }
        let raw = UnsafeBufferPointer(start: document.bytes + Int(n.offset), count: Int(n.length))
        if n.flags & JSONTape.Node.escaped == 0 { return body(raw) }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: raw.count) { buffer in
            let count = JSONTape.unescape(raw, into: buffer.baseAddress!)
            return body(UnsafeBufferPointer(rebasing: buffer[0..<count]))
        }
    }

    @inline(__always)
    private func string(_ index: Int, default d: String) -> String? { present(index) ? string(index) : d }

    /// An optional string: `.some(nil)` when absent, nil when present but not a usable string.
    @inline(__always)
    private func optionalString(_ index: Int) -> String?? {
        guard present(index) else { return .some(nil) }
        guard let s = string(index) else { return nil }
        return .some(s)
    }

    /// An integer written as a number without fraction or exponent that fits `Int64`, or as a
    /// string of 1 to 18 ASCII digits (the API sends picture sizes as "440").
    @inline(__always)
    private func int64(_ index: Int) -> Int64? {
        guard index >= 0 else { return nil }
        let n = nodes[index]
        if n.kind == .string { return digits(n) }
        return integer(index)
    }

    /// An integer number token that fits `Int64`; nil for every other value.
    @inline(__always)
    private func integer(_ index: Int) -> Int64? {
        let n = nodes[index]
        guard n.kind == .number, n.flags & JSONTape.Node.integral != 0 else { return nil }
        return JSONNode.parseInteger(UnsafeBufferPointer(start: document.bytes + Int(n.offset), count: Int(n.length)))
    }

    /// The value of a string node of 1 to 18 ASCII digits (no escape, sign or space).
    private func digits(_ n: JSONTape.Node) -> Int64? {
        guard n.flags & JSONTape.Node.escaped == 0, n.length > 0, n.length <= 18, Int(n.length) <= maxStringBytes else { return nil }
        var v: Int64 = 0
        for b in UnsafeBufferPointer(start: document.bytes + Int(n.offset), count: Int(n.length)) {
            let d = b &- UInt8(ascii: "0")
            guard d < 10 else { return nil }
            v = v * 10 + Int64(d)
        }
        return v
    }

    @inline(__always)
    private func int(_ index: Int, default d: Int) -> Int? {
        guard present(index) else { return d }
        return int64(index).map { Int($0) }
    }

    @inline(__always)
    private func count(_ index: Int) -> Int? {
        guard let c = int(index, default: 0), c >= 0 else { return nil }
        return c
    }

    /// true/false, an integer (non-zero is true), or "1", "true", "0", "false", "" in any case.
    @inline(__always)
    private func bool(_ index: Int, default d: Bool) -> Bool? {
        guard present(index) else { return d }
        switch nodes[index].kind {
        case .trueValue: return true
        case .falseValue: return false
        case .string:
            guard let raw = plainBytes(index), raw.count <= 5 else { return nil }
            var word: UInt64 = 0
            for b in raw { word = word << 8 | UInt64(b >= 0x41 && b <= 0x5A ? b + 0x20 : b) }
            switch (raw.count, word) {
            case (1, 0x31), (4, 0x74_72_75_65): return true
            case (0, 0), (1, 0x30), (5, 0x66_61_6C_73_65): return false
            default: return nil
            }
        default: return integer(index).map { $0 != 0 }
        }
    }
}
