// The loader invariant shared by the loader targets.
import Foundation
import StatusModel

/// Loads `data` strictly and leniently (`skipInvalid`) and checks that:
/// - each load either returns statuses or throws a `StatusModelError` naming the file, with a description;
/// - a strict success means the lenient load gives the same feed and skips nothing;
/// - a strict failure that the lenient load survives reports at least one skipped status (nothing is
///   dropped silently), and the skipped entries carry errors naming the file, in increasing order;
/// - a loaded feed written back as Weibo JSON loads again to the same statuses;
/// - a model plist read in batches, as a job reads one of 2 MB or more, gives the whole load's
///   statuses, skipped statuses or error.
public func checkLoad(_ data: Data, fileName: String, format: FeedFormat?) {
    let strict = Result { () throws(StatusModelError) -> LoadResult in
        try FeedLoader.load(data: data, fileName: fileName, options: LoadOptions(format: format))
    }
    let lenient = Result { () throws(StatusModelError) -> LoadResult in
        try FeedLoader.load(data: data, fileName: fileName, options: LoadOptions(skipInvalid: true, format: format))
    }
    if format == .modelPlist {
        checkPlistBatches([UInt8](data), fileName: fileName, options: LoadOptions(format: format), whole: strict)
        checkPlistBatches([UInt8](data), fileName: fileName, options: LoadOptions(skipInvalid: true, format: format), whole: lenient)
    }
    for result in [strict, lenient] {
        switch result {
        case .success(let r):
            fuzzCheck(r.feed.sourceName == fileName, "source name \(r.feed.sourceName)")
            if let format, format != .classicPlist, format != .modelPlist {
                fuzzCheck(r.feed.format == format, "forced \(format), loaded as \(r.feed.format)")
            }
        case .failure(let e):
            fuzzCheck(e.file == fileName, "error names \(e.file), not \(fileName): \(e)")
            fuzzCheck(!e.description.isEmpty, "empty error description")
        }
    }
    switch (strict, lenient) {
    case (.success(let s), .success(let l)):
        fuzzCheck(s.skipped.isEmpty, "strict load skipped statuses")
        fuzzCheck(s.feed == l.feed, "strict and lenient loads differ")
        fuzzCheck(l.skipped.isEmpty, "lenient load skipped statuses the strict load accepted")
        checkRoundTrip(s.feed.statuses)
    case (.success, .failure(let e)):
        fuzzCheck(false, "lenient load failed where the strict one succeeded: \(e)")
    case (.failure, .success(let l)):
        fuzzCheck(!l.skipped.isEmpty, "strict load failed, lenient load skipped nothing")
        var last = -1
        for s in l.skipped {
            fuzzCheck(s.index > last, "skipped indices out of order")
            fuzzCheck(s.error.file == fileName, "skipped error names \(s.error.file)")
            last = s.index
        }
    case (.failure, .failure):
        break
    }
}

/// Statuses written by `FeedWriter` load back unchanged.
func checkRoundTrip(_ statuses: [Status]) {
    let written = FeedWriter.data(statuses, format: .weiboJSON)
    do throws(StatusModelError) {
        let again = try FeedLoader.load(data: written, fileName: "roundtrip.json", options: LoadOptions(format: .weiboJSON))
        fuzzCheck(again.feed.statuses.count == statuses.count, "round trip count \(again.feed.statuses.count) vs \(statuses.count)")
        for (a, b) in zip(again.feed.statuses, statuses) where a != b {
            fuzzCheck(false, "round trip changed status \(b.id):\n\(b)\n->\n\(a)")
        }
    } catch {
        fuzzCheck(false, "written feed does not load: \(error)")
    }
}

/// `bytes` read in batches of one to three statuses (`PlistElements`, whatever its size) gives
/// `whole`, the outcome of the whole load with the same options; documents the tag scan leaves
/// to the whole load are skipped.
func checkPlistBatches(_ bytes: [UInt8], fileName: String, options: LoadOptions, whole: Result<LoadResult, StatusModelError>) {
    guard let elements = PlistElements.split(bytes, fileName: fileName, options: options, minimumBytes: 0) else { return }
    var decoder = PlistElementsDecoder()
    let batched = Result { () throws(StatusModelError) -> ([Status], [SkippedStatus]) in
        var statuses: [Status] = []
        var skipped: [SkippedStatus] = []
        var at = 0
        while at < elements.statusCount {
            let end = min(elements.statusCount, at + 1 + at % 3)
            skipped += try decoder.decode(elements, statuses: at..<end) { statuses.append($0) }
            at = end
        }
        return (statuses, skipped)
    }
    switch (whole, batched) {
    case (.success(let w), .success(let b)):
        fuzzCheck(w.feed.statuses == b.0 && w.skipped == b.1, "batched plist: \(b.0.count) statuses, \(b.1.count) skipped; whole: \(w.feed.statuses.count), \(w.skipped.count)")
    case (.failure(let w), .failure(let b)):
        fuzzCheck(w == b, "batched plist error \(b), whole load's \(w)")
    default:
        fuzzCheck(false, "batched plist outcome \(batched), whole load's \(whole)")
    }
}
