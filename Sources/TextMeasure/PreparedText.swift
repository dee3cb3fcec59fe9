import FeedLayoutSupport
internal import CPrefetch
import Synchronization

/// Prepared text: everything about a text that does not depend on the width.
///
/// `TextMeasuring.prepare` segments, itemizes and shapes once; `layout(width:options:)` is
/// arithmetic over the stored cluster advances (no shaping, no font access), so laying out the
/// same prepared text at another width costs a few nanoseconds per cluster and gives exactly the
/// lines a fresh prepare + layout gives.
///
/// Storage is one object (`PreparedStorage`): the text's fields in its header, then two words its
/// holders may keep caches in, then 16-byte records, the clusters followed by the line-end
/// corrections, then the source text (its UTF-16, runs, inline objects and entities), made at
/// their exact size when the text is finished. A copy of the value retains that one object. A
/// cluster is a grapheme cluster (or an inline object): the unit that is never split across
/// lines. Thread-safety: an immutable value, safe to share across threads (checked
/// by hand: `ManagedBuffer` is not `Sendable`; the object is written only while it is made, and
/// its holder words only atomically).
public struct PreparedText: @unchecked Sendable {
    /// The text's one object.
    package let storage: PreparedStorage

    init(storage: PreparedStorage) { self.storage = storage }

    /// The fields, read in place in the object's header (the arrays and the text are yielded,
    /// not copied: a copy retains each array it holds).
    @inline(__always) private var fields: UnsafeMutablePointer<PreparedFields> { storage.fields }

    /// The source text, made from the copy in the text's object on each read (a string, and a
    /// parts object when the text has more than one run, an object or an entity). Readers of
    /// one part read it in place: `runs`, `attachments`, `entities`, `utf16Count`, `withContent`.
    public var text: AttributedText { withContent { AttributedText(content: $0) } }

    /// `body` on the source text, read in place in the text's object.
    package func withContent<R>(_ body: (TextContent) -> R) -> R {
        withExtendedLifetime(storage) { body(storage.content) }
    }

    /// The source text's UTF-16 length.
    package var utf16Count: Int { fields.pointee.utf16Count }
    /// The source text's attribute runs, in place.
    package var runs: AttributedText.Runs {
        AttributedText.Runs(
            first: fields.pointee.firstRun, owner: storage, rest: UnsafePointer(storage.textRuns),
            count: 1 + Int(fields.pointee.moreRunCount))
    }
    /// The source text's inline objects, in place.
    package var attachments: AttributedText.Attachments {
        AttributedText.Attachments(owner: storage, base: UnsafePointer(storage.textObjects), count: attachmentCount)
    }
    /// The source text's entities, in place.
    package var entities: AttributedText.Entities {
        AttributedText.Entities(owner: storage, base: UnsafePointer(storage.textEntities), count: entityCount)
    }
    /// Attributes of the source text's first run: the paragraph's base font.
    package var baseAttributes: TextAttributes { fields.pointee.firstRun.attributes }
    /// The source text's string (made on each read).
    package var string: String { withContent { $0.string } }
    /// `body` on the source text's UTF-16 code units, in place.
    package func withUTF16<R>(_ body: (UnsafeBufferPointer<UInt16>) -> R) -> R { withContent { body($0.utf16) } }
    /// The distinct (font, size) pairs of the text, with their vertical metrics. Entry 0 is the
    /// paragraph's base font, used for empty lines.
    package var runFonts: [RunFont] { _read { yield fields.pointee.runFonts } }
    /// Glyphs, kept only when the measurer was asked to retain them (for rendering).
    package var glyphs: GlyphStorage? { _read { yield fields.pointee.glyphs } }
    /// Sum of the cluster advances and number of hard breaks (to size the lines array of a layout).
    package var totalAdvance: Double { fields.pointee.totalAdvance }
    package var hardBreakCount: Int32 { fields.pointee.hardBreakCount }
    /// Code points no font of the cascade covers (measured as the primary font's .notdef).
    public var missingGlyphCount: Int { fields.pointee.missingGlyphCount }
    /// The text's tab stops in points (`TabStops` resolved with the base font): the distance
    /// between stops and the least advance of a tab. 0 when the text has no tab.
    package var tabInterval: Double { fields.pointee.tabInterval }
    package var tabMinimum: Double { fields.pointee.tabMinimum }

    /// Where line fitting finds each cluster's advance: a tab's depends on its position on the line.
    var advances: TabAdvances { TabAdvances(interval: tabInterval, minimum: tabMinimum) }

    /// The records: clusters, then line-end corrections.
    @inline(__always) private var records: UnsafeMutablePointer<Cluster> { storage.records }
    private var storedClusterCount: Int { fields.pointee.clusterCount }
    private var recordCount: Int { fields.pointee.recordCount }

    /// The clusters, in text order.
    package var clusters: PreparedRecords { PreparedRecords(storage: storage, start: 0, count: storedClusterCount) }

    /// Cluster `i` (`0 <= i < clusterCount`).
    @inline(__always) package func cluster(_ i: Int) -> Cluster {
        precondition(i >= 0 && i < storedClusterCount, "cluster index out of range")
        return records[i]
    }

