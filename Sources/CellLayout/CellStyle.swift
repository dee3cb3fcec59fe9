import TextMeasure

/// A cell style: data only (an arrangement with its constants and a palette), so a new style is a
/// new value, not new engine code.
///
/// The engine knows three arrangements: `classic` (the tutorial cell of docs/cell-spec.md section 1, laid out in
/// one pass), `stacked` (the block stack of docs/cell-spec.md section 2) and `list` (the friend-list
/// row of docs/cell-spec.md section 3: a fixed height). A new style picks one of them and sets its
/// own constants (fonts, paddings, grid, block heights) and colours.
///
/// The fields live in one immutable object that copies share, so passing a style (`style:
/// .weibo` in every `layout` call copies the static value) is one retain rather than one per
/// string of its metrics and palette; the getters are inlinable, so a field is read in place.
/// Setting a field makes a new object.
public struct CellStyle: Sendable, Hashable {
    /// How the parts are arranged, with the constants of that arrangement.
    public enum Arrangement: Sendable, Hashable {
        case classic(ClassicMetrics)
        case stacked(StackedMetrics)
        case list(ListMetrics)
    }

    @usableFromInline var box: CellStyleBox

    /// The style's name (used in dumps and cache keys).
    public var name: String {
        @inlinable get { box.fields.name }
        set { update(\.name, newValue) }
    }
    public var arrangement: Arrangement {
        @inlinable get { box.fields.arrangement }
        set { update(\.arrangement, newValue) }
    }
    public var palette: Palette {
        @inlinable get { box.fields.palette }
        set { update(\.palette, newValue) }
    }
    /// The read-more token appended to a text cut by a line limit.
    public var readMoreToken: String {
        @inlinable get { box.fields.readMoreToken }
        set { update(\.readMoreToken, newValue) }
    }
    /// Section headers and footers of a table in this style.
    public var sections: SectionMetrics {
        @inlinable get { box.fields.sections }
        set { update(\.sections, newValue) }
    }

    public init(
        name: String, arrangement: Arrangement, palette: Palette, readMoreToken: String = "...全文",
        sections: SectionMetrics = .standard
    ) {
        box = CellStyleBox(
            CellStyleFields(name: name, arrangement: arrangement, palette: palette, readMoreToken: readMoreToken, sections: sections))
    }

    /// Sets one field in a new object (copies share the old one).
    private mutating func update<T>(_ field: WritableKeyPath<CellStyleFields, T>, _ value: T) {
        var fields = box.fields
        fields[keyPath: field] = value
        box = CellStyleBox(fields)
    }

    /// The original tutorial cell (docs/cell-spec.md, section 1).
    public static let classic = CellStyle(name: "classic", arrangement: .classic(.tutorial), palette: .classic)

    /// The full Weibo cell (docs/cell-spec.md, section 2).
    public static let weibo = CellStyle(name: "weibo", arrangement: .stacked(.weibo), palette: .weibo)

    /// The QQ tutorial's friend-list row (docs/cell-spec.md, section 3): avatar, name (red for a
    /// VIP), signature on one line; group headers with a disclosure mark and a count.
    /// Its read-more token is the ellipsis that ends a cut name or signature.
    public static let friend = CellStyle(
        name: "friend", arrangement: .list(.friend), palette: .friend, readMoreToken: "…", sections: .friendGroups)
}

/// The stored fields of a `CellStyle`.
@usableFromInline struct CellStyleFields: Sendable, Hashable {
    @usableFromInline var name: String
    @usableFromInline var arrangement: CellStyle.Arrangement
    @usableFromInline var palette: Palette
    @usableFromInline var readMoreToken: String
    @usableFromInline var sections: SectionMetrics
}

/// The immutable object a style's copies share.
@usableFromInline final class CellStyleBox: Sendable, Hashable {
    @usableFromInline let fields: CellStyleFields
    /// A stacked arrangement's metrics in an object of their own, which the style's prepared
    /// cells share (nil for the other arrangements).
    let stackedMetrics: Shared<StackedMetrics>?

    init(_ fields: CellStyleFields) {
        self.fields = fields
        if case .stacked(let m) = fields.arrangement { stackedMetrics = Shared(m) } else { stackedMetrics = nil }
    }
    @usableFromInline static func == (a: CellStyleBox, b: CellStyleBox) -> Bool { a === b || a.fields == b.fields }
    @usableFromInline func hash(into hasher: inout Hasher) { hasher.combine(fields) }
}

/// Section headers and footers of a table in a style: fixed-height one-line headers (title
/// left, count right, a disclosure mark for sections that open and close), footers measured.
public struct SectionMetrics: Sendable, Hashable {
    /// Height of a section header, in points.
    public var headerHeight: Double = 28
    /// Left and right padding of the header's contents.
    public var headerPadding: Double = 12
    public var titleFontSize: Double = 14
    /// Font size of the count right of the title ("3/12").
    public var detailFontSize: Double = 12
    /// Side of the disclosure mark (a triangle pointing right when closed, down when open),
    /// drawn left of the title when the section opens and closes.
    public var disclosureSize: Double = 0
    /// Gap between the disclosure mark and the title.
    public var disclosureGap: Double = 8

