#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// What the package keeps per thread, in a thread-specific slot (no lock, and no cache line
/// shared with other cores): one object per type (`threadLocal`), and a small index that
/// per-thread shards are chosen by (`currentThreadIndex`). Freed when the thread exits.
final class ThreadSlots {
    /// The thread's index, in the order threads first asked (0, 1, 2, …).
    let index: Int
    var locals: [(type: ObjectIdentifier, object: AnyObject)] = []

    private init(index: Int) { self.index = index }

    private static let nextIndex = Atomic<Int>(0)

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { pointer in
            #if canImport(Glibc)
            guard let pointer else { return }
            #endif
            Unmanaged<ThreadSlots>.fromOpaque(pointer).release()
        }
        precondition(status == 0, "pthread_key_create failed: \(status)")
        return key
    }()

    /// This thread's slots (made on its first call).
    static var current: ThreadSlots {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<ThreadSlots>.fromOpaque(pointer).takeUnretainedValue()
        }
        let slots = ThreadSlots(index: nextIndex.wrappingAdd(1, ordering: .relaxed).oldValue)
        pthread_setspecific(key, Unmanaged.passRetained(slots).toOpaque())
        return slots
    }
}

/// The calling thread's instance of `T`, made by `make` on the thread's first call: reusable
/// buffers kept per thread (no lock, no cache line shared between cores), freed when the thread
/// exits. The caller MUST NOT use it across a call that may use it again on the same thread.
package func threadLocal<T: AnyObject>(_ type: T.Type, _ make: () -> T) -> T {
    let slots = ThreadSlots.current
    let key = ObjectIdentifier(type)
    for entry in slots.locals where entry.type == key { return unsafeDowncast(entry.object, to: T.self) }
    let object = make()
    slots.locals.append((key, object))
    return object
}

/// The calling thread's index (0 for the first thread that asked, then 1, 2, …): for data kept
/// per thread, such as shards that only their thread uses, so that threads never wait for each
/// other or share cache lines there.
package var currentThreadIndex: Int { ThreadSlots.current.index }