    /// Sparse corrections of a line's width when it ends after a cluster inside a shaped word
    /// (the kerning between that cluster and the next one is dropped), sorted by cluster: a
    /// record per correction, the cluster's index in `end` and the delta in points in `advance`.
    var lineEndCorrections: PreparedRecords {
        PreparedRecords(storage: storage, start: storedClusterCount, count: recordCount - storedClusterCount)
    }

    /// Whether the text has any line-end correction.
    var hasLineEndCorrections: Bool { recordCount > storedClusterCount }

    /// Whether some cluster is a no-break space (`ClusterFlags.white`).
    var hasNoBreakSpaces: Bool { fields.pointee.hasNoBreakSpaces }

    /// Makes each one-unit cluster of a no-break space (U+00A0, U+2007, U+202F) hang, as white
    /// space (`ClusterFlags.white`), in a text just prepared (not yet shared) whose measuring
    /// found one (`PreparedTextBuilder.noteShaped`): they are measured as any other character,
    /// in the word they join, and only line fitting treats them as white. A line that ends after
    /// one loses none of its kerning with the next cluster (Pango leaves the space out there):
    /// its line-end correction goes.
    @inline(__always)
    func markNoBreakSpaces() {
        if hasNoBreakSpaces { markFoundNoBreakSpaces() }
    }

    /// `markNoBreakSpaces` of a text that has one: out of line, few texts do.
    @inline(never)
    private func markFoundNoBreakSpaces() {
        let r = records, units = storage.textUnits, count = storedClusterCount
        var start = 0
        for i in 0..<count {
            let end = Int(r[i].end)
            if end == start + 1 && TextMeasurer.isNoBreakSpace(units[start]) {
                r[i].flags |= ClusterFlags.hanging | ClusterFlags.white
            }
            start = end
        }
        var kept = count
        for k in count..<recordCount where r[Int(r[k].end)].flags & ClusterFlags.white == 0 {
            r[kept] = r[k]
            kept += 1
        }
        fields.pointee.recordCount = kept
    }

    /// The width correction when a line ends after cluster `i` (0 for most clusters).
    /// - Complexity: O(log k) over the k corrections.
    @inline(__always) func lineEndCorrection(after i: Int) -> Double {
        let total = recordCount
        var lo = storedClusterCount, hi = total
        guard lo < hi else { return 0 }
        let r = records
        while lo < hi {
            let mid = (lo + hi) >> 1
            if Int(r[mid].end) < i { lo = mid + 1 } else { hi = mid }
        }
        return lo < total && Int(r[lo].end) == i ? r[lo].advance : 0
    }

    /// Number of clusters.
    public var clusterCount: Int { storedClusterCount }

    /// UTF-16 range of cluster `i`.
    package func utf16Range(ofCluster i: Int) -> Range<Int> {
        (i == 0 ? 0 : Int(cluster(i - 1).end))..<Int(cluster(i).end)
    }

    /// Width of cluster `i` in points. A tab's width depends on where it lands on a line (see
    /// `TabStops`; `TextLayout.clusterPositions` places it): this is its least width.
    package func advance(ofCluster i: Int) -> Double { cluster(i).advance }

    /// True when cluster `i` is a tab.
    package func isTab(_ i: Int) -> Bool { cluster(i).flags & ClusterFlags.tab != 0 }

    /// True when cluster `i` is an inline object.
    package func isAttachment(_ i: Int) -> Bool { cluster(i).flags & ClusterFlags.attachment != 0 }

    /// True when cluster `i` hangs at a line end (a space or a line separator).
    package func isHanging(_ i: Int) -> Bool { cluster(i).flags & ClusterFlags.hanging != 0 }
    /// Whether cluster `i` is a no-break space, white space that hangs but where a paragraph ends
    /// (`ClusterFlags.white`).
    package func isWhite(_ i: Int) -> Bool { cluster(i).flags & ClusterFlags.white != 0 }

    /// The font and size cluster `i` was measured with.
    package func font(ofCluster i: Int) -> RunFont { runFonts[Int(cluster(i).fontRef)] }