    public init() {}

    /// Headers of a feed grouped by day, user or source.
    public static let standard = SectionMetrics()

    /// The QQ tutorial's group headers: taller, with a disclosure mark.
    public static let friendGroups: SectionMetrics = {
        var m = SectionMetrics()
        m.headerHeight = 44
        m.headerPadding = 10
        m.titleFontSize = 16
        m.detailFontSize = 14
        m.disclosureSize = 10
        return m
    }()
}

/// Constants of the list arrangement (docs/cell-spec.md, section 3): a row of fixed height.
public struct ListMetrics: Sendable, Hashable {
    /// Space above and below the avatar, and left of it.
    public var padding: Double = 8
    public var avatarSize: Double = 44
    /// Gap between the avatar and the texts.
    public var textGap: Double = 10
    /// Space right of the texts.
    public var trailingPadding: Double = 10
    public var nameFontSize: Double = 16
    public var detailFontSize: Double = 13
    /// Gap between the name's line and the signature's.
    public var lineGap: Double = 4

    public init() {}

    /// The friend list's values.
    public static let friend = ListMetrics()

    /// The row height: the avatar and the padding above and below it (60 pt for `.friend`).
    public var rowHeight: Double { avatarSize + 2 * padding }
}

/// Constants of the classic arrangement (docs/cell-spec.md, section 1).
public struct ClassicMetrics: Sendable, Hashable {
    /// Spacing between parts and around the cell.
    public var spacing: Double = 10
    public var avatarSize: Double = 40
    public var nameFontSize: Double = 14
    public var memberBadgeSize: Double = 13
    public var dateFontSize: Double = 12
    public var textFontSize: Double = 14
    public var sourcePrefix: String = "来自 "

    public init() {}

    /// The tutorial's values.
    public static let tutorial = ClassicMetrics()
}

/// Constants of the stacked (Weibo) arrangement (docs/cell-spec.md, section 2).
public struct StackedMetrics: Sendable, Hashable {
    public var topGap: Double = 8
    public var bottomGap: Double = 2
    /// Left and right padding; the content width is `W − 2·padding`.
    public var padding: Double = 12

    public var titleHeight: Double = 36
    public var titleFontSize: Double = 14
    public var titleIconSize: Double = 20

    public var profileHeight: Double = 56
    /// Avatar origin inside the profile block.
    public var avatarTop: Double = 15
    public var avatarSize: Double = 40
    public var avatarBadgeSize: Double = 14
    /// Gap between the avatar and the name (name x = padding + avatar + gap).
    public var nameGap: Double = 14
    /// The name's width is `W − nameWidthInset`.
    public var nameWidthInset: Double = 110
    public var nameCenterY: Double = 27
    public var nameFontSize: Double = 16
    public var sourceCenterY: Double = 47
    public var sourceFontSize: Double = 12
    public var timeSourceSeparator: String = "  "
    public var sourcePrefix: String = "来自 "

    public var textFontSize: Double = 17
    public var retweetTextFontSize: Double = 16
    /// Space above and below the lines of a text block.
    public var textPadding: Double = 10
    /// Line grid: pitch `lineMultiple × size`, baseline `ascentFraction × size` below the line top.
    public var lineMultiple: Double = 1.34
    public var ascentFraction: Double = 0.86
    /// Short-URL titles longer than this many characters are cut and end with "…".
    public var linkTitleMaxLength: Int = 27

    public var pictureGap: Double = 4
    public var pictureBadgeWidth: Double = 28
    public var pictureBadgeHeight: Double = 18
    /// A picture whose height / width exceeds this gets the long-picture badge.
    public var longPictureRatio: Double = 3

    public var cardHeight: Double = 70
    public var cardImageWidth: Double = 70
    public var cardBadgedImageWidth: Double = 100
    public var cardBadgeSize: Double = 25
    public var cardButtonWidth: Double = 60
    public var cardButtonHeight: Double = 26
    public var cardTextInset: Double = 10
    public var cardTitleFontSize: Double = 16
    public var cardDescFontSize: Double = 12
    public var cardMaxLines: Int = 3
    public var cardLinePitch: Double = 20
    public var videoPlayBadgeSize: Double = 60

    public var tagHeight: Double = 32
    public var placeTagHeight: Double = 40
    public var tagIconSize: Double = 24
    public var tagIconGap: Double = 4
    public var tagFontSize: Double = 12
    /// The space below pictures or a card when there is no tag.
    public var gapWithoutTag: Double = 12

    public var toolbarHeight: Double = 35
    public var toolbarFontSize: Double = 14
    public var toolbarIconSize: Double = 18
    public var toolbarIconGap: Double = 5

    public init() {}

    /// The Weibo demo's values.
    public static let weibo = StackedMetrics()

    /// Baseline grid of a text block at `size`.
    public func lineGrid(size: Double) -> LineHeightPolicy {
        .grid(size: size, multiple: lineMultiple, ascentFraction: ascentFraction)
    }
}
