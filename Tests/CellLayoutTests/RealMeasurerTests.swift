import Foundation
import StatusModel
import TextMeasure
import XCTest
import _LayoutTestSupport

@testable import CellLayout

/// Cells laid out with the real FreeType/HarfBuzz measurer and the pinned fonts: the section-1
/// relations hold exactly on real measured text, and the Weibo invariants hold on the corpus.
final class RealMeasurerTests: XCTestCase {
    private static let measurer: Result<TextMeasurer, TextMeasureError> = {
        do throws(TextMeasureError) {
            return .success(TextMeasurer(fonts: try FontSet.load(directory: TestPaths.fonts)))
        } catch {
            return .failure(error)
        }
    }()

    private func measurer() throws -> TextMeasurer {
        switch Self.measurer {
        case .success(let m): return m
        case .failure(let e): throw XCTSkip("pinned fonts are not installed (run scripts/setup.sh): \(e)")
        }
    }

    private func fixture(_ name: String) throws -> [Status] {
        let url = TestPaths.fixtures.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else { throw XCTSkip("Fixtures/\(name) is absent") }
        return try FeedLoader.load(contentsOf: url).feed.statuses
    }

    /// Time lines that differ in digits share an entry of the label cache and are copied with
    /// their own digits: every cell of an engine that copied them equals the cell a fresh engine
    /// lays out (which prepares its line), with relative and absolute times.
    func testTimeLinesCopiedByDigitsAreExact() throws {
        let m = try measurer()
        var generator = FeedGenerator(seed: 7)
        // Generated statuses, and lines of every shape: no source, no time (neither a date nor
        // a text), a time text, sources with digits of their own.
        var statuses = generator.statuses(count: 300)
        let sources = ["", "iPhone 15 Pro", "微博 weibo.com", "HUAWEI Mate 60", "2"]
        let times: [(Date?, String?)] = [(nil, nil), (nil, "刚刚"), (nil, "3分钟前"), (nil, "11-24 14:32")]
        for i in 0..<120 {
            let (date, text) = i % 3 == 0 ? times[i / 3 % times.count] : (Date(timeIntervalSince1970: 1_448_000_000 - Double(i) * 4_099), nil)
            statuses.append(
                Status(id: Int64(10_000 + i), createdAt: date, createdAtText: text, source: sources[i % sources.count], text: "正文 \(i)",
                       user: User(id: 2, name: "u")))
        }
        for now in [nil, CorpusTests.now] {
            let shared = CellLayoutEngine(measurer: m, now: now)
            for s in statuses {
                let fresh = CellLayoutEngine(measurer: m, now: now)
                XCTAssertEqual(shared.layout(s, width: 375, style: .weibo, scale: 2), fresh.layout(s, width: 375, style: .weibo, scale: 2))
            }
            let stats = shared.labels.timeLineStatistics
            XCTAssertGreaterThan(stats.hits, statuses.count / 2, "time lines found: \(stats)")
        }
    }

    /// Count labels of one shape are copied from its first label with their own digits: every
    /// cell of an engine that copied them equals the cell a fresh engine lays out (which
    /// prepares its labels), for counts of every shape, liked and not.
    func testCountLabelsCopiedByShapeAreExact() throws {
        let m = try measurer()
        let counts = [0, 1, 7, 10, 42, 99, 100, 305, 1000, 4321, 9_999, 10_000, 56_789, 123_456, 9_999_999, 10_000_000, 987_654_321]
        var statuses: [Status] = []
        for (i, c) in counts.enumerated() {
            for k in 0..<3 {
                var s = Status(
                    id: Int64(i * 3 + k), text: "正文", user: User(id: 2, name: "u"), repostsCount: c,
                    commentsCount: counts[(i + k + 1) % counts.count], attitudesCount: counts[(i + 2 * k + 3) % counts.count])
                s.liked = k == 1
                statuses.append(s)
            }
        }
        let shared = CellLayoutEngine(measurer: m)
        for s in statuses {
            let fresh = CellLayoutEngine(measurer: m)
            XCTAssertEqual(shared.layout(s, width: 375, style: .weibo, scale: 2), fresh.layout(s, width: 375, style: .weibo, scale: 2))
        }
        let shapes = shared.labels.shapeStatistics
        XCTAssertGreaterThanOrEqual(shapes.hits, 10, "labels copied: \(shapes)")
        // Nine shapes (one to four digits, one to three before 万, one or two before 千万) in two roles.
        XCTAssertLessThanOrEqual(shapes.misses, 18, "shapes prepared: \(shapes)")
    }

    /// The engine caches its cells' texts in its prepared-cell cache, so it prepares them past the
    /// measurer's prepared-text cache (neither read nor filled), and the result is the same as
    /// through it.
    func testCellTextsBypassTheMeasurersPreparedTextCache() throws {
        let fonts = try FontSet.load(directory: TestPaths.fonts)
        let m = TextMeasurer(fonts: fonts)
        let statuses = try fixture("feed.plist")
        let engine = CellLayoutEngine(measurer: m, now: CorpusTests.now)
        let cells = statuses.map { engine.layout($0, width: 375, style: .weibo, scale: 2) }
        let textCache = m.preparedCacheStatistics
        XCTAssertEqual(textCache.hits + textCache.misses, 0, "the cell engine consulted the prepared-text cache")
        XCTAssertEqual(textCache.entries, 0)
        XCTAssertGreaterThan(m.cacheStatistics.misses, 0, "no word was shaped")
        // Through the prepared-text cache (a measurer used directly): equal prepared texts.
        for c in cells {
            guard let text = c.text else { continue }
            let through = m.prepare(text.prepared.text)
            XCTAssertEqual(PreparedTextBox(through), text.preparedBox)
        }
        XCTAssertGreaterThan(m.preparedCacheStatistics.misses, 0)
    }

