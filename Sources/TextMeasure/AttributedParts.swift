/// The parts of an `AttributedText` besides its string and first run, in one object: the runs
/// after the first, the inline objects and the entities.
///
/// A text with one run, no objects and no entities (a name, a time, a label) has no parts object;
/// any other has exactly one, where three arrays made one allocation each before. The object's
/// tail holds three regions, each with its count and capacity: runs, then objects, then entities.
/// Copy-on-write: a mutation of a shared object, or one that outgrows a region, makes a new
/// object (each region at least doubled when it grows, so appends stay amortized O(1)).
final class TextParts: ManagedBuffer<TextParts.Counts, UInt64> {
    struct Counts {
        var runs = 0, runCapacity = 0
        var objects = 0, objectCapacity = 0
        var entities = 0, entityCapacity = 0
    }

    private static let runWords = MemoryLayout<AttributeRun>.stride / 8
    private static let objectWords = MemoryLayout<InlineObject>.stride / 8
    private static let entityWords = MemoryLayout<TextEntity>.stride / 8

    /// An empty object with room for the given counts.
    static func make(runs: Int, objects: Int, entities: Int) -> TextParts {
        let words = runs * runWords + objects * objectWords + entities * entityWords
        let made = create(minimumCapacity: max(1, words)) { _ in
            Counts(runCapacity: runs, objectCapacity: objects, entityCapacity: entities)
        }
        return unsafeDowncast(made, to: TextParts.self)
    }

    deinit {
        let c = counts.pointee
        runs.deinitialize(count: c.runs)
        objects.deinitialize(count: c.objects)
        entities.deinitialize(count: c.entities)
    }

    @inline(__always) var counts: UnsafeMutablePointer<Counts> { withUnsafeMutablePointerToHeader { $0 } }

    @inline(__always) private var words: UnsafeMutablePointer<UInt64> { withUnsafeMutablePointerToElements { $0 } }

    /// The first run after the text's first run.
    @inline(__always) var runs: UnsafeMutablePointer<AttributeRun> {
        UnsafeMutableRawPointer(words).assumingMemoryBound(to: AttributeRun.self)
    }

    @inline(__always) var objects: UnsafeMutablePointer<InlineObject> {
        UnsafeMutableRawPointer(words + counts.pointee.runCapacity * Self.runWords).assumingMemoryBound(to: InlineObject.self)
    }

    @inline(__always) var entities: UnsafeMutablePointer<TextEntity> {
        let c = counts.pointee
        return UnsafeMutableRawPointer(words + c.runCapacity * Self.runWords + c.objectCapacity * Self.objectWords)
            .assumingMemoryBound(to: TextEntity.self)
    }

    /// A copy with room for at least the given counts (the present counts if larger).
    func copy(runs r: Int, objects o: Int, entities e: Int) -> TextParts {
        let c = counts.pointee
        let made = TextParts.make(runs: max(r, c.runs), objects: max(o, c.objects), entities: max(e, c.entities))
        made.fill(
            runs: UnsafeBufferPointer(start: runs, count: c.runs), objects: UnsafeBufferPointer(start: objects, count: c.objects),
            entities: UnsafeBufferPointer(start: entities, count: c.entities))
        return made
    }
}

extension Optional where Wrapped == TextParts {
    /// The object, made unique and with room for `runs`, `objects` and `entities` more.
    mutating func reserving(runs r: Int = 0, objects o: Int = 0, entities e: Int = 0) -> TextParts {
        if self == nil {
            let made = TextParts.make(runs: r, objects: o, entities: e)
            self = made
            return made
        }
        // Checked before anything here holds the object (a binding of it would be a second
        // reference, and every mutation would copy).
        let unique = isKnownUniquelyReferenced(&self)
        let p = self.unsafelyUnwrapped
        let c = p.counts.pointee
        let fits = c.runs + r <= c.runCapacity && c.objects + o <= c.objectCapacity && c.entities + e <= c.entityCapacity
        if fits && unique { return p }
        func grown(_ count: Int, _ more: Int, _ capacity: Int) -> Int {
            count + more <= capacity ? capacity : max(count + more, 2 * capacity, 4)
        }
        let made = p.copy(
            runs: grown(c.runs, r, c.runCapacity), objects: grown(c.objects, o, c.objectCapacity),
            entities: grown(c.entities, e, c.entityCapacity))
        self = made
        return made
    }

    mutating func appendRun(_ run: AttributeRun) {
        let p = reserving(runs: 1)
        (p.runs + p.counts.pointee.runs).initialize(to: run)
        p.counts.pointee.runs += 1
    }

    // The object and the entity are taken (`consuming`) and moved into place: borrowed, each
    // was copied in (a retain of its name or value) and the caller's destroyed (a release).

    mutating func appendObject(_ object: consuming InlineObject) {
        let p = reserving(objects: 1)
        (p.objects + p.counts.pointee.objects).initialize(to: object)
        p.counts.pointee.objects += 1
    }