    /// The index of the cluster that contains UTF-16 offset `offset` (or `clusterCount` at the end).
    /// - Complexity: O(log n).
    package func cluster(containing offset: Int) -> Int {
        var lo = 0, hi = storedClusterCount
        let r = records
        while lo < hi {
            let mid = (lo + hi) >> 1
            if Int(r[mid].end) <= offset { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The text's inline objects and entities, counted in place (`text.attachments.count` and
    /// `text.entities.count` without a copy of the text).
    package var attachmentCount: Int { Int(fields.pointee.objectCount) }
    package var entityCount: Int { Int(fields.pointee.entityCount) }

    /// Approximate bytes held by this value (for cache budgets).
    public var residentBytes: Int { fields.pointee.residentBytes }

    /// What a holder sizes its caches by, read in one call (each accessor alone is a call from
    /// another module).
    package struct Sizes {
        package let residentBytes: Int
        package let clusterCount: Int
        package let entityCount: Int
        package let attachmentCount: Int
        package let hardBreakCount: Int
        package let totalAdvance: Double
    }

    package var sizes: Sizes {
        let f = fields
        return Sizes(
            residentBytes: f.pointee.residentBytes, clusterCount: f.pointee.clusterCount, entityCount: Int(f.pointee.entityCount),
            attachmentCount: Int(f.pointee.objectCount), hardBreakCount: Int(f.pointee.hardBreakCount),
            totalAdvance: f.pointee.totalAdvance)
    }

    /// The words kept with the text for its holders' caches (`PreparedStorage.holderWords`).
    package var holderWords: UnsafeMutablePointer<Atomic<UInt>> { storage.holderWords }

    /// The address of the text's object (its fields), for prefetching while the text is held.
    package var objectAddress: UInt { UInt(bitPattern: Unmanaged.passUnretained(storage).toOpaque()) }

    /// True when both values are the same prepared text (one object), not only equal ones.
    package func isSameStorage(as other: PreparedText) -> Bool { storage === other.storage }
}

/// The fields of a prepared text, in the header of its one object.
package struct PreparedFields {
    /// The source text's fields. Its bytes, runs after the first, inline objects and entities
    /// are in the object's tail, after the records (`PreparedStorage`), with these counts.
    var utf16Count: Int
    var firstRun: AttributeRun
    var tabStops: TabStops
    var moreRunCount: Int32 = 0
    var objectCount: Int32 = 0
    var entityCount: Int32 = 0
    /// How many of the records are clusters, and how many records there are.
    var clusterCount = 0
    var recordCount = 0
    var runFonts: [RunFont] = []
    var glyphs: GlyphStorage?
    var totalAdvance = 0.0
    var hardBreakCount: Int32 = 0
    var missingGlyphCount = 0
    var tabInterval = 0.0
    var tabMinimum = 0.0
    /// `PreparedText.residentBytes`, computed once when the text is finished.
    var residentBytes = 0
    /// Some ASCII digit was measured by shaping (HarfBuzz or the shaped-word cache), not from a
    /// face's tables: the text is no template for `TextMeasurer.substitutingDigits`.
    var shapedDigits = false
    /// Some cluster is a no-break space (`ClusterFlags.white`): only then does line fitting look
    /// for one at a line's end.
    var hasNoBreakSpaces = false

    init(utf16Count: Int, firstRun: AttributeRun, tabStops: TabStops) {
        self.utf16Count = utf16Count
        self.firstRun = firstRun
        self.tabStops = tabStops
    }
}

/// The one object of a prepared text: `PreparedFields` in the header; in the tail, the holder
/// words (two `Atomic<UInt>` in the first 16-byte element), then the records, then the source
/// text: its runs after the first, its inline objects, its entities and its UTF-16 units, each
/// region right after the one before (all strides are multiples of 8).
///
/// The holder words are for caches that a holder of the text keeps with it (the cell layout's
/// kept layout and placement): each is 0, 1, or the address of an object retained for the
/// word, which this object releases when it is freed. (A subclass of `ManagedBuffer` has no
/// stored properties of its own, and its header must be copyable: the atomics live in the tail.)
package final class PreparedStorage: ManagedBuffer<PreparedFields, Cluster> {
    /// Makes the object of a text with `fields`, the records `clusters` then `corrections`, and
    /// a copy of the source text `content` (whose first run, UTF-16 count and tab stops are
    /// already in `fields`).
    static func make(
        _ fields: consuming PreparedFields, _ clusters: UnsafeBufferPointer<Cluster>, _ corrections: UnsafeBufferPointer<Cluster>,
        _ content: TextContent
    ) -> PreparedStorage {
        var fields = consume fields
        fields.clusterCount = clusters.count
        fields.recordCount = clusters.count + corrections.count
        fields.moreRunCount = Int32(content.moreRuns.count)
        fields.objectCount = Int32(content.objects.count)
        fields.entityCount = Int32(content.entities.count)
        fields.residentBytes =
            64 + (1 + fields.recordCount) * MemoryLayout<Cluster>.stride + fields.runFonts.count * 48 + fields.utf16Count * 2
            + (fields.glyphs?.residentBytes ?? 0)
        let textBytes =
            content.moreRuns.count * MemoryLayout<AttributeRun>.stride + content.objects.count * MemoryLayout<InlineObject>.stride
            + content.entities.count * MemoryLayout<TextEntity>.stride + content.utf16.count * 2
        let total = 1 + fields.recordCount + (textBytes + MemoryLayout<Cluster>.stride - 1) / MemoryLayout<Cluster>.stride
        // Moved into the header, not copied (a copy retains each array the fields hold).
        var moving: PreparedFields? = consume fields
        let made = unsafeDowncast(create(minimumCapacity: total) { _ in moving.take().unsafelyUnwrapped }, to: PreparedStorage.self)
        made.withUnsafeMutablePointerToElements { e in
            let words = UnsafeMutableRawPointer(e).bindMemory(to: Atomic<UInt>.self, capacity: 2)
            words.initialize(to: Atomic(0))
            (words + 1).initialize(to: Atomic(0))
            let r = e + 1
            // (Empty regions are skipped: lent buffers have an address even when empty, and a
            // copy of nothing still calls `memcpy`.)
            if !clusters.isEmpty { r.initialize(from: clusters.baseAddress!, count: clusters.count) }
            if !corrections.isEmpty { (r + clusters.count).initialize(from: corrections.baseAddress!, count: corrections.count) }
        }
        if !content.moreRuns.isEmpty { made.textRuns.initialize(from: content.moreRuns.baseAddress!, count: content.moreRuns.count) }
        if !content.objects.isEmpty { made.textObjects.initialize(from: content.objects.baseAddress!, count: content.objects.count) }
        if !content.entities.isEmpty {
            made.textEntities.initialize(from: content.entities.baseAddress!, count: content.entities.count)
        }
        if !content.utf16.isEmpty { made.textUnits.initialize(from: content.utf16.baseAddress!, count: content.utf16.count) }
        return made
    }

    /// A new object with this one's fields and records, and the text `content` (which has this
    /// text's length, runs, objects, entities and tab stops).
    func copy(with content: TextContent) -> PreparedStorage {
        let f = fields.pointee, clusterCount = f.clusterCount
        return PreparedStorage.make(
            f, UnsafeBufferPointer(start: records, count: clusterCount),
            UnsafeBufferPointer(start: records + clusterCount, count: f.recordCount - clusterCount), content)
    }

    deinit {
        textObjects.deinitialize(count: Int(fields.pointee.objectCount))
        textEntities.deinitialize(count: Int(fields.pointee.entityCount))
        let words = holderWords
        for i in 0..<2 {
            let w = words[i].load(ordering: .acquiring)
            if w > 1 { Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: w).unsafelyUnwrapped).release() }
        }
        words.deinitialize(count: 2)
    }

    /// The header's fields (the object does not move).
    @inline(__always) var fields: UnsafeMutablePointer<PreparedFields> {
        withUnsafeMutablePointerToHeader { $0 }
    }

    /// The two holder words.
    @inline(__always) var holderWords: UnsafeMutablePointer<Atomic<UInt>> {
        withUnsafeMutablePointerToElements { UnsafeMutableRawPointer($0).assumingMemoryBound(to: Atomic<UInt>.self) }
    }

    /// The first record.
    @inline(__always) var records: UnsafeMutablePointer<Cluster> {
        withUnsafeMutablePointerToElements { $0 + 1 }
    }

    /// The source text's regions, after the records: runs after the first, inline objects,
    /// entities, UTF-16 units.
    @inline(__always) var textRuns: UnsafeMutablePointer<AttributeRun> {
        UnsafeMutableRawPointer(records + fields.pointee.recordCount).assumingMemoryBound(to: AttributeRun.self)
    }
    @inline(__always) var textObjects: UnsafeMutablePointer<InlineObject> {
        UnsafeMutableRawPointer(textRuns + Int(fields.pointee.moreRunCount)).assumingMemoryBound(to: InlineObject.self)
    }
    @inline(__always) var textEntities: UnsafeMutablePointer<TextEntity> {
        UnsafeMutableRawPointer(textObjects + Int(fields.pointee.objectCount)).assumingMemoryBound(to: TextEntity.self)
    }
    @inline(__always) var textUnits: UnsafeMutablePointer<UInt16> {
        UnsafeMutableRawPointer(textEntities + Int(fields.pointee.entityCount)).assumingMemoryBound(to: UInt16.self)
    }

    /// The source text, in place (valid while the object is held).
    var content: TextContent {
        let f = fields
        return TextContent(
            utf16: UnsafeBufferPointer(start: textUnits, count: f.pointee.utf16Count), firstRun: f.pointee.firstRun,
            moreRuns: UnsafeBufferPointer(start: textRuns, count: Int(f.pointee.moreRunCount)),
            objects: UnsafeBufferPointer(start: textObjects, count: Int(f.pointee.objectCount)),
            entities: UnsafeBufferPointer(start: textEntities, count: Int(f.pointee.entityCount)), tabStops: f.pointee.tabStops)
    }
}

/// A range of a prepared text's records (its clusters, or its line-end corrections), holding
/// the text's object. (Pointers into the object are used only while a method of the value that
/// holds it runs: the value keeps the object alive meanwhile.)
package struct PreparedRecords: RandomAccessCollection {
    // Made by `PreparedText` through the memberwise initializer (file-private, as these are).
    fileprivate let storage: PreparedStorage
    fileprivate let start: Int
    package let count: Int

    package var startIndex: Int { 0 }
    package var endIndex: Int { count }
    package subscript(i: Int) -> Cluster {
        precondition(i >= 0 && i < count, "record index out of range")
        return storage.records[start + i]
    }

    /// `body` on the records in place.
    @inline(__always)
    package func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Cluster>) -> R) -> R {
        body(UnsafeBufferPointer(start: storage.records + start, count: count))
    }
}

