import TextMeasure

// The parts of a CellGeometry: bands, images, texts, hit rects, pictures, card, retweet,
// tag and toolbar. Plain values; what they store out of line is in CellStorage.swift.

/// A horizontal band of the cell.
public struct CellBlock: Sendable, Equatable {
    /// The bands, top to bottom in the order a cell stacks them.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case topGap, title, profile, text, retweet, pictures, card, tag, padding, toolbar, bottomGap

        /// The number of kinds: a cell has at most one block of each.
        static let count = allCases.count
    }
    public var kind: Kind
    /// Full cell width, `height` tall.
    public var frame: Rect
}

/// An image drawn at a frame (badges, icons): `name` says which, renderers interpret it.
public struct ImageFrame: Sendable, Equatable {
    public var name: String
    public var frame: Rect
    public init(name: String, frame: Rect) {
        self.name = name
        self.frame = frame
    }
}

/// An entity's hit-test rects, in cell coordinates.
public struct EntityHit: Sendable, Equatable {
    public var kind: EntityKind
    public var value: String
    /// One rect per line the entity spans, top to bottom (stored without an array of its own
    /// for the common single line).
    package var hitRects: HitRects
    /// One rect per line the entity spans, top to bottom.
    public var rects: [Rect] { Array(hitRects) }
}

/// A laid-out text placed in the cell.
public struct TextBox: Sendable, Equatable {
    /// The text's frame: lines are positioned relative to its origin.
    public var frame: Rect
    public var layout: TextLayout
    package var preparedBox: PreparedTextBox
    /// The prepared text the box's lines break.
    public var prepared: PreparedText { preparedBox.prepared }
    /// Entities (mentions, topics, links, emoticons) with rects in cell coordinates.
    public var entities: [EntityHit]
    /// Inline objects (emoticons, link icons, name icons) in cell coordinates.
    public var attachments: [ImageFrame]
    /// The read-more token's frame in cell coordinates, when the text was truncated (kept out of
    /// line: most boxes have none, and the box stays small enough to be copied inline).
    @OutOfLine package var tokenStorage: Rect?
    public var token: Rect? {
        get { tokenStorage }
        set { tokenStorage = newValue }
    }
    /// The plain string (inline objects are U+FFFC).
    public var string: String { preparedBox.prepared.string }
}

/// The title bar above the profile (e.g. "热门"): its band, optional icon and label.
public struct TitleBarLayout: Sendable, Equatable {
    public var frame: Rect
    public var icon: Rect?
    public var label: TextBox
}

/// One picture of a grid and its optional badge.
public struct PictureFrame: Sendable, Equatable {
    public var pictureID: String
    public var frame: Rect
    /// "gif" or "long" badge at the picture's bottom-right.
    public var badge: ImageFrame?
}

/// A picture grid (one to nine pictures, docs/cell-spec.md section 2).
public struct PictureGridLayout: Sendable, Equatable {
    /// The bounding frame of the pictures.
    public var frame: Rect
    public var pictures: CellFrames<PictureFrame>
}

/// The card (`page_info`): image, optional type badge, title/description text and button; a video
/// card is one large image with a play badge.
public struct CardLayout: Sendable, Equatable {
    public var frame: Rect
    public var isVideo: Bool
    public var image: Rect?
    /// The type icon over the image, or the play badge of a video card.
    public var badge: ImageFrame?
    /// Title + newline + description.
    public var text: TextBox?
    public var button: Rect?
}

/// The retweet block: background, "@name:" text and the retweet's pictures or card.
public struct RetweetLayout: Sendable, Equatable {
    /// The background (full cell width).
    public var frame: Rect
    /// The retweet's text ("@name:" + text).
    public var text: TextBox
    public var pictures: PictureGridLayout?
    @OutOfLine package var cardStorage: CardLayout?
    public var card: CardLayout? {
        get { cardStorage }
        set { cardStorage = newValue }
    }
}

/// The tag row below the content (a place tag has an icon and is taller).
public struct TagLayout: Sendable, Equatable {
    public var frame: Rect
    public var isPlace: Bool
    public var icon: Rect?
    public var label: TextBox
}

/// One toolbar button: its third of the toolbar, icon and count label.
public struct ToolbarButton: Sendable, Equatable {
    /// The three buttons, left to right.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case repost, comment, like
    }
    public var kind: Kind
    public var frame: Rect
    public var icon: Rect
    public var label: TextBox
    /// The label's text (made from the prepared label on each read).
    public var string: String { label.string }
}

/// The toolbar: repost, comment and like buttons over the full cell width.
public struct ToolbarLayout: Sendable, Equatable {
    public var frame: Rect
    public var buttons: CellFrames<ToolbarButton>
}
