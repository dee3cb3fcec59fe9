import StatusModel

// The first two stages of every job: inputs opened in order and cut into batches (reading), and
// batches turned into statuses (decoding). JSON Lines and Weibo JSON are streamed: a batch is a
// chunk of whole lines, or of whole elements of the document's statuses array, decoded by
// whichever worker takes it; an error found by the reader comes after the batches before it. A
// large model property list is held whole, its statuses found when opened (`PlistElements`): a
// batch is a run of them, read and decoded by the worker. Other formats are loaded whole when opened
// (their errors come before any output) and cut into batches of statuses.

/// A batch of statuses to decode or already decoded, and where it sits in the job's input.
struct FeedBatch {
    enum Content {
        case lines(JSONLinesChunk, file: String)
        case elements(JSONElementsChunk, file: String)
        case plistElements(PlistElements, statuses: Range<Int>)
        case statuses(ArraySlice<Status>)
    }
    var content: Content
    /// Statuses (valid or not) of every batch before this one, over all inputs: an upper bound
    /// of the row index of the batch's first row (equal to it when no status is skipped).
    var statusesBefore: Int
    /// Statuses in the batch (valid or not).
    var statusCount: Int
}

/// The statuses of a batch, decoded, with those skipped (`LoadOptions.skipInvalid`).
struct DecodedBatch {
    var statuses: [Status] = []
    var skipped: [SkippedStatus] = []
    var file = ""
}

/// Reads the job's inputs in order, as batches.
final class FeedBatchReader {
    private var pending: [FeedSource]
    private var current: FeedSource?
    private var offset = 0
    private var statusesBefore = 0
    let batchStatuses: Int
    let batchBytes: Int

    /// The most statuses and bytes a batch may be asked to hold: limits outside [1, these] are
    /// clamped (a batch of 0 statuses was handed out forever; `Int.max` bytes was allocated).
    static let maxBatchStatuses = 1 << 20
    static let maxBatchBytes = 1 << 26

    init(sources: [FeedSource], batchStatuses: Int = 1024, batchBytes: Int = 1 << 20) {
        pending = sources
        self.batchStatuses = min(max(1, batchStatuses), Self.maxBatchStatuses)
        self.batchBytes = min(max(1, batchBytes), Self.maxBatchBytes)
    }

    /// The next batch, nil after the last input's last one.
    func next() throws(StatusModelError) -> FeedBatch? {
        while true {
            if current == nil {
                guard !pending.isEmpty else { return nil }
                current = pending.removeFirst()
                offset = 0
            }
            switch current! {
            case .jsonLines(let reader):
                if let chunk = try reader.next(targetBytes: batchBytes) {
                    defer { statusesBefore += chunk.statusCount }
                    return FeedBatch(
                        content: .lines(chunk, file: reader.fileName), statusesBefore: statusesBefore, statusCount: chunk.statusCount)
                }
            case .jsonDocument(let reader):
                if let chunk = try reader.next(targetBytes: batchBytes, maxStatuses: batchStatuses) {
                    defer { statusesBefore += chunk.statusCount }
                    return FeedBatch(
                        content: .elements(chunk, file: reader.fileName), statusesBefore: statusesBefore, statusCount: chunk.statusCount)
                }
            case .plistElements(let elements):
                if offset < elements.statusCount {
                    // Up to `batchStatuses` statuses and about `batchBytes` (one status at least).
                    var end = offset + 1
                    var most = min(elements.statusCount, offset + batchStatuses)
                    while end < most {
                        let mid = (end + most + 1) / 2
                        if elements.byteCount(offset..<mid) <= batchBytes { end = mid } else { most = mid - 1 }
                    }
                    defer {
                        statusesBefore += end - offset
                        offset = end
                    }
                    return FeedBatch(
                        content: .plistElements(elements, statuses: offset..<end), statusesBefore: statusesBefore,
                        statusCount: end - offset)
                }
            case .loaded(let result):
                let statuses = result.feed.statuses
                if offset < statuses.count {
                    let end = min(statuses.count, offset + batchStatuses)
                    defer {
                        statusesBefore += end - offset
                        offset = end
                    }
                    return FeedBatch(
                        content: .statuses(statuses[offset..<end]), statusesBefore: statusesBefore, statusCount: end - offset)
                }
            }
            current = nil
        }
    }
}

/// A worker's decoders, one per streamed input (each keeps its parser's buffers).
struct BatchDecoders {
    let options: LoadOptions
    private var decoders: [String: JSONLinesDecoder] = [:]
    private var documentDecoders: [String: JSONElementsDecoder] = [:]
    private var plistDecoder = PlistElementsDecoder()

    init(options: LoadOptions) { self.options = options }

    mutating func decode(_ batch: FeedBatch) throws(StatusModelError) -> DecodedBatch {
        switch batch.content {
        case .statuses(let statuses):
            return DecodedBatch(statuses: Array(statuses))
        case .lines(let chunk, let file):
            var decoder = decoders.removeValue(forKey: file) ?? JSONLinesDecoder(fileName: file, options: options)
            defer { decoders[file] = decoder }
            var out = DecodedBatch(file: file)
            out.statuses.reserveCapacity(chunk.statusCount)
            out.skipped = try decoder.decode(chunk) { out.statuses.append($0) }
            return out
        case .plistElements(let elements, let range):
            var out = DecodedBatch(file: elements.fileName)
            out.statuses.reserveCapacity(range.count)
            out.skipped = try plistDecoder.decode(elements, statuses: range) { out.statuses.append($0) }
            return out
        case .elements(let chunk, let file):
            var decoder = documentDecoders.removeValue(forKey: file) ?? JSONElementsDecoder(fileName: file, options: options)
            defer { documentDecoders[file] = decoder }
            var out = DecodedBatch(file: file)
            out.statuses.reserveCapacity(chunk.statusCount)
            out.skipped = try decoder.decode(chunk) { out.statuses.append($0) }
            return out
        }
    }
}

/// Opens every input (`-` is standard input) in order. Formats other than JSON Lines and Weibo
/// JSON are loaded whole here, so that their errors come before the job writes anything.
/// - Parameter rereadable: streamed inputs that can be read only once (standard input, a pipe)
///   are loaded whole instead (for jobs that read their input more than once).
func openSources(_ paths: [String], options: LoadOptions, rereadable: Bool = false) throws(StatusModelError) -> [FeedSource] {
    var sources: [FeedSource] = []
    for path in paths {
        sources.append(try FeedSource.open(path, options: options, streaming: !(rereadable && FeedSource.isReadOnce(path))))
    }
    return sources
}

/// Reads `sources` as batches, decodes each on a worker and hands the statuses to `process` (on
/// the same worker), then `consume`s the results in input order: the decode stage every job shares.
func runStatusPipeline<Output>(
    sources: [FeedSource], loadOptions: LoadOptions, threads: Int,
    batchStatuses: Int = 512, batchBytes: Int = 1 << 20,
    isCancelled: (() -> Bool)? = nil,
    process: (FeedBatch, DecodedBatch) throws -> Output,
    consume: (Output) throws -> Void
) throws {
    let reader = FeedBatchReader(sources: sources, batchStatuses: batchStatuses, batchBytes: batchBytes)
    try runOrderedPipeline(
        threads: threads, window: 2 * max(1, threads) + 2,
        makeState: { BatchDecoders(options: loadOptions) },
        read: { try reader.next() },
        transform: { decoders, batch in try process(batch, try decoders.decode(batch)) },
        consume: consume,
        isCancelled: isCancelled)
}