/// One cluster: its advance in points (0 for line separators), the UTF-16 offset where it ends
/// (it starts where the previous one ends), the index of its font in `runFonts`, and its flags.
package struct Cluster: Sendable, BitwiseCopyable {
    package var advance: Double
    package var end: Int32
    package var fontRef: UInt16
    package var flags: UInt8
}

/// Per-cluster flags.
package struct ClusterFlags {
    /// A line may break after this cluster (UAX #14).
    package static let breakAfter: UInt8 = 1
    /// A line must break after this cluster (a hard break character ends here).
    package static let mandatoryAfter: UInt8 = 2
    /// The cluster hangs at a line end: spaces, and line separators (whose advance is 0).
    package static let hanging: UInt8 = 4
    /// The cluster is an inline object.
    package static let attachment: UInt8 = 8
    /// The cluster is a hard line break character.
    package static let lineSeparator: UInt8 = 16
    /// The cluster is a tab: its advance is found on the line (`TabAdvances`); the stored one is
    /// its least advance.
    package static let tab: UInt8 = 32
    /// The cluster is a no-break space (U+00A0, U+2007, U+202F), which also hangs. Pango counts
    /// every space separator as white space: a line that wraps after one leaves it out of its
    /// width, and a break after one is tested without it. But where a paragraph ends (the text's
    /// end, a hard break) it stays in the line's width: only the white space that may end a
    /// line by a break (`hanging` alone) is left out there.
    package static let white: UInt8 = 64
}

