#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The thread's index (`currentThreadIndex`), kept in the thread's slot of a
/// `ThreadLocalObject`: made on the thread's first call, freed when the thread exits.
final class ThreadIndex {
    /// The thread's index, in the order threads first asked (0, 1, 2, …).
    let index: Int

    private init() { index = Self.nextIndex.wrappingAdd(1, ordering: .relaxed).oldValue }

    private static let nextIndex = Atomic<Int>(0)
    static let slot = ThreadLocalObject { ThreadIndex() }
}

/// The calling thread's index (0 for the first thread that asked, then 1, 2, …): for data kept
/// per thread, such as shards that only their thread uses, so that threads never wait for each
/// other or share cache lines there.
package var currentThreadIndex: Int { ThreadIndex.slot.current.index }

/// One object of type `T` per thread (reusable buffers: no lock, no cache line shared between
/// cores), in a thread-specific slot of its own, so that finding it is one `pthread_getspecific`
/// (a list of a thread's objects scanned by type cost ~190 instructions a look-up). Kept in a
/// `static let` by the type that uses it; the object of a thread is released when the thread
/// exits. The caller MUST NOT use the object across a call that may use it again on the same
/// thread.
public final class ThreadLocalObject<T: AnyObject>: @unchecked Sendable {
    @usableFromInline let key: pthread_key_t
    @usableFromInline let make: () -> T

    public init(_ make: @escaping () -> T) {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { pointer in
            #if canImport(Glibc)
            guard let pointer else { return }
            #endif
            Unmanaged<AnyObject>.fromOpaque(pointer).release()
        }
        precondition(status == 0, "pthread_key_create failed: \(status)")
        self.key = key
        self.make = make
    }

    /// The calling thread's object (made on its first call).
    @inlinable public var current: T {
        if let pointer = pthread_getspecific(key) { return Unmanaged<T>.fromOpaque(pointer).takeUnretainedValue() }
        return makeCurrent()
    }

    @usableFromInline func makeCurrent() -> T {
        let object = make()
        pthread_setspecific(key, Unmanaged.passRetained(object as AnyObject).toOpaque())
        return object
    }
}
