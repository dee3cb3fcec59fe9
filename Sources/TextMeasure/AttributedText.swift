import FeedLayoutSupport

/// Attributed text: a string, attribute runs over UTF-16 ranges, inline objects and entity ranges.

/// The weight of a run's font: regular and bold come from the two faces of the font manifest.
public enum FontWeight: UInt8, Hashable, Sendable, Codable {
    case regular
    case bold
}

/// What a run means for rendering (its colour, its highlight). Layout only carries it.
///
/// Modules above TextMeasure define their roles as static constants; the raw value is the identity.
public struct TextRole: RawRepresentable, Hashable, Sendable, Codable {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public static let plain = TextRole(rawValue: 0)
}

/// The attributes of a run of text.
public struct TextAttributes: Hashable, Sendable {
    /// Font size in points; MUST be finite and ≥ 0.
    public var size: Double
    public var weight: FontWeight
    public var role: TextRole

    public init(size: Double, weight: FontWeight = .regular, role: TextRole = .plain) {
        self.size = size
        self.weight = weight
        self.role = role
    }
}

/// The kind of a marked range, for hit-testing and highlighting.
public enum EntityKind: String, Hashable, Sendable, Codable, CaseIterable {
    case mention, topic, link, emoticon, token
}

/// An inline object (emoticon image, link icon) drawn in the text flow. It occupies one U+FFFC
/// character in the string, is never broken, and has its own width and vertical extent.
public struct InlineObject: Hashable, Sendable {
    /// UTF-16 offset of its U+FFFC character in the string.
    public var offset: Int
    /// The extents are kept in [0, 10^6] points: non-finite and negative values are stored as 0,
    /// larger ones as 10^6 (a NaN ascent made a line's baseline NaN, a negative one a rect of
    /// negative height).
    public var width: Double { didSet { width = LineHeightPolicy.extent(width) } }
    /// Extent above the baseline (positive up).
    public var ascent: Double { didSet { ascent = LineHeightPolicy.extent(ascent) } }
    /// Extent below the baseline (positive down).
    public var descent: Double { didSet { descent = LineHeightPolicy.extent(descent) } }
    /// What to draw (an emoticon name, "link-icon"): carried, not interpreted.
    public var name: String

    public init(offset: Int, width: Double, ascent: Double, descent: Double, name: String) {
        self.offset = offset
        self.width = LineHeightPolicy.extent(width)
        self.ascent = LineHeightPolicy.extent(ascent)
        self.descent = LineHeightPolicy.extent(descent)
        self.name = name
    }
}

/// A range of text marked as an entity (a mention, a topic, a link, an emoticon).
public struct TextEntity: Hashable, Sendable {
    /// UTF-16 range in the string.
    public var range: Range<Int>
    public var kind: EntityKind
    /// The entity's value: the user name, the topic, the original URL, the emoticon code.
    public var value: String

    public init(range: Range<Int>, kind: EntityKind, value: String) {
        self.range = range
        self.kind = kind
        self.value = value
    }
}

/// A run of attributes over a UTF-16 range.
public struct AttributeRun: Hashable, Sendable {
    public var range: Range<Int>
    public var attributes: TextAttributes
    public init(range: Range<Int>, attributes: TextAttributes) {
        self.range = range
        self.attributes = attributes
    }
}

/// Text with attribute runs, inline objects and entities, all addressed in UTF-16 offsets.
///
/// Invariants (kept by the mutating API): runs are sorted, contiguous and cover the whole string
/// (an empty string has one empty run carrying the default attributes); every inline object sits on
/// a U+FFFC of the string; entity ranges lie inside the string.
///
/// Storage: the string, the first run, and one object (`TextParts`) for the other runs, the inline
/// objects and the entities, made only when the text has any of them. `runs`, `attachments` and
/// `entities` are random-access views of them.
/// Thread-safety: a value; the parts object is shared between copies and never mutated while
/// shared (copy-on-write), so it is safe to send (checked by hand: `ManagedBuffer` is not
/// `Sendable`).
public struct AttributedText: Hashable, @unchecked Sendable {
    public private(set) var string: String
    public private(set) var utf16Count: Int
    /// The first run (the base attributes), stored in the value.
    private var firstRun: AttributeRun
    /// The other runs, the inline objects and the entities (nil when there are none).
    private var parts: TextParts?
    /// Where tabs (U+0009) advance to. The default is Pango's: a stop every 8 space widths of
    /// the base font, measured from the line start.
    public var tabStops: TabStops = .pango