/// How line fitting finds a cluster's advance from the pen position `x` on its line (from the
/// line start, hanging clusters included).
protocol AdvanceRule {
    func advance(_ c: Cluster, at x: Double) -> Double
    /// Whether the text may hold tabs (code for them is left out of the fitter otherwise).
    static var mayHaveTabs: Bool { get }
}

/// Texts without tabs: every advance is the stored one.
struct StoredAdvances: AdvanceRule {
    @inline(__always) func advance(_ c: Cluster, at x: Double) -> Double { c.advance }
    static var mayHaveTabs: Bool { false }
}

/// Texts with tabs: a tab advances the pen to the first stop (a multiple of `interval` from the
/// line start) at least `minimum` after it; other clusters take their stored advance.
struct TabAdvances: AdvanceRule {
    let interval: Double
    let minimum: Double
    static var mayHaveTabs: Bool { true }

    @inline(__always) func advance(_ c: Cluster, at x: Double) -> Double {
        c.flags & ClusterFlags.tab == 0 ? c.advance : tab(at: x)
    }

    /// The advance of a tab at pen position `x`.
    func tab(at x: Double) -> Double {
        guard interval > 0 else { return minimum }
        let target = x + minimum
        // Stops are compared with a tolerance far below a Pango unit (1/1024 pt), so that sums
        // of advances that land exactly on a stop count as on it.
        var stop = (target / interval).rounded(.down) * interval
        if stop < target - 1e-9 { stop += interval }
        return max(0, stop - x)
    }
}

/// Which face of the font cascade a run uses.
package enum FontSlot: UInt8, Hashable, Sendable, Codable {
    case primary, bold, emoji
    /// An inline object (not a font).
    case object
    /// The last face of the cascade (DejaVu Sans): characters the text and emoji faces lack.
    case fallback
}

/// A font at a size, with its vertical metrics in points (ascent and descent positive).
package struct RunFont: Hashable, Sendable {
    package var slot: FontSlot {
        get { FontSlot(rawValue: UInt8(truncatingIfNeeded: slotWord)).unsafelyUnwrapped }
        set { slotWord = UInt64(newValue.rawValue) }
    }
    package var size: Double
    package var ascent: Double
    package var descent: Double
    /// The slot's raw value in a whole word: a one-byte field would leave seven bytes of padding,
    /// which the compiler copies as two overlapping 4-byte moves wherever a `RunFont` is carried
    /// around a loop (the measurer's cluster loop stalled on the store forwarding of those moves:
    /// ~12 % of its time).
    private var slotWord: UInt64

    package init(slot: FontSlot, size: Double, ascent: Double, descent: Double) {
        slotWord = UInt64(slot.rawValue)
        self.size = size
        self.ascent = ascent
        self.descent = descent
    }
}

/// Shaped glyphs of a prepared text, for renderers: each glyph belongs to a cluster and is
/// positioned relative to that cluster's pen position.
package struct GlyphStorage: Sendable, Equatable {
    package var glyphID: [UInt32] = []
    package var cluster: [Int32] = []
    /// Offsets from the pen position in points (y up, as in fonts).
    package var xOffset: [Float] = []
    package var yOffset: [Float] = []
    /// Advance of each glyph in points.
    package var xAdvance: [Float] = []
    package init() {}
    var residentBytes: Int { glyphID.count * 20 }
}

