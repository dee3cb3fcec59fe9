import TextMeasure

/// A cell style: data only (an arrangement with its constants and a palette), so a new style is a
/// new value, not new engine code.
///
/// The engine knows two arrangements: `classic` (the tutorial cell of docs/cell-spec.md section 1, laid out in
/// one pass) and `stacked` (the block stack of docs/cell-spec.md section 2). A third style picks one of them and
/// sets its own constants (fonts, paddings, grid, block heights) and colours.
public struct CellStyle: Sendable, Hashable {
    /// How the parts are arranged, with the constants of that arrangement.
    public enum Arrangement: Sendable, Hashable {
        case classic(ClassicMetrics)
        case stacked(StackedMetrics)
    }

    /// The style's name (used in dumps and cache keys).
    public var name: String
    public var arrangement: Arrangement
    public var palette: Palette
    /// The read-more token appended to a text cut by a line limit.
    public var readMoreToken: String

    public init(name: String, arrangement: Arrangement, palette: Palette, readMoreToken: String = "...全文") {
        self.name = name
        self.arrangement = arrangement
        self.palette = palette
        self.readMoreToken = readMoreToken
    }

    /// The original tutorial cell (docs/cell-spec.md, section 1).
    public static let classic = CellStyle(name: "classic", arrangement: .classic(.tutorial), palette: .classic)

    /// The full Weibo cell (docs/cell-spec.md, section 2).
    public static let weibo = CellStyle(name: "weibo", arrangement: .stacked(.weibo), palette: .weibo)
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
