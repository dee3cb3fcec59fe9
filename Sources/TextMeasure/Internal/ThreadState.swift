#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization
import UnicodeText

/// State the package keeps per thread, in a thread-specific slot (no lock, and no cache line
/// shared with other cores): the `prepare` buffers of the thread's last call, and a small index
/// that per-thread shards are chosen by (`currentThreadIndex`). Freed when the thread exits.
final class ThreadState {
    /// The thread's index, in the order threads first asked (0, 1, 2, …).
    let index: Int
    /// `prepare` buffers kept between the thread's calls (a pool behind one lock was taken twice
    /// per text by every thread).
    var scratch: PrepareScratch?
    /// Other modules' per-thread objects, one per type (`threadLocal`).
    fileprivate var locals: [(type: ObjectIdentifier, object: AnyObject)] = []

    private init(index: Int) { self.index = index }

    private static let nextIndex = Atomic<Int>(0)

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { pointer in
            #if canImport(Glibc)
            guard let pointer else { return }
            #endif
            Unmanaged<ThreadState>.fromOpaque(pointer).release()
        }
        precondition(status == 0, "pthread_key_create failed: \(status)")
        return key
    }()

    /// This thread's state (made on its first call).
    static var current: ThreadState {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<ThreadState>.fromOpaque(pointer).takeUnretainedValue()
        }
        let state = ThreadState(index: nextIndex.wrappingAdd(1, ordering: .relaxed).oldValue)
        pthread_setspecific(key, Unmanaged.passRetained(state).toOpaque())
        return state
    }
}

/// The calling thread's instance of `T`, made by `make` on the thread's first call: reusable
/// buffers of other modules, kept per thread like the measurer's own (no lock, no cache line
/// shared between cores), freed when the thread exits. The caller MUST NOT use it across a call
/// that may use it again on the same thread.
package func threadLocal<T: AnyObject>(_ type: T.Type, _ make: () -> T) -> T {
    let state = ThreadState.current
    let key = ObjectIdentifier(type)
    for entry in state.locals where entry.type == key { return unsafeDowncast(entry.object, to: T.self) }
    let object = make()
    state.locals.append((key, object))
    return object
}

/// The calling thread's index (0 for the first thread that asked, then 1, 2, …): for data kept
/// per thread, such as shards that only their thread uses, so that threads never wait for each
/// other or share cache lines there.
package var currentThreadIndex: Int { ThreadState.current.index }

/// The reusable buffers of a `prepare` call (see `ThreadState`): plain blocks, and the arrays
/// and HarfBuzz buffer of shaping (made on the first cache miss only).
final class PrepareScratch {
    var buffers = PrepareBuffers()
    var shaped: [ShapedGlyph] = []
    var cached: [CachedGlyph] = []
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

    deinit { buffers.free() }
}

/// The plain buffers of `prepare`: code units, break flags (one more than units), the pending
/// word's cluster ends and break flags, and a word's advances (two per cluster).
struct PrepareBuffers {
    var units = ScratchBuffer<UInt16>(capacity: 256)
    var breaks = ScratchBuffer<BreakFlags>(capacity: 257)
    var wordEnds = ScratchBuffer<Int32>(capacity: 64)
    var wordBreakAfter = ScratchBuffer<Bool>(capacity: 64)
    var advances = ScratchBuffer<Int32>(capacity: 128)

    var largestCapacity: Int {
        max(units.capacity, breaks.capacity, wordEnds.capacity, wordBreakAfter.capacity, advances.capacity)
    }

    func free() {
        units.free()
        breaks.free()
        wordEnds.free()
        wordBreakAfter.free()
        advances.free()
    }
}