/// Builds a `PreparedText` cluster by cluster. Measurers (the real one and test fakes) use it, so
/// both produce values the same layout code reads.
///
/// Clusters and line-end corrections are written in place into two growable blocks (the real
/// measurer lends its thread's blocks, so a text allocates nothing while it is built), and are
/// copied into the prepared text's one array, at its exact size, when it is finished: an
/// append is a store (where an array append checks uniqueness and capacity each time), and the
/// corrections cost no allocation of their own. A builder is finished once (`finish` or
/// `take`); a copy of one MUST NOT be finished as well (its blocks would be freed twice).
package struct PreparedTextBuilder {
    /// The fields of the text being built (its records are in the blocks until it is finished).
    private var prepared: PreparedFields
    /// The clusters so far (`count` of them) and the corrections (`correctionCount`).
    private var built: ScratchBuffer<Cluster>
    private var count = 0
    private var corrections: ScratchBuffer<Cluster>
    private var correctionCount = 0
    /// The blocks are the builder's own (freed when it finishes), not lent.
    private let ownsBlocks: Bool
    /// The run fonts while they fit in place (a text rarely uses more than
    /// `InlineRunFonts.capacity`); after that, all of them are in `prepared.runFonts`. (No other
    /// field needs releasing, so that the finished text is moved out of the builder, not copied.)
    private var inlineFonts: InlineRunFonts
    private var fontCount = 1
    private var lastRef: UInt16 = 0
    /// The font of index `lastRef`, kept here so that the common case (the same font as the
    /// last cluster) reads no list.
    private var lastFont: RunFont

    /// Starts a prepared text whose empty lines use `baseFont`'s metrics.
    package init(text: AttributedText, baseFont: RunFont) {
        self.init(
            utf16Count: text.utf16Count, firstRun: text.runs[0], tabStops: text.tabStops, baseFont: baseFont,
            clusters: ScratchBuffer(capacity: text.utf16Count), corrections: ScratchBuffer(capacity: 16), ownsBlocks: true)
    }

    /// A builder of the text `content` writing into blocks lent by the caller, handed back by
    /// `take(content:returning:_:)` (grown when the text needed more room).
    init(content: TextContent, baseFont: RunFont, clusters: ScratchBuffer<Cluster>, corrections: ScratchBuffer<Cluster>) {
        self.init(
            utf16Count: content.utf16Count, firstRun: content.firstRun, tabStops: content.tabStops, baseFont: baseFont,
            clusters: clusters, corrections: corrections, ownsBlocks: false)
    }

    private init(
        utf16Count: Int, firstRun: AttributeRun, tabStops: TabStops, baseFont: RunFont,
        clusters: ScratchBuffer<Cluster>, corrections: ScratchBuffer<Cluster>, ownsBlocks: Bool
    ) {
        prepared = PreparedFields(utf16Count: utf16Count, firstRun: firstRun, tabStops: tabStops)
        built = clusters
        // A cluster holds at least one code unit (an inline object holds its U+FFFC).
        built.reserve(utf16Count)
        self.corrections = corrections
        self.ownsBlocks = ownsBlocks
        inlineFonts = InlineRunFonts(baseFont)
        lastFont = baseFont
    }

    /// Stores `c` after the clusters so far.
    @inline(__always) private mutating func push(_ c: Cluster) {
        if count == built.capacity { built.reserve(count + 1, keeping: count) }
        built[count] = c
        count += 1
    }

    /// True once the fonts are in `prepared.runFonts`.
    private var spilled: Bool { fontCount > InlineRunFonts.capacity }

    /// The index of `font` in `runFonts` (texts use a handful of fonts: a linear search).
    @inline(__always)
    private mutating func ref(_ font: RunFont) -> UInt16 {
        if lastFont == font { return lastRef }
        return refSlow(font)
    }

    private mutating func refSlow(_ font: RunFont) -> UInt16 {
        var found = -1
        if spilled {
            found = prepared.runFonts.firstIndex(of: font) ?? -1
        } else {
            for i in 0..<fontCount where inlineFonts[i] == font {
                found = i
                break
            }
        }
        if found < 0 {
            if fontCount < InlineRunFonts.capacity {
                inlineFonts[fontCount] = font
            } else {
                if !spilled { prepared.runFonts = inlineFonts.withFonts(fontCount) { Array($0) } }
                prepared.runFonts.append(font)
            }
            found = fontCount
            fontCount += 1
        }
        lastRef = UInt16(found)
        lastFont = font
        return lastRef
    }

    /// Appends a cluster that ends at UTF-16 offset `end`.
    /// - Parameters:
    ///   - end: the UTF-16 offset where the cluster ends.
    ///   - advance: its advance in points.
    ///   - font: the face and size it was measured in.
    ///   - breakAfter: a line may break after it.
    ///   - mandatoryAfter: a line must break after it (it ends with a hard break character).
    ///   - hanging: it is whitespace that hangs at a line end (not counted in line widths).
    ///   - lineSeparator: it is a hard break character (its advance is forced to 0).
    ///   - attachment: it is an inline object (U+FFFC standing for an attachment).
    ///   - tab: it is a tab, whose advance line fitting finds from its position (`setTabStops`
    ///     gives the stops; `advance` is its least advance).
    package mutating func appendCluster(
        end: Int, advance: Double, font: RunFont,
        breakAfter: Bool, mandatoryAfter: Bool, hanging: Bool,
        lineSeparator: Bool = false, attachment: Bool = false, tab: Bool = false
    ) {
        var f: UInt8 = 0
        if tab { f |= ClusterFlags.tab }
        if breakAfter || mandatoryAfter { f |= ClusterFlags.breakAfter }
        if mandatoryAfter { f |= ClusterFlags.mandatoryAfter }
        if hanging || lineSeparator { f |= ClusterFlags.hanging }
        if lineSeparator { f |= ClusterFlags.lineSeparator }
        if attachment { f |= ClusterFlags.attachment }
        let r = ref(font)
        let a = lineSeparator ? 0 : advance
        prepared.totalAdvance += a
        if mandatoryAfter { prepared.hardBreakCount += 1 }
        push(Cluster(advance: a, end: Int32(end), fontRef: r, flags: f))
    }

    /// The font of the last appended cluster (or the one `useFont` named).
    package var lastAppendedFont: RunFont { lastFont }

    /// Makes `font` the font `appendClusterInLastFont` appends in (as if a cluster in it had
    /// just been appended).
    @inline(__always)
    package mutating func useFont(_ font: RunFont) { _ = ref(font) }

    /// Gives cluster `index`, already appended, `font` instead of its own.
    mutating func setFont(_ font: RunFont, ofCluster index: Int) {
        precondition(index < count, "no such cluster")
        let r = ref(font)
        built[index].fontRef = r
    }

    /// Adds `delta` to the advance of cluster `index`, already appended (and to the text's).
    mutating func addAdvance(_ delta: Double, toCluster index: Int) {
        precondition(index < count, "no such cluster")
        built[index].advance += delta
        prepared.totalAdvance += delta
    }

    /// `appendCluster` of a plain cluster (not hanging, no hard break, not an object) in the font
    /// of the last appended cluster (or the one `useFont` named): the per-character path of
    /// Chinese text, and the clusters of a measured word.
    @inline(__always)
    mutating func appendClusterInLastFont(end: Int, advance: Double, breakAfter: Bool) {
        prepared.totalAdvance += advance
        push(Cluster(advance: advance, end: Int32(end), fontRef: lastRef, flags: breakAfter ? ClusterFlags.breakAfter : 0))
    }

    /// Room for `count` more plain clusters in the last font, appended through the returned
    /// sink and committed by `endPlainClusters`: a loop that appends many (the per-character
    /// path of Chinese text, a measured word) keeps the write position and the running total in
    /// registers. Nothing else may be appended until it is committed.
    @inline(__always)
    mutating func beginPlainClusters(_ count: Int) -> PlainClusterSink {
        if self.count + count > built.capacity { built.reserve(self.count + count, keeping: self.count) }
        return PlainClusterSink(
            next: built.base + self.count, fontRef: lastRef, totalAdvance: prepared.totalAdvance, room: count)
    }

    /// Commits the clusters appended through `sink`.
    @inline(__always)
    mutating func endPlainClusters(_ sink: PlainClusterSink) {
        count = sink.next - built.base
        prepared.totalAdvance = sink.totalAdvance
    }

    /// Adds to the advance of the last cluster (a ligature or mark that extends it).
    package mutating func extendLastCluster(advance: Double) {
        built[count - 1].advance += advance
        prepared.totalAdvance += advance
    }

    /// Records the line-end correction of the last appended cluster.
    package mutating func addLineEndCorrection(_ delta: Double) {
        addLineEndCorrection(delta, afterCluster: count - 1)
    }

    /// Records the line-end correction of cluster `index` (corrections are added in cluster order).
    mutating func addLineEndCorrection(_ delta: Double, afterCluster index: Int) {
        if correctionCount == corrections.capacity { corrections.reserve(correctionCount + 1, keeping: correctionCount) }
        corrections[correctionCount] = Cluster(advance: delta, end: Int32(index), fontRef: 0, flags: 0)
        correctionCount += 1
    }

    /// The number of clusters appended so far.
    var clusterCount: Int { count }

    @inline(__always) package mutating func setGlyphs(_ glyphs: GlyphStorage?) { prepared.glyphs = glyphs }

    /// Sets the tab stops (points): the distance between stops and a tab's least advance.
    package mutating func setTabStops(interval: Double, minimum: Double) {
        prepared.tabInterval = interval
        prepared.tabMinimum = minimum
    }
    @inline(__always) package mutating func addMissingGlyphs(_ n: Int) { prepared.missingGlyphCount += n }

    /// Records that `units` of the text were measured by shaping: when they hold an ASCII digit,
    /// the text is no template for other digits (`PreparedFields.shapedDigits`); when they hold a
    /// no-break space, `PreparedText.markNoBreakSpaces` marks its cluster. (Every no-break space
    /// is measured by shaping: none is on the per-character or word tables, and none hangs in
    /// the cluster loop.)
    mutating func noteShaped<C: Collection<UInt16>>(_ units: C) {
        if !prepared.shapedDigits && units.contains(where: TextMeasurer.isASCIIDigit) { prepared.shapedDigits = true }
        if !prepared.hasNoBreakSpaces && units.contains(where: TextMeasurer.isNoBreakSpace) { prepared.hasNoBreakSpaces = true }
    }

    /// The prepared text of `text` (the text the builder was made for: `init(text:baseFont:)`),
    /// its run fonts in an array of its own.
    package consuming func finish(text: AttributedText) -> PreparedText {
        precondition(text.utf16Count == prepared.utf16Count, "finish(text:) of another text than the builder's")
        if !spilled { prepared.runFonts = inlineFonts.withFonts(fontCount) { Array($0) } }
        let made = text.withContent { content in
            PreparedText(storage: PreparedStorage.make(prepared, built.prefix(count), corrections.prefix(correctionCount), content))
        }
        if ownsBlocks {
            built.free()
            corrections.free()
        }
        return made
    }

    /// Takes the run fonts from `table` when it holds an equal list (most texts use one of a few
    /// lists: the base font of a role, with emoji, objects or bold), so that the prepared text
    /// shares that array instead of allocating one of its own. Call it last, then `take()`.
    /// (Inlined into `prepare`: called out of line, once per text, it cost a cold cell about
    /// 0.07 % more instructions.)
    @inline(__always)
    mutating func shareFonts(from table: RunFontTable) {
        if !spilled { prepared.runFonts = inlineFonts.withFonts(fontCount) { table.list($0) } }
    }

    /// The prepared text of `content` (the text the builder was made for), its run fonts set by
    /// `shareFonts(from:)`; the lent blocks are handed back in `clusters` and `corrections`.
    /// (Kept small, so that the caller's builder is moved out, not copied.)
    consuming func take(
        content: TextContent, returning clusters: inout ScratchBuffer<Cluster>, _ corrections: inout ScratchBuffer<Cluster>
    ) -> PreparedText {
        let made = PreparedText(
            storage: PreparedStorage.make(prepared, built.prefix(count), self.corrections.prefix(correctionCount), content))
        clusters = built
        corrections = self.corrections
        return made
    }
}