    /// The object replacement character that stands for an inline object in `string`.
    public static let attachmentCharacter: Character = "\u{FFFC}"

    /// The attribute runs, sorted, contiguous and covering the string.
    public var runs: Runs { Runs(first: firstRun, parts: parts) }
    /// The inline objects, in text order.
    public var attachments: Attachments { Attachments(parts: parts) }
    /// The marked ranges, in the order they were added.
    public var entities: Entities { Entities(parts: parts) }

    /// `attachments.count` and `entities.count`, read without making the views.
    package var attachmentCount: Int { parts.objectCount }
    package var entityCount: Int { parts.entityCount }

    /// The parts object (nil when the text has one run, no object and no entity).
    var partsObject: TextParts? { parts }

    /// Attributes of the first run: the paragraph's base font (used for empty lines).
    public var baseAttributes: TextAttributes { firstRun.attributes }

    public static func == (a: AttributedText, b: AttributedText) -> Bool {
        a.string == b.string && a.utf16Count == b.utf16Count && a.tabStops == b.tabStops
            && a.runs == b.runs && a.attachments == b.attachments && a.entities == b.entities
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(string)
        hasher.combine(runs)
        hasher.combine(attachments)
        hasher.combine(entities)
        hasher.combine(tabStops)
    }

    /// Appends text with the given attributes (merged with the last run when they are equal).
    /// - Returns: the UTF-16 range of the appended text.
    @discardableResult
    public mutating func append(_ text: String, attributes: TextAttributes) -> Range<Int> {
        let start = utf16Count
        let n = text.utf16.count
        guard n > 0 else { return start..<start }
        string += text
        utf16Count += n
        Self.extend(&firstRun, &parts, from: start, to: utf16Count, attributes: attributes)
        return start..<utf16Count
    }

    /// Appends an inline object with the given attributes for its U+FFFC character.
    /// - Returns: the UTF-16 range (length 1) of the object.
    @discardableResult
    public mutating func appendAttachment(
        width: Double, ascent: Double, descent: Double, name: String, attributes: TextAttributes
    ) -> Range<Int> {
        let range = append(String(Self.attachmentCharacter), attributes: attributes)
        parts.appendObject(InlineObject(offset: range.lowerBound, width: width, ascent: ascent, descent: descent, name: name))
        return range
    }

    /// Marks a range as an entity.
    /// - Precondition: the range lies inside the string.
    public mutating func addEntity(_ kind: EntityKind, range: Range<Int>, value: String) {
        precondition(range.lowerBound >= 0 && range.upperBound <= utf16Count, "entity range outside the text")
        parts.appendEntity(TextEntity(range: range, kind: kind, value: value))
    }

    /// Covers `start..<end`, appended text: the empty text's one empty run becomes it, a last run
    /// with the same attributes grows over it, else a new run starts.
    fileprivate static func extend(
        _ first: inout AttributeRun, _ parts: inout TextParts?, from start: Int, to end: Int, attributes: TextAttributes
    ) {
        let more = parts.runCount
        if more == 0 {
            if first.range.isEmpty {
                first = AttributeRun(range: 0..<end, attributes: attributes)
            } else if first.attributes == attributes {
                first.range = first.range.lowerBound..<end
            } else {
                if parts == nil { parts = TextParts.make(runs: 1, objects: 0, entities: 0) }
                parts.appendRun(AttributeRun(range: start..<end, attributes: attributes))
            }
            return
        }
        if parts.unsafelyUnwrapped.runs[more - 1].attributes == attributes {
            parts.extendLastRun(to: end)
        } else {
            parts.appendRun(AttributeRun(range: start..<end, attributes: attributes))
        }
    }
}

/// Tab stops of a paragraph. A tab's width depends on where it lands on its line: it advances the
/// pen to the next stop, measured from the start of the line, so line fitting places it.
public enum TabStops: Hashable, Sendable {
    /// A stop every `count` widths of the space of the paragraph's base font (its first run's face
    /// and size), and a tab advances at least one space width: Pango's default tab array
    /// (`count` = 8). The space width is taken in Pango units (1/1024 pt), as Pango measures it.
    /// A `count` below 1 is taken as 1.
    case spaces(Int)
    /// A stop every `interval` points; a tab advances to the first stop after the pen (Pango's
    /// rule for explicit tab positions). A non-finite or non-positive interval is taken as
    /// `.pango`.
    case points(Double)

