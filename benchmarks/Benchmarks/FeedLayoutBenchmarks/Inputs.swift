import CellLayout
import Foundation
import StatusModel
import TableLayout
import TextMeasure

/// The suite's fixed inputs. Every benchmark names the input it ran on (`Facts`), so a result is
/// always read together with what produced it.
///
/// - corpus: the eight `weibo_*.json` timelines of the shared corpus (206 statuses), found at
///   `../../shared/corpus/yykit-weibo` from this package's folder; absent outside the project's
///   machines, and then the benchmarks that need it say so and do nothing.
/// - generated: `FeedGenerator(seed: 42)`, the first 100 000 statuses.
/// - texts: the status and retweet texts of the corpus (of the first 1 000 generated statuses when
///   the corpus is absent), 15 pt, laid out at 355 pt; labels: the user names and "来自 " sources
///   of the same statuses, 15 pt.
/// - cells: width 375 pt, scale 2, no line limit, fonts from the package's `Fonts/`.
/// - table: 1 000 000 rows, heights spread over 60–600 pt (`Inputs.spread`), scale 2.
enum Inputs {
    /// The benchmarks package folder (`benchmarks/`).
    static let packageDirectory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // FeedLayoutBenchmarks
        .deletingLastPathComponent()  // Benchmarks
        .deletingLastPathComponent()

    static let cellWidth = 375.0
    static let scale = 2.0
    static let textSize = 15.0
    static let textWidth = 355.0
    static let relayoutWidth = 320.0
    static let generatedCount = 100_000
    static let generatedSeed: UInt64 = 42
    static let tableRows = 1_000_000

    static let corpusMissingMessage =
        "../../shared/corpus/yykit-weibo is absent (the shared Weibo corpus is only on the project's machines): skipped"

    /// `../../shared/corpus/yykit-weibo` relative to this package, when present.
    static var corpusDirectory: URL? {
        let url = packageDirectory.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("shared/corpus/yykit-weibo")
        return FileManager.default.fileExists(atPath: url.appendingPathComponent("weibo_0.json").path) ? url : nil
    }

    /// The 206 statuses of the corpus's Weibo timelines, or nil when the corpus is absent.
    static let corpus: [Status]? = {
        guard let dir = corpusDirectory else { return nil }
        var statuses: [Status] = []
        for i in 0..<8 {
            let url = dir.appendingPathComponent("weibo_\(i).json")
            do {
                statuses += try FeedLoader.load(contentsOf: url).feed.statuses
            } catch {
                fatalError("\(url.lastPathComponent): \(error)")
            }
        }
        precondition(!statuses.isEmpty, "the corpus holds no status")
        return statuses
    }()

    /// `FeedGenerator(seed: 42)`'s first `count` statuses (memoized for the full feed).
    static func generated(_ count: Int = generatedCount) -> [Status] {
        if count == generatedCount { return generatedFeed }
        var g = FeedGenerator(seed: generatedSeed)
        return g.statuses(count: count)
    }

    private static let generatedFeed: [Status] = {
        var g = FeedGenerator(seed: generatedSeed)
        return g.statuses(count: generatedCount)
    }()

    /// Half an hour after the newest status of the corpus (2015-09-12 00:23:54 +08:00): the `now`
    /// of the relative-times benchmark (its cells show "N分钟前", "N小时前", "昨天 HH:mm" and "M-d").
    static let corpusNow = Date(timeIntervalSince1970: 1_441_990_434)

    /// The package's fonts directory (`../Fonts`).
    static let fontsDirectory = packageDirectory.deletingLastPathComponent().appendingPathComponent("Fonts")

    /// The fonts of the package (`../Fonts`).
    static let fonts: FontSet = {
        do {
            return try FontSet.load(directory: fontsDirectory)
        } catch {
            fatalError("cannot load the pinned fonts (run `bash scripts/setup.sh` in the package root): \(error)")
        }
    }()

    /// A measurer of its own (its own shaped-word cache).
    static func measurer(cacheBudgetBytes: Int = 32 << 20) -> TextMeasurer {
        TextMeasurer(fonts: fonts, cacheBudgetBytes: cacheBudgetBytes)
    }

    /// The statuses whose texts the text benchmarks measure, and the name of that input.
    static var textSource: (name: String, statuses: [Status]) {
        if let corpus { return ("corpus texts (206 statuses with their retweets)", corpus) }
        return ("texts of the first 1 000 generated statuses (corpus absent)", generated(1_000))
    }

    /// Status and retweet texts at 15 pt.
    static let texts: [AttributedText] = {
        var out: [AttributedText] = []
        for s in textSource.statuses {
            if !s.text.isEmpty { out.append(AttributedText(s.text, size: textSize)) }
            if let r = s.retweetedStatus, !r.text.isEmpty { out.append(AttributedText(r.text, size: textSize)) }
        }
        return out
    }()

    /// Single-line labels at 15 pt: user names and sources.
    static let labels: [String] = {
        var out: [String] = []
        for s in textSource.statuses {
            if !s.user.name.isEmpty { out.append(s.user.name) }
            if !s.source.isEmpty { out.append("来自 " + s.source) }
        }
        return out
    }()

    /// Characters (Unicode scalars, as `feedlayout measure --time` counts them).
    static func characters(_ texts: [AttributedText]) -> Int {
        texts.reduce(0) { $0 + $1.string.unicodeScalars.count }
    }

    /// The 1 000 000 row heights of the table benchmarks.
    static let tableHeights: [Double] = (0..<tableRows).map { 60 + Double(spread($0, below: 541, seed: 7)) }

    /// The `i`-th value of a Weyl sequence in 0..<n: fixed, evenly spread, platform-independent
    /// (multiply-shift, no Double): the benchmarks' heights and query places.
    static func spread(_ i: Int, below n: Int, seed: UInt64) -> Int {
        let x = (UInt64(truncatingIfNeeded: i) &+ seed &* 0x632B_E59B_D9B4_E019) &* 0x9E37_79B9_7F4A_7C15
        return Int(x.multipliedFullWidth(by: UInt64(n)).high)
    }

    /// A plain one-section table of the 1 000 000 rows.
    static func table() -> TableGeometry {
        do {
            return try TableGeometry(
                configuration: TableConfiguration(style: .plain, width: cellWidth, scale: scale),
                sections: [SectionSpec(rowHeights: tableHeights)])
        } catch {
            fatalError("table: \(error)")
        }
    }

    /// The layout options of the cell benchmarks.
    static func feedOptions(_ style: CellStyle, width: Double = cellWidth) -> FeedOptions {
        FeedOptions(width: width, style: style, scale: scale)
    }
}

/// This process's resident-set high-water mark and current size (`VmHWM`, `VmRSS` of
/// /proc/self/status), in bytes; 0 where /proc is absent.
enum ProcessMemory {
    static func field(_ name: String) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
            let digits = line.dropFirst(name.count + 1).filter(\.isNumber)
            return (Int(digits) ?? 0) * 1024
        }
        return 0
    }
    static var highWaterMark: Int { field("VmHWM") }
    static var resident: Int { field("VmRSS") }
}