/// Appends plain clusters in place for `PreparedTextBuilder.beginPlainClusters`.
struct PlainClusterSink {
    fileprivate(set) var next: UnsafeMutablePointer<Cluster>
    let fontRef: UInt16
    fileprivate(set) var totalAdvance: Double
    /// Clusters that may still be appended.
    private var room: Int

    fileprivate init(next: UnsafeMutablePointer<Cluster>, fontRef: UInt16, totalAdvance: Double, room: Int) {
        self.next = next
        self.fontRef = fontRef
        self.totalAdvance = totalAdvance
        self.room = room
    }

    /// Clusters that may still be appended.
    var remaining: Int { room }

    /// `append` of a cluster ending at `end` with `flags`, unchecked: for a loop that checked
    /// `remaining` once for all it appends.
    @inline(__always)
    mutating func appendUnchecked(end: Int32, advance: Double, flags: UInt8) {
        room &-= 1
        totalAdvance += advance
        next.initialize(to: Cluster(advance: advance, end: end, fontRef: fontRef, flags: flags))
        next += 1
    }

    /// Clears the break flag of the last appended cluster.
    @inline(__always)
    mutating func clearLastBreak() {
        (next - 1).pointee.flags &= ~ClusterFlags.breakAfter
    }

    /// `PreparedTextBuilder.appendClusterInLastFont`, in place.
    @inline(__always)
    mutating func append(end: Int, advance: Double, breakAfter: Bool) {
        precondition(room > 0, "more clusters than the room asked for")
        appendUnchecked(end: Int32(end), advance: advance, flags: breakAfter ? ClusterFlags.breakAfter : 0)
    }
}

