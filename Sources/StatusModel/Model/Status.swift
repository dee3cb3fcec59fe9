import Foundation

/// One status (a post) of a Weibo-style feed, as the layout engine needs it.
///
/// Value type; immutable once loaded; `Sendable`, so feeds may be laid out on any thread.
/// Fields the source format does not provide take the defaults documented on each property.
///
/// The fields live in one immutable object that copies share: copying a status (a loop over a
/// feed, a row kept by a table) is one retain, where copying the fields themselves retained
/// each of its two dozen strings and arrays. The getters are inlinable, so that a
/// caller in another module reads a field in place rather than through a call that returns a
/// copy. Setting a field makes a new object (and recomputes `contentFingerprint`, which is
/// O(size of the status) anyway).
public struct Status: Sendable, Hashable {
    @usableFromInline var box: StatusBox

    /// The status id (`id` in the Weibo API, `Id` in the classic plist).
    public var id: Int64 {
        @inlinable get { box.fields.id }
        set { update(\.id, newValue, refreshing: false) }
    }
    /// When the status was posted; nil when the source only gave an unparseable display string.
    public var createdAt: Date? {
        @inlinable get { box.fields.createdAt }
        set { update(\.createdAt, newValue) }
    }
    /// The created-at string exactly as the source gave it (the classic plist's `createdAt`
    /// such as "2小时前"); nil for formats that carry a machine date.
    public var createdAtText: String? {
        @inlinable get { box.fields.createdAtText }
        set { update(\.createdAtText, newValue) }
    }
    /// The client name: the text of the API's `source` HTML anchor (the classic plist's plain
    /// `source`). Empty when absent.
    public var source: String {
        @inlinable get { box.fields.source }
        set { update(\.source, newValue) }
    }
    /// The status text, unmodified (entities are resolved by the layout).
    public var text: String {
        @inlinable get { box.fields.text }
        set { update(\.text, newValue) }
    }
    /// The author. For a deleted retweet (`deleted` set in the API) this is `User.unknown`.
    public var user: User {
        @inlinable get { box.fields.user }
        set { update(\.user, newValue) }
    }
    /// True when the API marks the status as deleted (`deleted`: "1").
    public var isDeleted: Bool {
        @inlinable get { box.fields.isDeleted }
        set { update(\.isDeleted, newValue) }
    }
    /// The retweeted (reposted) status, if any; never itself a retweet in practice, but nesting is allowed.
    public var retweetedStatus: Status? {
        @inlinable get { box.fields.retweet?.status }
        set { update(\.retweet, newValue.map(RetweetBox.init)) }
    }
    /// Pictures in display order (`pic_ids` order).
    public var pictures: [Picture] {
        @inlinable get { box.fields.pictures }
        set { update(\.pictures, newValue) }
    }
    /// Short URLs in the text (`url_struct`); a retweet without its own inherits its parent's.
    public var urlEntities: [URLEntity] {
        @inlinable get { box.fields.urlEntities }
        set { update(\.urlEntities, newValue) }
    }
    /// `#topic#` entities (`topic_struct`).
    public var topics: [Topic] {
        @inlinable get { box.fields.topics }
        set { update(\.topics, newValue) }
    }
    /// The first tag (`tag_struct[0]`), if any.
    public var tag: Tag? {
        @inlinable get { box.fields.tag }
        set { update(\.tag, newValue) }
    }
    /// The card (`page_info`); a retweet without its own inherits its parent's.
    public var pageInfo: PageInfo? {
        @inlinable get { box.fields.pageInfo }
        set { update(\.pageInfo, newValue) }
    }
    /// The title bar above the status (`title`), e.g. "热门".
    public var titleBar: TitleBar? {
        @inlinable get { box.fields.titleBar }
        set { update(\.titleBar, newValue) }
    }
    /// Repost count (`reposts_count`, never negative; 0 when absent).
    public var repostsCount: Int {
        @inlinable get { box.fields.repostsCount }
        set { update(\.repostsCount, newValue) }
    }
    /// Comment count (`comments_count`, never negative; 0 when absent).
    public var commentsCount: Int {
        @inlinable get { box.fields.commentsCount }
        set { update(\.commentsCount, newValue) }
    }
    /// Like count (`attitudes_count`, never negative; 0 when absent).
    public var attitudesCount: Int {
        @inlinable get { box.fields.attitudesCount }
        set { update(\.attitudesCount, newValue) }
    }
    /// Whether the viewer liked the status (`attitudes_status` == 1).
    public var liked: Bool {
        @inlinable get { box.fields.liked }
        set { update(\.liked, newValue) }
    }
    /// The member badge image name of the classic format (`mbtype`), e.g. "vip"; nil otherwise.
    public var memberBadge: String? {
        @inlinable get { box.fields.memberBadge }
        set { update(\.memberBadge, newValue) }
    }

