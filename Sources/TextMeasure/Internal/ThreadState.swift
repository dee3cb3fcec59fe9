#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FeedLayoutSupport
import UnicodeText

/// The `prepare` buffers of the thread's last call, kept per thread: a pool behind one lock was
/// taken twice per text by every thread. A call takes them out and gives them back, so a nested
/// call on the same thread makes its own.
final class ThreadState {
    /// Only this thread reads and writes it, and never across a call: no run-time exclusivity
    /// check (one pair of runtime calls per access otherwise).
    @exclusivity(unchecked) var scratch: PrepareScratch?
    /// The bidi levels of the text whose line fitting last asked for them
    /// (`PreparedText.startsItem`), and that text's storage (not kept alive by this).
    @exclusivity(unchecked) weak var levelsText: AnyObject?
    @exclusivity(unchecked) var levels: BidiLevels?

    private static let slot = ThreadLocalObject { ThreadState() }

    /// This thread's state.
    static var current: ThreadState { slot.current }
}

/// The reusable buffers of a `prepare` call (see `ThreadState`): plain blocks, and the arrays
/// and HarfBuzz buffer of shaping (made on the first cache miss only).
final class PrepareScratch {
    var buffers = PrepareBuffers()
    var shaped: [ShapedGlyph] = []
    var cached: [CachedGlyph] = []
    /// The run-font lists of this thread's texts, shared by texts with equal lists.
    let fontTable = RunFontTable()
    private var made: ShapingBuffer?

    var shaper: ShapingBuffer {
        if let made { return made }
        let b = ShapingBuffer()
        made = b
        return b
    }

    /// Small enough to keep for the thread's next call (a long text's buffers are dropped with
    /// it, so a thread keeps a few hundred KiB at most).
    var isSmall: Bool {
        buffers.largestCapacity <= 1 << 14 + 1 && shaped.capacity <= 1 << 12 && cached.capacity <= 1 << 12
    }

    deinit {
        buffers.free()
        fontTable.free()
    }
}

/// The plain buffers of `prepare`: code units, break flags (one more than units), the pending
/// word's cluster ends and break flags, a word's advances (two per cluster), and the clusters and
/// corrections of the text being built.
struct PrepareBuffers {
    var units = ScratchBuffer<UInt16>(capacity: 256)
    var breaks = ScratchBuffer<BreakFlags>(capacity: 257)
    var wordEnds = ScratchBuffer<Int32>(capacity: 64)
    var wordBreakAfter = ScratchBuffer<Bool>(capacity: 64)
    var advances = ScratchBuffer<Int32>(capacity: 128)
    /// The clusters and line-end corrections of the text being built (`PreparedTextBuilder`).
    var clusters = ScratchBuffer<Cluster>(capacity: 256)
    var corrections = ScratchBuffer<Cluster>(capacity: 32)
    /// The brackets open so far (paired-bracket script resolution), at most `maxOpenBrackets`.
    let brackets = ScratchBuffer<OpenBracket>(capacity: maxOpenBrackets)
    static let maxOpenBrackets = 64
    /// The per-character table's advances at a size that has no row of its own
    /// (`SimpleAdvanceTable.pointsRow`).
    let tableRow = ScratchBuffer<Double>(capacity: SimpleAdvanceTable.maxRowWidth)

    var largestCapacity: Int {
        max(
            units.capacity, breaks.capacity, wordEnds.capacity, wordBreakAfter.capacity, advances.capacity, clusters.capacity,
            corrections.capacity)
    }

    func free() {
        units.free()
        breaks.free()
        wordEnds.free()
        wordBreakAfter.free()
        advances.free()
        clusters.free()
        corrections.free()
        brackets.free()
        tableRow.free()
    }
}

/// An open paired bracket, the script that was current before it (nil before the paragraph's
/// first character with one), and its offset.
struct OpenBracket: BitwiseCopyable {
    var id: UInt8
    var script: UnicodeScript?
    var offset: Int32
}