    /// Pango's default: `.spaces(8)`.
    public static let pango = TabStops.spaces(8)
}

extension AttributedText {
    /// Plain text in one style.
    public init(_ string: String, size: Double, weight: FontWeight = .regular, role: TextRole = .plain) {
        self.init(string, attributes: TextAttributes(size: size, weight: weight, role: role))
    }
}

/// Builds an attributed text from pieces of UTF-8, decoded as they are appended into one block of
/// UTF-16 code units: what the measurer reads. A text prepared from its builder
/// (`TextMeasuring.prepareUncached(built:)`) is decoded once, and no string or parts object is
/// made for it; `finish` makes the `AttributedText`.
///
/// The result is the value that the same sequence of `AttributedText.append`, `appendAttachment`
/// and `addEntity` calls would give (runs merged the same way, the same offsets).
package struct AttributedTextBuilder {
    private var buffers: Buffers
    /// The units' block (owned by `buffers.units`), its capacity, and the units written.
    private var base: UnsafeMutablePointer<UInt16>
    private var capacity: Int
    package private(set) var count: Int
    private var firstRun: AttributeRun
    private let tabStops: TabStops

    /// The builder's storage: a block of UTF-16 units, and a parts object for the runs after the
    /// first, the inline objects and the entities. A caller that builds many texts lends the
    /// same buffers to each builder and takes them back emptied (`finish(returning:)`,
    /// `release(returning:)`), so that a text allocates nothing once they have grown to fit.
    /// (A parts object is emptied by deinitializing its elements; three arrays cost 300
    /// instructions more per text, each emptied through `replaceSubrange`.)
    package struct Buffers {
        fileprivate var units: UnitBlock?
        fileprivate var parts: TextParts?
        package init() {}

        /// Empties the buffers, keeping their capacities.
        package mutating func removeAll() {
            parts?.removeAll()
        }

        /// The largest capacity of the buffers in elements, for callers that drop buffers a long
        /// text grew.
        package var largestCapacity: Int { max(units?.capacity ?? 0, parts?.largestCapacity ?? 0) }
    }
}

extension AttributedTextBuilder {
    /// - Parameters:
    ///   - attributes: the attributes of the empty text (its one empty run) until something is appended.
    ///   - capacity: the expected length in UTF-8 bytes.
    package init(attributes: TextAttributes, capacity: Int) {
        self.init(attributes: attributes, capacity: capacity, buffers: Buffers(), runs: 1, attachments: 0, entities: 0)
    }

    /// A builder writing into the lent `buffers` (emptied here), each reserved at the given
    /// capacity, so that a caller that knows the final counts (or bounds of them) grows no
    /// buffer while the text is built. The counts are capacities, not limits.
    /// - Parameters:
    ///   - capacity: the expected length in UTF-8 bytes (a bound of the UTF-16 length).
    ///   - runs: attribute runs; attachments: inline objects; entities: marked ranges.
    package init(
        attributes: TextAttributes, capacity: Int, buffers: consuming Buffers, runs runCount: Int, attachments attachmentCount: Int,
        entities entityCount: Int
    ) {
        var storage = consume buffers
        storage.removeAll()
        let units: UnitBlock
        if let lent = storage.units {
            lent.grow(to: capacity, keeping: 0)
            units = lent
        } else {
            units = UnitBlock(capacity: capacity)
            storage.units = units
        }
        if runCount > 1 || attachmentCount > 0 || entityCount > 0 {
            _ = storage.parts.reserving(runs: max(0, runCount - 1), objects: max(0, attachmentCount), entities: max(0, entityCount))
        }
        // Made by the memberwise initializer (see the note above `AttributedText.init`).
        self = AttributedTextBuilder(
            buffers: storage, base: units.base, capacity: units.capacity, count: 0,
            firstRun: AttributeRun(range: 0..<0, attributes: attributes), tabStops: .pango)
    }
}

extension AttributedTextBuilder {
    /// Makes room for `more` units after the text.
    @inline(__always) private mutating func reserve(more: Int) {
        if count &+ more > capacity { grow(count + more) }
    }

    private mutating func grow(_ needed: Int) {
        guard let units = buffers.units else { preconditionFailure("append to a released builder") }
        units.grow(to: needed, keeping: count)
        base = units.base
        capacity = units.capacity
    }