    /// A keyed hash of every field that affects this status's layout, for caches within one
    /// process: its value differs between runs (the key is random per process), so content cannot
    /// be built to collide with other content.
    ///
    /// Two statuses with the same fingerprint lay out identically at any width (barring a 2⁻⁶⁴
    /// collision); a changed text, count, picture, tag, card or retweet changes it. Kept up to
    /// date by every mutation (each recomputes it: O(size of the status)), so reading it is O(1):
    /// caches keyed by content look it up once per row and per request.
    public private(set) var contentFingerprint: UInt64 = 0

    /// Sets one field in a new box (copies share the old one), then the fingerprint.
    private mutating func update<T>(_ field: WritableKeyPath<StatusFields, T>, _ value: T, refreshing: Bool = true) {
        var fields = box.fields
        fields[keyPath: field] = value
        box = StatusBox(fields)
        if refreshing { contentFingerprint = computeFingerprint() }
    }

    /// The retweet's fingerprint, without copying the retweet out of its box.
    var retweetFingerprint: UInt64? { box.fields.retweet?.status.contentFingerprint }

    /// Creates a status; every field but `id`, `text` and `user` has an empty default.
    public init(
        id: Int64, createdAt: Date? = nil, createdAtText: String? = nil, source: String = "",
        text: String, user: User, isDeleted: Bool = false, retweetedStatus: Status? = nil,
        pictures: [Picture] = [], urlEntities: [URLEntity] = [], topics: [Topic] = [], tag: Tag? = nil,
        pageInfo: PageInfo? = nil, titleBar: TitleBar? = nil, repostsCount: Int = 0,
        commentsCount: Int = 0, attitudesCount: Int = 0, liked: Bool = false, memberBadge: String? = nil
    ) {
        box = StatusBox(StatusFields(
            id: id, createdAt: createdAt, createdAtText: createdAtText, source: source, text: text, user: user,
            isDeleted: isDeleted, retweet: retweetedStatus.map(RetweetBox.init), pictures: pictures,
            urlEntities: urlEntities, topics: topics, tag: tag, pageInfo: pageInfo, titleBar: titleBar,
            repostsCount: repostsCount, commentsCount: commentsCount, attitudesCount: attitudesCount, liked: liked,
            memberBadge: memberBadge))
        contentFingerprint = computeFingerprint()
    }

    /// True when the status reposts another one.
    @inlinable public var isRetweet: Bool { box.fields.retweet != nil }

    /// `body` applied to the retweeted status read in place, or nil when there is none.
    package func withRetweetedStatus<R>(_ body: (Status) throws -> R) rethrows -> R? {
        guard let retweet = box.fields.retweet else { return nil }
        return try body(retweet.status)
    }
}

/// The stored fields of a `Status`.
@usableFromInline struct StatusFields: Sendable, Hashable {
    @usableFromInline var id: Int64
    @usableFromInline var createdAt: Date?
    @usableFromInline var createdAtText: String?
    @usableFromInline var source: String
    @usableFromInline var text: String
    @usableFromInline var user: User
    @usableFromInline var isDeleted: Bool
    @usableFromInline var retweet: RetweetBox?
    @usableFromInline var pictures: [Picture]
    @usableFromInline var urlEntities: [URLEntity]
    @usableFromInline var topics: [Topic]
    @usableFromInline var tag: Tag?
    @usableFromInline var pageInfo: PageInfo?
    @usableFromInline var titleBar: TitleBar?
    @usableFromInline var repostsCount: Int
    @usableFromInline var commentsCount: Int
    @usableFromInline var attitudesCount: Int
    @usableFromInline var liked: Bool
    @usableFromInline var memberBadge: String?
}

/// The immutable object a status's copies share.
@usableFromInline final class StatusBox: Sendable, Hashable {
    @usableFromInline let fields: StatusFields
    init(_ fields: StatusFields) { self.fields = fields }
    @usableFromInline static func == (a: StatusBox, b: StatusBox) -> Bool { a === b || a.fields == b.fields }
    @usableFromInline func hash(into hasher: inout Hasher) { hasher.combine(fields) }
}

/// Immutable box giving `Status` a recursive stored property with value semantics.
@usableFromInline final class RetweetBox: Sendable, Hashable {
    @usableFromInline let status: Status
    init(_ status: Status) { self.status = status }
    @usableFromInline static func == (a: RetweetBox, b: RetweetBox) -> Bool { a === b || a.status == b.status }
    @usableFromInline func hash(into hasher: inout Hasher) { hasher.combine(status) }
}

