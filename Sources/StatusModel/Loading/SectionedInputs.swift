// Sectioned property lists: the QQ tutorial's friend list and the model plist with `sections`.
//
// Friend list (detected when the root is an array whose first element is a dict with both
// `GroupName` and `Friends`):
//   group:  `GroupName` (string, required), `Friends` (array, required; may be empty),
//           `Online` (integer 0…count of friends, optional);
//   friend: `Name` (string, required), `Intro` (string, the signature; default ""),
//           `Avatars` (string, the avatar image name; default ""), `VIP` (boolean; default false).
// A friend becomes a `Status`: `Name` is the user's name and screen name, `Intro` the text,
// `Avatars` the profile image, `VIP` the member badge "vip" (what the classic format's `mbtype`
// gives). Its id is (group index + 1) · 2³² + friend index: unique in the file and stable.
// "Online" rule: a group's `Online` when present; otherwise ⌈friends / 3⌉ (a third of the group,
// rounded up, so that a group with friends shows someone online), a deterministic stand-in for a
// presence service the file does not carry.
// Groups start collapsed (`StatusSection.isCollapsed`).
//
// Model plist with sections (the root is a dict with `sections`): each section a dict with
// `statuses` (array of Weibo-key statuses, required), `title` (string, default ""), `footer`
// (string, optional), `index_title` (string, optional) and `collapsed` (boolean, default false).
//
// Errors name the file, the group (section) index and, once read, its name, the friend (status)
// index in it and the key path from the root, e.g. `[2].Friends[5].Name`. With
// `LoadOptions.skipInvalid` an invalid friend or status is skipped; a problem of a group itself
// (not a dict, no `GroupName`, `Friends` not an array) always fails the load.
import Foundation

extension FeedLoader {
    /// Whether a plist root array is a friend list (first element: a dict with `GroupName` and `Friends`).
    static func isFriendList<N: DecodedNode>(_ items: [N]) -> Bool {
        guard let d = items.first, d.isObject else { return false }
        return d.member("GroupName") != nil && d.member("Friends") != nil
    }

    /// The id of friend `friend` of group `group`.
    static func friendID(group: Int, friend: Int) -> Int64 { (Int64(group + 1) << 32) | Int64(friend) }

    static func decodeFriendList<N: DecodedNode>(_ items: [N], fileName: String, options: LoadOptions) throws(StatusModelError)
        -> LoadResult
    {
        var sections: [StatusSection] = []
        var skipped: [SkippedStatus] = []
        sections.reserveCapacity(items.count)
        for (g, item) in items.enumerated() {
            let groupPath = "[\(g)]"
            var place = SectionLocation(kind: .group, index: g)
            func located(_ error: FieldError, prefix: String, index: Int? = nil) -> StatusModelError {
                error.error(in: StatusLocation(file: fileName, section: place, index: index, keyPath: error.path.rendered(prefix: prefix)))
            }
            guard item.isObject else {
                throw .typeMismatch(
                    StatusLocation(file: fileName, section: place, keyPath: groupPath),
                    expected: "object (a group with GroupName and Friends)", found: item.valueDescription)
            }
            let group = Fields(item.rerooted, maxStringBytes: options.maxStringBytes)
            let name: String
            let friends: [N]
            var online: Int?
            do throws(FieldError) {
                name = try group.string("GroupName")
                place.title = name
                guard let list = group.raw("Friends") else { throw group.fail("Friends", .missing) }
                guard list.isArray else { throw group.fail("Friends", .type(expected: "array", found: list.valueDescription)) }
                friends = list.elements
                if group.has("Online") {
                    let n = try group.int("Online", default: 0)
                    guard n >= 0 && n <= friends.count else {
                        throw group.fail("Online", .invalid(expected: "integer in 0...\(friends.count) (the group's friends)", found: "\(n)"))
                    }
                    online = n
                }
            } catch {
                throw located(error, prefix: groupPath)
            }
            var statuses: [Status] = []
            statuses.reserveCapacity(friends.count)
            for (f, friend) in friends.enumerated() {
                let prefix = "\(groupPath).Friends[\(f)]"
                do throws(StatusModelError) {
                    guard friend.isObject else {
                        throw .typeMismatch(
                            StatusLocation(file: fileName, section: place, index: f, keyPath: prefix), expected: "object (a friend)",
                            found: friend.valueDescription)
                    }
                    let fields = Fields(friend.rerooted, maxStringBytes: options.maxStringBytes)
                    do throws(FieldError) {
                        statuses.append(try friendStatus(fields, id: friendID(group: g, friend: f)))
                    } catch {
                        throw located(error, prefix: prefix, index: f)
                    }
                } catch {
                    guard options.skipInvalid else { throw error }
                    skipped.append(SkippedStatus(index: f, id: nil, error: error))
                }
            }
            sections.append(
                StatusSection(
                    title: name, statuses: statuses, onlineCount: online ?? (statuses.count + 2) / 3, isCollapsed: true))
        }
        return LoadResult(feed: Feed(sections: sections, sourceName: fileName, format: .friendList), skipped: skipped)
    }