    /// Appends UTF-8 that is valid and whole (it starts and ends at scalar boundaries), decoded
    /// into the text's UTF-16 units.
    /// - Returns: the UTF-16 range of the appended text.
    @discardableResult
    package mutating func append(utf8 piece: UnsafeBufferPointer<UInt8>, attributes: TextAttributes) -> Range<Int> {
        reserve(more: piece.count)
        let n = UTF16Transcoding.decode(piece, into: base + count)
        return extend(by: n, attributes)
    }

    @discardableResult
    package mutating func append(_ string: String, attributes: TextAttributes) -> Range<Int> {
        StringBytes.withUTF8(string) { append(utf8: $0, attributes: attributes) }
    }

    /// `first` then `second` in the same attributes, as one append of their concatenation (no
    /// concatenated string is made).
    @discardableResult
    package mutating func append(_ first: String, _ second: String, attributes: TextAttributes) -> Range<Int> {
        let start = count
        append(first, attributes: attributes)
        return start..<append(second, attributes: attributes).upperBound
    }

    /// An inline object on one U+FFFC (as `AttributedText.appendAttachment`).
    @discardableResult
    package mutating func appendAttachment(
        width: Double, ascent: Double, descent: Double, name: String, attributes: TextAttributes
    ) -> Range<Int> {
        reserve(more: 1)
        base[count] = 0xFFFC
        let range = extend(by: 1, attributes)
        buffers.parts.appendObject(InlineObject(offset: range.lowerBound, width: width, ascent: ascent, descent: descent, name: name))
        return range
    }

    /// - Precondition: the range lies inside the text so far.
    package mutating func addEntity(_ kind: EntityKind, range: Range<Int>, value: String) {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "entity range outside the text")
        buffers.parts.appendEntity(TextEntity(range: range, kind: kind, value: value))
    }

    /// The count and runs after `n` units were written after the text (as `AttributedText.append`).
    private mutating func extend(by n: Int, _ attributes: TextAttributes) -> Range<Int> {
        let start = count
        guard n > 0 else { return start..<start }
        count = start + n
        AttributedText.extend(&firstRun, &buffers.parts, from: start, to: start + n, attributes: attributes)
        return start..<start + n
    }

    /// `body` on the text built so far, read in place.
    package func withContent<R>(_ body: (TextContent) -> R) -> R {
        withExtendedLifetime(buffers) {
            body(
                TextContent(
                    utf16: UnsafeBufferPointer(start: base, count: count), firstRun: firstRun, parts: buffers.parts, tabStops: tabStops))
        }
    }

    package consuming func finish() -> AttributedText {
        var buffers = Buffers()
        return finish(returning: &buffers)
    }

    /// The text, as an `AttributedText`; the buffers are handed back emptied (their capacities
    /// kept) in `buffers` (see `release(returning:)`).
    package mutating func finish(returning buffers: inout Buffers) -> AttributedText {
        let made = withContent { AttributedText(content: $0) }
        release(returning: &buffers)
        return made
    }

    /// Hands the builder's buffers back (emptied, their capacities kept) in `buffers`, after the
    /// text was read with `withContent`. The builder is done: it is left with what `buffers`
    /// held, and MUST NOT be appended to again.
    package mutating func release(returning buffers: inout Buffers) {
        // Swapped, not copied: the builder holds no second reference to the objects.
        swap(&buffers, &self.buffers)
        buffers.removeAll()
        firstRun = AttributeRun(range: 0..<0, attributes: firstRun.attributes)
        count = 0
        capacity = 0
    }
}

// The initializers of `AttributedText` and `AttributedTextBuilder` are declared in extensions and
// make the value with the memberwise initializer (`self = Self(field: …)`). An initializer that
// sets the fields of a struct holding an optional reference one by one built it in a temporary
// and copied it out, retaining and releasing each of its references (Swift 6.3; the memberwise
// initializer builds it in place): about 100 instructions per text made, 0.9 % of a cold cell.
extension AttributedText {
    public init(_ string: String = "", attributes: TextAttributes) {
        let count = string.utf16.count
        self = AttributedText(
            string: string, utf16Count: count, firstRun: AttributeRun(range: 0..<count, attributes: attributes), parts: nil)
    }

    /// The text with these fields (`init(content:)`).
    static func make(string: String, utf16Count: Int, firstRun: AttributeRun, parts: TextParts?, tabStops: TabStops) -> AttributedText {
        AttributedText(string: string, utf16Count: utf16Count, firstRun: firstRun, parts: parts, tabStops: tabStops)
    }
}