/// `InlineRunFonts.capacity` run fonts stored in place (unused places hold copies of the first).
struct InlineRunFonts {
    private var fonts: (RunFont, RunFont, RunFont, RunFont)
    static let capacity = 4

    init(_ first: RunFont) { fonts = (first, first, first, first) }

    /// - Precondition: `0 <= i < capacity`.
    subscript(i: Int) -> RunFont {
        get {
            precondition(i >= 0 && i < Self.capacity, "run font index out of range")
            return withUnsafeBytes(of: fonts) { $0.load(fromByteOffset: i * MemoryLayout<RunFont>.stride, as: RunFont.self) }
        }
        set {
            precondition(i >= 0 && i < Self.capacity, "run font index out of range")
            withUnsafeMutableBytes(of: &fonts) { $0.storeBytes(of: newValue, toByteOffset: i * MemoryLayout<RunFont>.stride, as: RunFont.self) }
        }
    }

    /// `body` on the first `count` fonts (`count <= capacity`).
    func withFonts<R>(_ count: Int, _ body: (UnsafeBufferPointer<RunFont>) -> R) -> R {
        withUnsafeBytes(of: fonts) { raw in
            body(UnsafeBufferPointer(start: raw.baseAddress!.assumingMemoryBound(to: RunFont.self), count: min(count, Self.capacity)))
        }
    }
}

extension PreparedText {
    /// The address of the first cluster (0 when there is none): the object of an immutable
    /// prepared text does not move, so callers may keep it for prefetching while they hold the text.
    package var clustersAddress: UInt {
        clusterCount == 0 ? 0 : UInt(bitPattern: storage.records)
    }
}

/// Asks the processor to start loading `lines` cache lines from `address` (no effect on results;
/// 0 is skipped).
package func prefetchLines(_ address: UInt, _ lines: Int) {
    guard let base = UnsafeRawPointer(bitPattern: address) else { return }
    for k in 0..<lines { feedlayout_prefetch(base + 64 * k) }
}