    mutating func appendEntity(_ entity: consuming TextEntity) {
        let p = reserving(entities: 1)
        (p.entities + p.counts.pointee.entities).initialize(to: entity)
        p.counts.pointee.entities += 1
    }

    /// Sets the upper bound of the last run (after the first); there is one.
    mutating func extendLastRun(to end: Int) {
        let p = reserving()
        let last = p.runs + (p.counts.pointee.runs - 1)
        last.pointee.range = last.pointee.range.lowerBound..<end
    }

    var runCount: Int { self?.counts.pointee.runs ?? 0 }
    var objectCount: Int { self?.counts.pointee.objects ?? 0 }
    var entityCount: Int { self?.counts.pointee.entities ?? 0 }
}

extension AttributedText {
    /// The attribute runs, in text order: a view of the text's first run and its parts object.
    public struct Runs: RandomAccessCollection, Hashable, @unchecked Sendable {
        fileprivate let first: AttributeRun
        /// Held for `rest`, which points into it (nil while the memory is borrowed: `TextContent`).
        fileprivate let owner: AnyObject?
        private let rest: UnsafePointer<AttributeRun>?
        public let count: Int

        init(first: AttributeRun, parts: TextParts?) {
            self.init(first: first, owner: parts, rest: parts.map { UnsafePointer($0.runs) }, count: 1 + parts.runCount)
        }

        /// The runs `first` then `count - 1` at `rest`, which `owner` keeps alive.
        init(first: AttributeRun, owner: AnyObject?, rest: UnsafePointer<AttributeRun>?, count: Int) {
            self.first = first
            self.owner = owner
            self.rest = rest
            self.count = count
        }

        public var startIndex: Int { 0 }
        public var endIndex: Int { count }
        @inline(__always) public subscript(i: Int) -> AttributeRun {
            if i == 0 { return first }
            precondition(i > 0 && i < count, "run index out of range")
            return withExtendedLifetime(owner) { rest.unsafelyUnwrapped[i - 1] }
        }

        public static func == (a: Runs, b: Runs) -> Bool { a.elementsEqual(b) }
        public func hash(into hasher: inout Hasher) {
            hasher.combine(count)
            for r in self { hasher.combine(r) }
        }
    }

    // `Attachments` and `Entities` are the same view over different regions. They are two
    // concrete types rather than one generic one on purpose: as a generic `Region<Element>`
    // (measured), a cold corpus cell took 0.8 % more instructions, its uses in other modules
    // not all specialized.

    /// The inline objects, in text order: a view of the text's parts object.
    public struct Attachments: RandomAccessCollection, Hashable, @unchecked Sendable {
        /// Held for `base`, which points into it (nil while the memory is borrowed: `TextContent`).
        fileprivate let owner: AnyObject?
        private let base: UnsafePointer<InlineObject>?
        public let count: Int

        init(parts: TextParts?) {
            self.init(owner: parts, base: parts.map { UnsafePointer($0.objects) }, count: parts.objectCount)
        }

        /// The `count` elements at `base`, which `owner` keeps alive.
        init(owner: AnyObject?, base: UnsafePointer<InlineObject>?, count: Int) {
            self.owner = owner
            self.base = base
            self.count = count
        }

        public var startIndex: Int { 0 }
        public var endIndex: Int { count }
        @inline(__always) public subscript(i: Int) -> InlineObject {
            precondition(i >= 0 && i < count, "attachment index out of range")
            return withExtendedLifetime(owner) { base.unsafelyUnwrapped[i] }
        }

        public static func == (a: Attachments, b: Attachments) -> Bool { a.elementsEqual(b) }
        public func hash(into hasher: inout Hasher) {
            hasher.combine(count)
            for o in self { hasher.combine(o) }
        }
    }

    /// The marked ranges, in the order they were added: a view of the text's parts object.
    public struct Entities: RandomAccessCollection, Hashable, @unchecked Sendable {
        /// Held for `base`, which points into it (nil while the memory is borrowed: `TextContent`).
        fileprivate let owner: AnyObject?
        private let base: UnsafePointer<TextEntity>?
        public let count: Int

        init(parts: TextParts?) {
            self.init(owner: parts, base: parts.map { UnsafePointer($0.entities) }, count: parts.entityCount)
        }

        /// The `count` elements at `base`, which `owner` keeps alive.
        init(owner: AnyObject?, base: UnsafePointer<TextEntity>?, count: Int) {
            self.owner = owner
            self.base = base
            self.count = count
        }

        public var startIndex: Int { 0 }
        public var endIndex: Int { count }
        @inline(__always) public subscript(i: Int) -> TextEntity {
            precondition(i >= 0 && i < count, "entity index out of range")
            return withExtendedLifetime(owner) { base.unsafelyUnwrapped[i] }
        }

        public static func == (a: Entities, b: Entities) -> Bool { a.elementsEqual(b) }
        public func hash(into hasher: inout Hasher) {
            hasher.combine(count)
            for e in self { hasher.combine(e) }
        }
    }
}