/// The author of a status.
public struct User: Sendable, Hashable {
    public var id: Int64
    /// `name`, falling back to `screen_name` when the API omits it.
    public var name: String
    /// The display name (`screen_name`).
    public var screenName: String
    /// The viewer's remark for this user; empty when none.
    public var remark: String
    /// `profile_image_url`; empty when absent.
    public var avatarURL: String
    /// `verified_type`: -1 none, 0 personal, 1–7 organisation, 220 club (grass-roots); default -1.
    public var verifiedType: Int
    /// Member (VIP) level `mbrank`, 0 when none.
    public var mbrank: Int
    /// Member type `mbtype`; values above 2 mean an active membership. 0 when absent.
    public var mbtype: Int

    public init(
        id: Int64, name: String, screenName: String? = nil, remark: String = "", avatarURL: String = "",
        verifiedType: Int = -1, mbrank: Int = 0, mbtype: Int = 0
    ) {
        self.id = id
        self.name = name
        self.screenName = screenName ?? name
        self.remark = remark
        self.avatarURL = avatarURL
        self.verifiedType = verifiedType
        self.mbrank = mbrank
        self.mbtype = mbtype
    }

    /// The placeholder author of a deleted status.
    public static let unknown = User(id: 0, name: "")

    /// The name a cell shows: the viewer's remark, else the display name, else `name`.
    @inlinable public var shownName: String {
        !remark.isEmpty ? remark : (!screenName.isEmpty ? screenName : name)
    }
}

/// One picture of a status or of a URL entity.
public struct Picture: Sendable, Hashable {
    /// The image format as the API reports it.
    public enum Kind: String, Sendable, Hashable {
        case gif = "GIF", jpeg = "JPEG", webp = "WEBP", other = ""
        /// The kind named `apiName`, in any letter case. ASCII names (all the API sends) are
        /// matched without building an uppercased copy: this runs for every picture of a feed.
        init(apiName: String) {
            if apiName.utf8.allSatisfy({ $0 < 0x80 }) {
                for kind in [Kind.gif, .jpeg, .webp] where kind.rawValue.utf8.elementsEqual(apiName.utf8.lazy.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }) {
                    self = kind
                    return
                }
                self = .other
                return
            }
            self = Kind(rawValue: apiName.uppercased()) ?? .other
        }
    }

    /// `pic_id`.
    public var id: String
    /// URL of the variant the size was taken from (`large`, else bmiddle, thumbnail, original).
    public var url: String
    /// Pixel size of that variant; 0 when unknown.
    public var width: Int
    public var height: Int
    public var kind: Kind
    /// `keep_size`: show at a fixed square instead of aspect-fit.
    public var keepSize: Bool

    public init(id: String, url: String, width: Int, height: Int, kind: Kind = .jpeg, keepSize: Bool = false) {
        self.id = id
        self.url = url
        self.width = width
        self.height = height
        self.kind = kind
        self.keepSize = keepSize
    }

    /// True for animated GIFs (badge "GIF").
    public var isGIF: Bool { kind == .gif }
    /// True when height / width > 3 (badge "long picture"); false for an unknown size.
    public var isLong: Bool { width > 0 && height > 3 * width }
}

/// A short URL in the text (`url_struct` entry).
public struct URLEntity: Sendable, Hashable {
    public var shortURL: String
    /// `url_title`, shown instead of the short URL.
    public var title: String
    /// `ori_url`; empty when absent.
    public var originalURL: String
    /// `url_type` (0 web page, 36 place, 39 picture/video …); 0 when absent.
    public var type: Int
    /// `url_type_pic`: the link icon; empty when absent.
    public var iconURL: String
    /// `page_id` when the URL points at the status card; empty otherwise.
    public var pageID: String
    /// Pictures behind the URL (`pic_ids` / `pic_infos`), if any.
    public var pictures: [Picture]

    public init(
        shortURL: String, title: String, originalURL: String = "", type: Int = 0, iconURL: String = "",
        pageID: String = "", pictures: [Picture] = []
    ) {
        self.shortURL = shortURL
        self.title = title
        self.originalURL = originalURL
        self.type = type
        self.iconURL = iconURL
        self.pageID = pageID
        self.pictures = pictures
    }
}

/// A `#topic#` entity (`topic_struct` entry).
public struct Topic: Sendable, Hashable {
    public var title: String
    public var url: String
    public init(title: String, url: String = "") {
        self.title = title
        self.url = url
    }
}

