import Foundation

/// A value behind a pthread mutex (`NSLock`).
///
/// The package's one lock. Used instead of `Synchronization.Mutex` because on Linux ThreadSanitizer does not see `Mutex`'s
/// futex-based locking (the standard library is not instrumented), so every access under it is
/// reported as a race; `pthread_mutex_lock` is intercepted, so TSan sees the ordering. A
/// five-line program with `Mutex` and `concurrentPerform` reproduces the false report.
///
/// Thread-safety: every access goes through `withLock`.
package final class Locked<State: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var state: State

    package init(_ state: State) { self.state = state }

    /// Runs `body` with exclusive access to the value. - Complexity: O(1) plus `body`.
    @inline(__always)
    package func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}
