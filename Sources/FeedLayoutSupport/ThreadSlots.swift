#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// What the package keeps per thread, in a thread-specific slot (no lock, and no cache line
/// shared with other cores): one object per type (`threadLocal`), and a small index that
/// per-thread shards are chosen by (`currentThreadIndex`). Freed when the thread exits.
@usableFromInline
final class ThreadSlots {
    /// The thread's index, in the order threads first asked (0, 1, 2, …).
    let index: Int
    /// The thread's objects and their types, in memory of their own: a stored `var` of a class
    /// is checked for exclusive access at run time on every use (a `swift_beginAccess` and
    /// `swift_endAccess` pair), and only this thread ever uses it.
    @usableFromInline let locals: UnsafeMutablePointer<[(type: ObjectIdentifier, object: AnyObject)]>

    private init(index: Int) {
        self.index = index
        locals = .allocate(capacity: 1)
        locals.initialize(to: [])
    }

    deinit {
        locals.deinitialize(count: 1)
        locals.deallocate()
    }

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
    @usableFromInline static var current: ThreadSlots {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<ThreadSlots>.fromOpaque(pointer).takeUnretainedValue()
        }
        let slots = ThreadSlots(index: nextIndex.wrappingAdd(1, ordering: .relaxed).oldValue)
        pthread_setspecific(key, Unmanaged.passRetained(slots).toOpaque())
        return slots
    }

    /// Keeps `object` as the thread's instance of the type `key` stands for.
    @usableFromInline func add(_ object: AnyObject, for key: ObjectIdentifier) {
        locals.pointee.append((key, object))
    }
}

/// The calling thread's instance of `T`, made by `make` on the thread's first call: reusable
/// buffers kept per thread (no lock, no cache line shared between cores), freed when the thread
/// exits. The caller MUST NOT use it across a call that may use it again on the same thread.
///
/// Public and inlinable (the module is no product), so that each caller's look-up is specialized
/// for its type: as a `package` generic it took ~190 instructions a call, most of them run-time
/// type handling and exclusivity checks around a scan of one or two entries.
@inlinable
public func threadLocal<T: AnyObject>(_ type: T.Type, _ make: () -> T) -> T {
    let slots = ThreadSlots.current
    let key = ObjectIdentifier(type)
    let locals = slots.locals
    for i in locals.pointee.indices where locals.pointee[i].type == key {
        return unsafeDowncast(locals.pointee[i].object, to: T.self)
    }
    let object = make()
    slots.add(object, for: key)
    return object
}

/// The calling thread's index (0 for the first thread that asked, then 1, 2, …): for data kept
/// per thread, such as shards that only their thread uses, so that threads never wait for each
/// other or share cache lines there.
package var currentThreadIndex: Int { ThreadSlots.current.index }

/// One object of type `T` per thread, in a thread-specific slot of its own: finding it is one
/// `pthread_getspecific`, where `threadLocal` scans the thread's list of objects. Kept in a
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