/// The tag below a status (`tag_struct[0]`).
public struct Tag: Sendable, Hashable {
    public var name: String
    /// `tag_type`: 1 is a place (taller row with an icon); other values are plain tags.
    public var type: Int
    /// `url_type_pic`; empty when absent.
    public var iconURL: String
    public var scheme: String

    public init(name: String, type: Int = 0, iconURL: String = "", scheme: String = "") {
        self.name = name
        self.type = type
        self.iconURL = iconURL
        self.scheme = scheme
    }

    public var isPlace: Bool { type == 1 }
}

/// The card below the text (`page_info`).
public struct PageInfo: Sendable, Hashable {
    /// `page_title`.
    public var title: String
    /// `page_desc`; empty when absent.
    public var desc: String
    /// `tips`; empty when absent.
    public var tips: String
    /// `type` (numbers or numeric strings in the API); 0 when absent.
    public var type: Int
    /// `object_type`, e.g. "video", "place", "webpage"; empty when absent.
    public var objectType: String
    /// `page_pic`; empty when absent or null.
    public var pictureURL: String
    /// `type_icon`: the badge over the picture; empty when absent or null.
    public var typeIconURL: String
    /// True when `buttons` is a non-empty array.
    public var hasButton: Bool
    public var pageURL: String
    public var pageID: String

    public init(
        title: String, desc: String = "", tips: String = "", type: Int = 0, objectType: String = "",
        pictureURL: String = "", typeIconURL: String = "", hasButton: Bool = false, pageURL: String = "",
        pageID: String = ""
    ) {
        self.title = title
        self.desc = desc
        self.tips = tips
        self.type = type
        self.objectType = objectType
        self.pictureURL = pictureURL
        self.typeIconURL = typeIconURL
        self.hasButton = hasButton
        self.pageURL = pageURL
        self.pageID = pageID
    }

    /// True for a video card (taller, 16:9-ish picture).
    public var isVideo: Bool { objectType == "video" }
}

/// The title bar above a status (`title`), e.g. "热门" with an icon.
public struct TitleBar: Sendable, Hashable {
    public var text: String
    public var iconURL: String
    public init(text: String, iconURL: String = "") {
        self.text = text
        self.iconURL = iconURL
    }
}

/// The format a feed was loaded from (and a writer's output format).
public enum FeedFormat: String, Sendable, Hashable, CaseIterable {
    /// The tutorial's plist: an array of dicts with `Id`, `userName`, `text`, …
    case classicPlist = "classic-plist"
    /// A Weibo API timeline response (object with `statuses`, or an array).
    case weiboJSON = "json"
    /// The full model as a property list (the same keys as the JSON).
    case modelPlist = "plist"
    /// One Weibo status object per line.
    case jsonLines = "jsonl"
    /// The QQ tutorial's friend list: an array of groups (`GroupName`, `Friends`), each friend a
    /// dict with `Name`, `Intro`, `Avatars` and `VIP`. Always sectioned (a section per group).
    case friendList = "friends-plist"
}

/// A loaded feed: statuses in file order plus where they came from, and their sections when the
/// input has them (a friend list, a model plist with `sections`, or a feed grouped on request).
public struct Feed: Sendable, Hashable {
    /// Every status in order (for a sectioned feed: the sections' statuses one after the other).
    public var statuses: [Status]
    /// The path the feed was loaded from, as given (relative paths stay relative); for in-memory
    /// feeds, the name the caller gave or empty.
    public var sourceName: String
    public var format: FeedFormat
    /// The sections, for a sectioned input; nil for a plain feed (one section without header).
    public var sections: [StatusSection]?

    public init(statuses: [Status], sourceName: String = "", format: FeedFormat = .weiboJSON) {
        self.statuses = statuses
        self.sourceName = sourceName
        self.format = format
        self.sections = nil
    }

    /// A sectioned feed; `statuses` is the sections' statuses in order.
    public init(sections: [StatusSection], sourceName: String = "", format: FeedFormat = .weiboJSON) {
        self.statuses = sections.flatMap(\.statuses)
        self.sourceName = sourceName
        self.format = format
        self.sections = sections
    }

    /// Number of statuses that repost another one.
    /// - Complexity: O(n) in the number of statuses.
    package var retweetCount: Int { statuses.reduce(0) { $0 + ($1.isRetweet ? 1 : 0) } }
    /// Number of pictures shown, own and retweeted.
    /// - Complexity: O(n) in the number of statuses.
    package var pictureCount: Int {
        statuses.reduce(0) { $0 + $1.pictures.count + ($1.retweetedStatus?.pictures.count ?? 0) }
    }
}