    static func friendStatus<N: DecodedNode>(_ f: Fields<N>, id: Int64) throws(FieldError) -> Status {
        let name = try f.string("Name")
        let intro = try f.string("Intro", default: "")
        let avatar = try f.string("Avatars", default: "")
        let vip = try f.bool("VIP", default: false)
        return Status(
            id: id, text: intro, user: User(id: id, name: name, screenName: name, avatarURL: avatar),
            memberBadge: vip ? "vip" : nil)
    }

    /// The statuses of a model plist whose root dict has `sections` (see the file comment).
    static func decodeSections<N: DecodedNode>(_ value: N, fileName: String, options: LoadOptions) throws(StatusModelError)
        -> LoadResult
    {
        guard value.isArray else {
            throw .typeMismatch(StatusLocation(file: fileName, keyPath: "sections"), expected: "array", found: value.valueDescription)
        }
        let items = value.elements
        var sections: [StatusSection] = []
        var skipped: [SkippedStatus] = []
        for (i, item) in items.enumerated() {
            let path = "sections[\(i)]"
            var place = SectionLocation(kind: .section, index: i)
            guard item.isObject else {
                throw .typeMismatch(
                    StatusLocation(file: fileName, section: place, keyPath: path), expected: "object (a section with statuses)",
                    found: item.valueDescription)
            }
            let fields = Fields(item.rerooted, maxStringBytes: options.maxStringBytes)
            var section = StatusSection(title: "", statuses: [])
            let statuses: [N]
            do throws(FieldError) {
                section.title = try fields.string("title", default: "")
                place.title = section.title
                section.footer = try fields.optionalString("footer")
                section.isCollapsed = try fields.bool("collapsed", default: false)
                if let t = try fields.optionalString("index_title") { section.indexTitle = t } else {
                    section.indexTitle = section.title.first.map(String.init) ?? ""
                }
                guard let list = fields.raw("statuses") else { throw fields.fail("statuses", .missing) }
                guard list.isArray else { throw fields.fail("statuses", .type(expected: "array", found: list.valueDescription)) }
                statuses = list.elements
            } catch {
                throw error.error(in: StatusLocation(file: fileName, section: place, keyPath: error.path.rendered(prefix: path)))
            }
            for (k, node) in statuses.enumerated() {
                do throws(StatusModelError) {
                    section.statuses.append(
                        try decodeStatus(
                            node.rerooted, index: k, keyPrefix: "\(path).statuses", line: nil, fileName: fileName, classic: false,
                            options: options))
                } catch {
                    let located = error.inSection(place)
                    guard options.skipInvalid else { throw located }
                    skipped.append(SkippedStatus(index: k, id: located.location?.id, error: located))
                }
            }
            sections.append(section)
        }
        return LoadResult(feed: Feed(sections: sections, sourceName: fileName, format: .modelPlist), skipped: skipped)
    }
}

extension StatusModelError {
    /// The error with its status location placed in `section` (errors without a location unchanged).
    func inSection(_ section: SectionLocation) -> StatusModelError {
        func put(_ l: StatusLocation) -> StatusLocation {
            var l = l
            l.section = section
            return l
        }
        switch self {
        case .missingKey(let l): return .missingKey(put(l))
        case .typeMismatch(let l, let e, let f): return .typeMismatch(put(l), expected: e, found: f)
        case .invalidValue(let l, let e, let f): return .invalidValue(put(l), expected: e, found: f)
        case .valueTooLarge(let l, let limit, let found): return .valueTooLarge(put(l), limit: limit, found: found)
        default: return self
        }
    }
}
