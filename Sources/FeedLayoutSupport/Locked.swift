#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value behind a pthread mutex.
///
/// The package's one lock. A pthread mutex rather than `Synchronization.Mutex` because on Linux
/// ThreadSanitizer does not see `Mutex`'s futex-based locking (the standard library is not
/// instrumented), so every access under it is reported as a race; `pthread_mutex_lock` is
/// intercepted, so TSan sees the ordering. A five-line program with `Mutex` and
/// `concurrentPerform` reproduces the false report.
///
/// On glibc the mutex is adaptive (`PTHREAD_MUTEX_ADAPTIVE_NP`): a thread that finds it held spins
/// briefly before sleeping. The package's critical sections are a dictionary lookup or insert, far
/// shorter than a futex sleep and wake-up, so two cores sharing a cache rarely enter the kernel.
///
/// Thread-safety: every access goes through `withLock`.
///
/// Public (the module is no product, so this widens no product's API) with an inlinable
/// `withLock`: a `package` generic is neither inlined nor specialized in another module, so each
/// access was a call through a closure context with the result returned by run-time type.
public final class Locked<State: Sendable>: @unchecked Sendable {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// The value, in memory of its own: a stored `var` of a class would be checked for
    /// exclusive access at run time on every `withLock` (a `swift_beginAccess` and
    /// `swift_endAccess` pair, ~120 instructions); the mutex already makes access exclusive.
    @usableFromInline let state: UnsafeMutablePointer<State>

    public init(_ state: State) {
        self.state = .allocate(capacity: 1)
        self.state.initialize(to: state)
        mutex = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        #if canImport(Glibc)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
        #endif
        let status = pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
        precondition(status == 0, "pthread_mutex_init failed: \(status)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Runs `body` with exclusive access to the value. - Complexity: O(1) plus `body`.
    @inlinable @inline(__always)
    public func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state.pointee)
    }
}

extension Dictionary {
    /// Empties the dictionary, keeping room for as many entries, and returns what it held: a
    /// cache emptying a shard under its lock frees the old entries after the lock is released
    /// (freeing thousands of values, some allocated by other threads, inside the critical section
    /// kept the shard's other users waiting in the kernel).
    package mutating func takeAll() -> Self {
        var old: Self = [:]
        swap(&old, &self)
        reserveCapacity(old.count)
        return old
    }
}
