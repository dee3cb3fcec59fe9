import Foundation

// The engine of every job: items are read in order, transformed on several threads, and consumed
// in order.
//
// Each worker loops over three steps: take the next item from the reader (one worker at a time,
// so the reader is serial and numbers what it reads), transform it (concurrently with the other
// workers: this is where the work is), then deposit the result and, when it is the next one in
// order, consume it and every result queued behind it (one worker at a time, in input order). No
// thread only waits: with one worker this is a plain loop. At most `window` items are between
// being read and being consumed, which bounds memory whatever the input's length.
//
// Errors, from the reader or a transform, are delivered in input order like results: the first
// error in the input's order ends the run, after everything before it was consumed, whichever
// thread met it first.

/// Runs read → transform → consume over a sequence of items with `threads` workers.
///
/// - Parameters:
///   - threads: workers (1 runs everything on the calling thread).
///   - window: most items read but not yet consumed (at least `threads`).
///   - makeState: per-worker state (parsers and buffers that keep their capacity), made once per worker.
///   - read: the next item, nil at the end; called by one worker at a time, in order.
///   - transform: the work on one item; called concurrently, each call with its worker's state.
///   - consume: each result, in input order; called by one worker at a time.
///   - isCancelled: polled before each read; when it returns true the run stops and throws `PipelineCancelled`.
/// - Throws: the first error in input order (from `read`, `transform` or `consume`), or `PipelineCancelled`.
func runOrderedPipeline<Item, Output, State>(
    threads: Int, window: Int,
    makeState: () -> State,
    read: () throws -> Item?,
    transform: (inout State, Item) throws -> Output,
    consume: (Output) throws -> Void,
    isCancelled: (() -> Bool)? = nil
) throws {
    let workers = max(1, threads)
    let control = PipelineControl<Output>(window: max(window, workers))
    withoutActuallyEscaping(makeState) { makeState in
        withoutActuallyEscaping(read) { read in
            withoutActuallyEscaping(transform) { transform in
                withoutActuallyEscaping(consume) { consume in
                    // The closures are used by one worker at a time (read, consume: under the
                    // control's protocol) or with per-worker state (transform), and all workers
                    // end before this function returns.
                    nonisolated(unsafe) let makeState = makeState
                    nonisolated(unsafe) let read = read
                    nonisolated(unsafe) let transform = transform
                    nonisolated(unsafe) let consume = consume
                    nonisolated(unsafe) let isCancelled = isCancelled
                    let work: @Sendable (Int) -> Void = { _ in
                        var state = makeState()
                        while true {
                            guard let (index, item) = control.take({ () throws -> Item? in
                                if isCancelled?() == true { throw PipelineCancelled() }
                                return try read()
                            }) else { return }
                            let result: Result<Output, any Error>
                            do {
                                result = .success(try transform(&state, item))
                            } catch {
                                result = .failure(error)
                            }
                            control.deposit(index, result, consume: consume)
                        }
                    }
                    if workers == 1 {
                        work(0)
                    } else {
                        DispatchQueue.concurrentPerform(iterations: workers, execute: work)
                    }
                }
            }
        }
    }
    if let error = control.failure { throw error }
}

/// Thrown by a pipeline whose `isCancelled` returned true.
public struct PipelineCancelled: Error, CustomStringConvertible {
    public init() {}
    public var description: String { "cancelled" }
}

/// The shared state of a pipeline run: reading position, results waiting for their turn, the
/// window, the first failure.
private final class PipelineControl<Output>: @unchecked Sendable {
    private let condition = NSCondition()
    private let window: Int
    private var readCount = 0
    private var consumedCount = 0
    private var reading = false
    private var consuming = false
    private var finished = false
    private var waiting: [Int: Result<Output, any Error>] = [:]
    /// The first error in input order; set once, ends the run.
    private(set) var failure: (any Error)?

    init(window: Int) { self.window = window }

    /// The next item and its index, or nil when the input ended or the run failed.
    func take<Item>(_ read: () throws -> Item?) -> (Int, Item)? {
        condition.lock()
        defer { condition.unlock() }
        while !finished && (reading || readCount - consumedCount >= window) { condition.wait() }
        if finished { return nil }
        reading = true
        let index = readCount
        condition.unlock()
        let item: Item?
        var readError: (any Error)?
        do {
            item = try read()
        } catch {
            item = nil
            readError = error
        }
        condition.lock()
        reading = false
        condition.broadcast()
        if let item {
            readCount += 1
            return (index, item)
        }
        // The end of the input, or a read error: it takes the next index, so that it is reported
        // after every item before it was consumed.
        finished = true
        if let readError {
            readCount += 1
            waiting[index] = .failure(readError)
            drainLocked(consume: { _ in }, canConsume: false)
        }
        return nil
    }

    /// Stores a result and, if no other worker is consuming, consumes every result now in order.
    func deposit(_ index: Int, _ result: Result<Output, any Error>, consume: (Output) throws -> Void) {
        condition.lock()
        defer { condition.unlock() }
        waiting[index] = result
        drainLocked(consume: consume, canConsume: true)
    }

    /// Consumes the results that are next in order (the lock held, released around `consume`).
    /// Without `canConsume` (the reader, which has no consumer) it only delivers an error that is next.
    private func drainLocked(consume: (Output) throws -> Void, canConsume: Bool) {
        guard !consuming else { return }
        consuming = true
        while failure == nil, let result = waiting.removeValue(forKey: consumedCount) {
            switch result {
            case .failure(let error):
                fail(error)
            case .success(let output):
                guard canConsume else {
                    // Only a reader's error drains without a consumer; results stay for a worker.
                    waiting[consumedCount] = result
                    consuming = false
                    return
                }
                condition.unlock()
                var consumeError: (any Error)?
                do { try consume(output) } catch { consumeError = error }
                condition.lock()
                if let consumeError { fail(consumeError) }
            }
            consumedCount += 1
            condition.broadcast()
        }
        consuming = false
    }

    private func fail(_ error: any Error) {
        guard failure == nil else { return }
        failure = error
        finished = true
        waiting.removeAll()
        condition.broadcast()
    }
}
