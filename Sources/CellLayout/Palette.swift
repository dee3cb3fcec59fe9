import TextMeasure

/// Text roles of cell parts: layout carries them, renderers map them to colours through a `Palette`.
extension TextRole {
    public static let cellName = TextRole(rawValue: 101)
    public static let cellVIPName = TextRole(rawValue: 102)
    public static let cellTime = TextRole(rawValue: 103)
    public static let cellSource = TextRole(rawValue: 104)
    public static let cellText = TextRole(rawValue: 105)
    public static let cellRetweetText = TextRole(rawValue: 106)
    public static let cellLink = TextRole(rawValue: 107)
    public static let cellToolbar = TextRole(rawValue: 108)
    public static let cellToolbarLiked = TextRole(rawValue: 109)
    public static let cellCardTitle = TextRole(rawValue: 110)
    public static let cellCardDesc = TextRole(rawValue: 111)
    public static let cellTitle = TextRole(rawValue: 112)
    public static let cellTag = TextRole(rawValue: 113)
}

/// Filled areas of a cell, for renderers.
public enum FillRole: String, Sendable, Hashable, Codable, CaseIterable {
    case cellBackground, contentBackground, retweetBackground, linkPressed, cardBackground
}

/// Colours (0xRRGGBB) by role.
public struct Palette: Sendable, Hashable {
    public var text: [TextRole: UInt32]
    public var fill: [FillRole: UInt32]
    /// Colour of a role without an entry.
    public var defaultText: UInt32

    public init(text: [TextRole: UInt32], fill: [FillRole: UInt32], defaultText: UInt32) {
        self.text = text
        self.fill = fill
        self.defaultText = defaultText
    }

    /// The colour of a text role.
    public func color(_ role: TextRole) -> UInt32 { text[role] ?? defaultText }

    /// The Weibo demo's colours (docs/cell-spec.md, section 2).
    public static let weibo = Palette(
        text: [
            .cellName: 0x333333, .cellVIPName: 0xF26220, .cellTime: 0x828282, .cellSource: 0x828282,
            .cellText: 0x333333, .cellRetweetText: 0x5D5D5D, .cellLink: 0x527EAD, .cellToolbar: 0x929292,
            .cellToolbarLiked: 0xDF422D, .cellCardTitle: 0x333333, .cellCardDesc: 0x828282,
            .cellTitle: 0x929292, .cellTag: 0x527EAD,
        ],
        fill: [
            .cellBackground: 0xF2F2F2, .contentBackground: 0xFFFFFF, .retweetBackground: 0xF7F7F7,
            .linkPressed: 0xBFDFFE, .cardBackground: 0xF7F7F7,
        ],
        defaultText: 0x333333)

    /// The friend list's colours: black names, red VIP names (as in the tutorial), gray signatures.
    public static let friend = Palette(
        text: [.cellName: 0x000000, .cellVIPName: 0xFF0000, .cellText: 0x808080, .cellTitle: 0x000000, .cellTime: 0x808080],
        fill: [.cellBackground: 0xFFFFFF, .contentBackground: 0xFFFFFF],
        defaultText: 0x000000)

    /// The tutorial's colours: gray (HSB bytes 50,50,50 ≈ #303228) and light gray.
    public static let classic = Palette(
        text: [
            .cellName: 0x303228, .cellText: 0x303228, .cellTime: 0xAAAAAA, .cellSource: 0xAAAAAA,
            .cellLink: 0x527EAD,
        ],
        fill: [.cellBackground: 0xFFFFFF, .contentBackground: 0xFFFFFF],
        defaultText: 0x303228)
}