    func testClassicSectionOneRelationsOnRealText() throws {
        let m = try measurer()
        let statuses = try fixture("StatusInfo.plist")
        let engine = CellLayoutEngine(measurer: m, now: CorpusTests.now)
        for s in statuses {
            for w in CorpusTests.widths {
                for scale in CorpusTests.scales {
                    let grid = PixelGrid(scale: scale)
                    let eps = 1e-9  // 1/3-point grid values differ in the last bit depending on the order of operations
                    let c = engine.layout(s, width: w, style: .classic, scale: scale)
                    let failures = Invariants.checkClassic(c, status: s)
                    XCTAssertTrue(failures.isEmpty, "status \(s.id) at \(w)@\(scale)x: \(failures)")
                    // Name and date sizes are the measured single-line sizes at 14 and 12 pt,
                    // rounded up to the pixel grid (the name may be clipped at the right padding).
                    let name = m.singleLineSize(s.user.name, attributes: TextAttributes(size: 14))
                    XCTAssertEqual(c.name.frame.height, grid.ceil(name.height), accuracy: eps)
                    XCTAssertEqual(c.name.frame.width, min(grid.ceil(name.width), w - 10 - 60), accuracy: eps)
                    let date = m.singleLineSize(s.createdAtText ?? "", attributes: TextAttributes(size: 12))
                    XCTAssertEqual(c.time.frame.height, grid.ceil(date.height), accuracy: eps)
                    XCTAssertEqual(c.time.frame.maxY, 50, accuracy: eps)
                    // The text is the bounding size of a 14 pt text at W − 20 with natural lines.
                    guard !s.text.isEmpty else {
                        XCTAssertNil(c.text)
                        XCTAssertEqual(c.height, 70)
                        continue
                    }
                    let text = m.layout(AttributedText(s.text, size: 14), LayoutOptions(width: w - 20, grid: grid))
                    XCTAssertEqual(c.text?.frame.width ?? -1, text.size.width, accuracy: eps, "status \(s.id) at \(w)")
                    XCTAssertEqual(c.text?.frame.height ?? -1, text.size.height, accuracy: eps, "status \(s.id) at \(w)")
                    XCTAssertEqual(c.height, 60 + text.size.height + 10, accuracy: eps)
                }
            }
        }
    }

    func testWeiboInvariantsOnTheCorpusWithRealText() throws {
        let m = try measurer()
        guard let loaded = CorpusTests.loaded else { throw XCTSkip(TestPaths.sharedCorpusSkipMessage) }
        let (statuses, emoticons) = try loaded.get()
        XCTAssertEqual(statuses.count, 206)
        let engine = CellLayoutEngine(measurer: m, emoticons: emoticons, now: CorpusTests.now)
        var lines = 0
        for s in statuses {
            let prepared = engine.prepare(s, style: .weibo)
            for w in CorpusTests.widths {
                for scale in CorpusTests.scales {
                    let c = prepared.layout(width: w, scale: scale)
                    let failures = Invariants.checkWeibo(c, status: s)
                    XCTAssertTrue(failures.isEmpty, "status \(s.id) at \(w)@\(scale)x:\n  " + failures.prefix(6).joined(separator: "\n  "))
                    lines += c.text?.layout.lines.count ?? 0
                }
            }
        }
        XCTAssertGreaterThan(lines, statuses.count * 6)
    }
}

/// `PreparedCell.heights` (no frames built) against the full layout, on real measured text.
final class HeightTests: XCTestCase {
    func testHeightsEqualTheFullLayoutEverywhere() throws {
        let fonts: FontSet
        do { fonts = try FontSet.load(directory: TestPaths.fonts) } catch {
            throw XCTSkip("pinned fonts are not installed (run scripts/setup.sh): \(error)")
        }
        let engine = CellLayoutEngine(measurer: TextMeasurer(fonts: fonts), now: CorpusTests.now)
        var statuses = try FeedLoader.load(contentsOf: TestPaths.fixtures.appendingPathComponent("feed.plist")).feed.statuses
        statuses += try FeedLoader.load(contentsOf: TestPaths.fixtures.appendingPathComponent("StatusInfo.plist")).feed.statuses
        if let files = TestPaths.weiboCorpusFiles {
            for f in files { statuses += try FeedLoader.load(contentsOf: f).feed.statuses }
        }
        var checked = 0
        for s in statuses {
            for style in [CellStyle.weibo, .classic] {
                let prepared = engine.prepare(s, style: style)
                for w in [0.0, 120, 320, 355, 375, 414, 768, 1024] {
                    for scale in [1.0, 2, 3] {
                        for limit in [nil, 6] as [Int?] {
                            let full = prepared.layout(width: w, scale: scale, maxTextLines: limit)
                            let h = prepared.heights(width: w, scale: scale, maxTextLines: limit)
                            XCTAssertEqual(h.height, full.height, "status \(s.id) \(style.name) at \(w)@\(scale)x, limit \(limit ?? 0)")
                            XCTAssertEqual(h.expandedHeight, full.expandedHeight, "status \(s.id) \(style.name) at \(w)@\(scale)x")
                            checked += 1
                        }
                    }
                }
            }
        }
        XCTAssertGreaterThan(checked, 2_000)
    }
}
