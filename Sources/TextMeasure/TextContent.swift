import FeedLayoutSupport

/// The content of an attributed text, read in place: its UTF-16 code units, its runs, inline
/// objects and entities, wherever they are stored (an `AttributedText`'s parts and its string
/// decoded by the caller, a builder's buffers, a prepared text's object).
///
/// What the measurer reads, and what a prepared text copies into its own object: a text built
/// from pieces (`AttributedTextBuilder`) is prepared from its builder's buffers, with no string
/// or parts object made for it.
///
/// The pointers are borrowed: valid only inside the `withContent` call that lends the value.
package struct TextContent {
    /// The text's UTF-16 code units (a valid string's).
    package let utf16: UnsafeBufferPointer<UInt16>
    /// The first run (the base attributes), then the others.
    package let firstRun: AttributeRun
    package let moreRuns: UnsafeBufferPointer<AttributeRun>
    package let objects: UnsafeBufferPointer<InlineObject>
    package let entities: UnsafeBufferPointer<TextEntity>
    package let tabStops: TabStops

    /// The attribute runs, sorted, contiguous and covering the text.
    var runs: AttributedText.Runs {
        AttributedText.Runs(first: firstRun, owner: nil, rest: moreRuns.baseAddress, count: 1 + moreRuns.count)
    }
    /// The inline objects, in text order.
    var attachments: AttributedText.Attachments {
        AttributedText.Attachments(owner: nil, base: objects.baseAddress, count: objects.count)
    }
    /// Attributes of the first run: the paragraph's base font.
    var baseAttributes: TextAttributes { firstRun.attributes }
    package var utf16Count: Int { utf16.count }
    /// The text's string.
    package var string: String { UTF16Transcoding.string(utf16) }
}

extension AttributedText {
    /// `body` on the text's content, its string decoded into a temporary array.
    package func withContent<R>(_ body: (TextContent) -> R) -> R {
        let units = Array(string.utf16)
        return units.withUnsafeBufferPointer { withContent(units: $0, body) }
    }

    /// `body` on the text's content, with `units`: the caller's decoding of the string (the
    /// measurer decodes into its thread's buffer).
    /// - Precondition: `units` are the string's UTF-16 code units.
    package func withContent<R>(units: UnsafeBufferPointer<UInt16>, _ body: (TextContent) -> R) -> R {
        precondition(units.count == utf16Count, "units of another text")
        let parts = partsObject
        return withExtendedLifetime(parts) {
            body(TextContent(utf16: units, firstRun: runs[0], parts: parts, tabStops: tabStops))
        }
    }

    /// A text with a copy of `content` (its string made from the bytes, its parts object made
    /// when it has more than one run, an object or an entity).
    package init(content: TextContent) {
        let string = content.string
        var parts: TextParts?
        if !content.moreRuns.isEmpty || !content.objects.isEmpty || !content.entities.isEmpty {
            let made = TextParts.make(runs: content.moreRuns.count, objects: content.objects.count, entities: content.entities.count)
            made.fill(runs: content.moreRuns, objects: content.objects, entities: content.entities)
            parts = made
        }
        self = AttributedText.make(
            string: string, utf16Count: content.utf16Count, firstRun: content.firstRun, parts: parts, tabStops: content.tabStops)
    }
}

extension TextContent {
    /// The content of `utf16` and `firstRun` then the elements of `parts` (held by the caller).
    init(utf16: UnsafeBufferPointer<UInt16>, firstRun: AttributeRun, parts: TextParts?, tabStops: TabStops) {
        self.init(
            utf16: utf16, firstRun: firstRun,
            moreRuns: UnsafeBufferPointer(start: parts.map { UnsafePointer($0.runs) }, count: parts.runCount),
            objects: UnsafeBufferPointer(start: parts.map { UnsafePointer($0.objects) }, count: parts.objectCount),
            entities: UnsafeBufferPointer(start: parts.map { UnsafePointer($0.entities) }, count: parts.entityCount),
            tabStops: tabStops)
    }
}

extension TextParts {
    /// Empties the object, keeping its capacities (it is not shared: a builder's own).
    func removeAll() {
        let c = counts.pointee
        objects.deinitialize(count: c.objects)
        entities.deinitialize(count: c.entities)
        counts.pointee.runs = 0
        counts.pointee.objects = 0
        counts.pointee.entities = 0
    }

    /// The largest of the three capacities.
    var largestCapacity: Int {
        let c = counts.pointee
        return max(c.runCapacity, c.objectCapacity, c.entityCapacity)
    }

    /// Copies the elements into an empty object with room for them.
    func fill(runs r: UnsafeBufferPointer<AttributeRun>, objects o: UnsafeBufferPointer<InlineObject>, entities e: UnsafeBufferPointer<TextEntity>) {
        if let base = r.baseAddress { runs.initialize(from: base, count: r.count) }
        if let base = o.baseAddress { objects.initialize(from: base, count: o.count) }
        if let base = e.baseAddress { entities.initialize(from: base, count: e.count) }
        counts.pointee.runs = r.count
        counts.pointee.objects = o.count
        counts.pointee.entities = e.count
    }
}
