import CellLayout
import Foundation
import StatusModel
import TextMeasure
import XCTest
import _LayoutTestSupport
@testable import TableLayout

/// FeedDocument: sections with measured titles, edits and batches at several held widths,
/// compared after every one of thousands of seeded random operations with a naive rebuild.
final class FeedDocumentTests: XCTestCase {
    struct Mismatch: Error, CustomStringConvertible { var description: String }

    /// One row of the model: an identity, its status and its height at each held width.
    struct Entry {
        var uid: Int
        var status: Status
        var heights: [Double]
    }

    struct ModelSection {
        var header: FeedSectionDecoration
        var footer: FeedSectionDecoration
        var rows: [Entry]
        /// Header and footer heights at each held width, computed once when the section is made.
        var headerHeights: [Double] = []
        var footerHeights: [Double] = []
    }

    let widths: [Double] = [375, 320]
    let scale = 2.0

    // MARK: Deterministic cases

    func testSectionsWithFixedAndMeasuredTitles() throws {
        let statuses = FeedFixtures.generated(30)
        let (engine, _) = FeedFixtures.fakeEngine()
        let long = String(repeating: "很长的分组标题", count: 7)  // 49 wide characters: 2 lines at 414, 3 at 320
        var doc = try FeedDocument(engine: engine, options: FeedOptions(width: 414, scale: 2), sections: [
            FeedSection(header: .title("今天"), statuses: Array(statuses[0..<10]), footer: .fixed(12.5)),
            FeedSection(header: .fixed(30), statuses: [], footer: .none),
            FeedSection(header: .title(long), statuses: Array(statuses[10...]), footer: .title("end")),
        ], threads: 1)
        let narrow = try doc.layout(forWidth: 320)
        let g = doc.geometry
        XCTAssertEqual(g.numberOfSections, 3)
        XCTAssertEqual(g.rectForFooter(inSection: 0).height, 12.5)
        XCTAssertEqual(g.rectForHeader(inSection: 1).height, 30)
        XCTAssertEqual(g.numberOfRows(inSection: 1), 0)
        // One line of 14 pt text plus 2 × 8 pt padding (fixed-advance measurer: 0.8 + 0.2 em).
        XCTAssertEqual(g.rectForHeader(inSection: 0).height, 14 + 16)
        // The long title wraps more at 320 than at 414.
        XCTAssertGreaterThan(narrow.rectForHeader(inSection: 2).height, g.rectForHeader(inSection: 2).height)
        XCTAssertGreaterThan(g.rectForHeader(inSection: 2).height, 30)
        // Rows follow their section header.
        XCTAssertEqual(g.rectForRow(TableIndexPath(section: 0, row: 0)).y, g.rectForHeader(inSection: 0).maxY)
        XCTAssertEqual(g.rectForRow(TableIndexPath(section: 2, row: 0)).y, g.rectForHeader(inSection: 2).maxY)
        XCTAssertEqual(doc.geometry.indexPathForRow(at: g.rectForRow(TableIndexPath(section: 2, row: 4)).y + 1), TableIndexPath(section: 2, row: 4))
        XCTAssertNil(doc.geometry.indexPathForRow(at: g.rectForHeader(inSection: 1).y + 1), "headers are not rows")
        // Invalid fixed heights are input errors.
        XCTAssertThrowsError(try FeedDocument(engine: engine, options: FeedOptions(width: 375), sections: [
            FeedSection(header: .fixed(-1), statuses: [])]))
        XCTAssertThrowsError(try doc.insertSection(FeedSection(footer: .fixed(.infinity)), at: 0))
        XCTAssertEqual(doc.numberOfSections, 3, "a failed insert changes nothing")
        XCTAssertEqual(doc.geometry(forWidth: 320)?.numberOfSections, 3)
    }

    func testAppendPageCostsOnlyTheNewRows() throws {
        let statuses = FeedFixtures.generated(200)
        let (engine, _) = FeedFixtures.fakeEngine()
        var doc = try FeedDocument(engine: engine, options: FeedOptions(width: 375), statuses: Array(statuses[..<100]), threads: 2)
        _ = try doc.layout(forWidth: 320)
        let before = engine.layouts.statistics
        doc.appendPage(Array(statuses[100..<180]))
        doc.appendPage(Array(statuses[180...]))
        let after = engine.layouts.statistics
        XCTAssertEqual(after.misses - before.misses, 2 * 100, "one cell per new row and held width")
        XCTAssertEqual(after.hits, before.hits, "no old row looked up")
        let full = try FeedDocument(engine: FeedFixtures.fakeEngine().0, options: FeedOptions(width: 375), statuses: statuses, threads: 1)
        XCTAssertEqual(doc.geometry, full.geometry)
        let feedLayout = try FeedFixtures.fakeEngine().0.layout(statuses, options: FeedOptions(width: 375))
        XCTAssertEqual(doc.geometry, feedLayout.geometry, "a one-section document places rows as FeedGeometry does")
    }

    func testReloadSectionCollapseAndEmptiedSectionRemoval() throws {
        let statuses = FeedFixtures.generated(12)
        let (engine, _) = FeedFixtures.fakeEngine()
        var doc = try FeedDocument(engine: engine, options: FeedOptions(width: 375), sections: [
            FeedSection(header: .fixed(20), statuses: Array(statuses[0..<5])),
            FeedSection(header: .title("单独一条"), statuses: [statuses[5]]),
            FeedSection(statuses: Array(statuses[6...]), footer: .fixed(8)),
        ], threads: 1)
        _ = try doc.layout(forWidth: 320)
        func rebuilt(_ width: Double) throws -> TableGeometry {
            var o = doc.options
            o.width = width
            return try FeedDocument(engine: engine, options: o, sections: doc.feedSections, threads: 1).geometry
        }
        // Deleting section 1's only row with removesEmptiedSections removes the section too.
        var batch = FeedBatchUpdate()
        batch.deletedRows = [TableIndexPath(section: 1, row: 0)]
        batch.removesEmptiedSections = true
        batch.reloadedRows = [.init(TableIndexPath(section: 0, row: 2), FeedFixtures.liked(statuses[2]))]
        try doc.performBatchUpdates(batch)
        XCTAssertEqual(doc.numberOfSections, 2)
        XCTAssertEqual(doc.status(at: TableIndexPath(section: 0, row: 2)).attitudesCount, statuses[2].attitudesCount + 1)
        XCTAssertEqual(doc.statuses(inSection: 1).map(\.id), statuses[6...].map(\.id))
        for w in [375.0, 320] { XCTAssertEqual(doc.geometry(forWidth: w), try rebuilt(w), "width \(w)") }
        // A section reload: cached statuses hit, headers re-measured.
        let misses = engine.layouts.statistics.misses
        try doc.reloadSection(1, with: FeedSection(header: .title("重新加载"), statuses: Array(statuses[0..<3].reversed())))
        XCTAssertEqual(engine.layouts.statistics.misses, misses, "statuses laid out before are hits")
        for w in [375.0, 320] { XCTAssertEqual(doc.geometry(forWidth: w), try rebuilt(w), "width \(w)") }
        // Collapsing hides the rows, keeps the header; every held width follows.
        let before = doc.geometry.contentHeight
        doc.setExpanded(false, section: 0)
        XCTAssertTrue(doc.geometry.isCollapsed(0))
        XCTAssertEqual(doc.geometry(forWidth: 320)?.isCollapsed(0), true)
        XCTAssertLessThan(doc.geometry.contentHeight, before)
        XCTAssertEqual(doc.geometry.rectForRow(TableIndexPath(section: 0, row: 1)).height, 0)
        XCTAssertEqual(doc.geometry.indexPathsForRows(in: 0..<25).map(\.section), [], "only the header is visible at the top")
        doc.setExpanded(true, section: 0)
        XCTAssertEqual(doc.geometry.contentHeight, before)
    }

    func testStatusListMatchesArray() {
        let pool = FeedFixtures.generated(50, seed: 12)
        for seed: UInt64 in [1, 2] {
            var rng = SplitMix64(seed: seed)
            var list = StatusList(Array(pool[..<20]))
            var array = Array(pool[..<20])
            for op in 0..<1500 {
                switch Int.random(in: 0..<5, using: &rng) {
                case 0, 1:
                    let i = Int.random(in: 0...array.count, using: &rng)
                    let new = (0..<Int.random(in: 1...40, using: &rng)).map { _ in pool.randomElement(using: &rng)! }
                    list.insert(contentsOf: new, at: i)
                    array.insert(contentsOf: new, at: i)
                case 2 where !array.isEmpty:
                    let i = Int.random(in: 0..<array.count, using: &rng)
                    let end = min(array.count, i + Int.random(in: 1...50, using: &rng))
                    list.removeSubrange(i..<end)
                    array.removeSubrange(i..<end)
                case 3 where !array.isEmpty:
                    let i = Int.random(in: 0..<array.count, using: &rng)
                    XCTAssertEqual(list.remove(at: i), array.remove(at: i))
                case 4 where !array.isEmpty:
                    let i = Int.random(in: 0..<array.count, using: &rng)
                    let s = FeedFixtures.liked(array[i])
                    list[i] = s
                    array[i] = s
                default:
                    break
                }
                if list.count != array.count || (op % 50 == 0 && list.array != array) {
                    return XCTFail("seed \(seed) op \(op): list and array disagree")
                }
            }
            XCTAssertEqual(list.array, array, "seed \(seed)")
            XCTAssertGreaterThan(array.count, 100, "deep enough to split leaves of 32")
        }
    }

    // MARK: Randomized

    func testRandomEditsAgainstNaiveRebuild() throws {
        for seed: UInt64 in [1, 2, 3] {
            try run(seed: seed, operations: 700)
        }
    }

    func testRandomEditsGroupedStyle() throws {
        try run(seed: 17, operations: 500, tableStyle: .grouped)
    }

    func run(seed: UInt64, operations: Int, tableStyle: TableStyle = .plain) throws {
        var rng = SplitMix64(seed: seed)
        let pool = FeedFixtures.generated(120, seed: seed)
        let (engine, _) = FeedFixtures.fakeEngine()
        let reference = FeedFixtures.fakeEngine().0
        let base = FeedOptions(width: widths[0], scale: scale, tableStyle: tableStyle)
        var nextUID = 0
        func entry(_ s: Status) -> Entry {
            nextUID += 1
            return Entry(uid: nextUID, status: s, heights: widths.map { w in
                var o = base
                o.width = w
                return reference.cell(for: s, options: o).height
            })
        }
        func randomStatus(_ rng: inout SplitMix64) -> Status {
            let s = pool[Int.random(in: 0..<pool.count, using: &rng)]
            return Bool.random(using: &rng) ? s : FeedFixtures.liked(s)
        }
        func randomDecoration(_ rng: inout SplitMix64) -> FeedSectionDecoration {
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: .none
            case 1: .fixed(Double(Int.random(in: 0...60, using: &rng)) / 2)
            case 2: .title("分组 \(Int.random(in: 0...99, using: &rng))")
            default: .title(String(repeating: "标题Title ", count: Int.random(in: 1...8, using: &rng)))
            }
        }
        var model: [ModelSection] = (0..<3).map { _ in
            ModelSection(header: randomDecoration(&rng), footer: randomDecoration(&rng),
                         rows: (0..<Int.random(in: 0...8, using: &rng)).map { _ in entry(randomStatus(&rng)) })
        }
        for k in model.indices { decorate(&model[k], reference, base) }
        var doc = try FeedDocument(engine: engine, options: base, sections: model.map(feedSection), threads: 2)
        _ = try doc.layout(forWidth: widths[1])
        var history: [String] = []
        for op in 0..<operations {
            let name = try randomEdit(&doc, &model, &rng, entry: entry, randomStatus: randomStatus, randomDecoration: randomDecoration)
            history.append(name)
            do {
                try compare(doc, model, &rng)
            } catch let m as Mismatch {
                XCTFail("seed \(seed) op \(op) (\(history.suffix(3).joined(separator: " → "))): \(m)")
                return
            }
        }
    }

    func feedSection(_ s: ModelSection) -> FeedSection {
        FeedSection(header: s.header, statuses: s.rows.map(\.status), footer: s.footer)
    }

    func randomRow(_ model: [ModelSection], _ rng: inout SplitMix64) -> TableIndexPath? {
        let filled = model.indices.filter { !model[$0].rows.isEmpty }
        guard let s = filled.randomElement(using: &rng) else { return nil }
        return TableIndexPath(section: s, row: Int.random(in: 0..<model[s].rows.count, using: &rng))
    }

    func randomEdit(
        _ doc: inout FeedDocument, _ model: inout [ModelSection], _ rng: inout SplitMix64,
        entry: (Status) -> Entry, randomStatus: (inout SplitMix64) -> Status, randomDecoration: (inout SplitMix64) -> FeedSectionDecoration
    ) throws -> String {
        if model.isEmpty {
            var s = ModelSection(header: randomDecoration(&rng), footer: randomDecoration(&rng), rows: [entry(randomStatus(&rng))])
            decorate(&s, doc.engine, doc.options)
            try doc.insertSection(feedSection(s), at: 0)
            model.append(s)
            return "insertSection(0)"
        }
        switch Int.random(in: 0..<100, using: &rng) {
        case 0..<22:
            let s = Int.random(in: 0..<model.count, using: &rng)
            let r = Int.random(in: 0...model[s].rows.count, using: &rng)
            let new = (0..<Int.random(in: 1...3, using: &rng)).map { _ in entry(randomStatus(&rng)) }
            doc.insertRows(new.map(\.status), at: TableIndexPath(section: s, row: r))
            model[s].rows.insert(contentsOf: new, at: r)
            return "insertRows(\(s),\(r),\(new.count))"
        case 22..<36:
            guard let ip = randomRow(model, &rng) else { return "noop" }
            let end = min(model[ip.section].rows.count, ip.row + Int.random(in: 1...3, using: &rng))
            doc.deleteRows(inSection: ip.section, rows: ip.row..<end)
            model[ip.section].rows.removeSubrange(ip.row..<end)
            return "deleteRows(\(ip),..<\(end))"
        case 36..<50:
            guard let from = randomRow(model, &rng) else { return "noop" }
            let e = model[from.section].rows.remove(at: from.row)
            let s = Int.random(in: 0..<model.count, using: &rng)
            let to = TableIndexPath(section: s, row: Int.random(in: 0...model[s].rows.count, using: &rng))
            model[s].rows.insert(e, at: to.row)
            doc.moveRow(from: from, to: to)
            return "moveRow(\(from)→\(to))"
        case 50..<62:
            guard let ip = randomRow(model, &rng) else { return "noop" }
            let e = entry(randomStatus(&rng))
            doc.reloadRow(at: ip, with: e.status)
            model[ip.section].rows[ip.row] = e
            return "reloadRow(\(ip))"
        case 62..<68:
            let page = (0..<Int.random(in: 1...6, using: &rng)).map { _ in entry(randomStatus(&rng)) }
            doc.appendPage(page.map(\.status))
            model[model.count - 1].rows += page
            return "appendPage(\(page.count))"
        case 68..<74:
            let at = Int.random(in: 0...model.count, using: &rng)
            var s = ModelSection(header: randomDecoration(&rng), footer: randomDecoration(&rng),
                                 rows: (0..<Int.random(in: 0...5, using: &rng)).map { _ in entry(randomStatus(&rng)) })
            decorate(&s, doc.engine, doc.options)
            try doc.insertSection(feedSection(s), at: at)
            model.insert(s, at: at)
            return "insertSection(\(at))"
        case 74..<78:
            guard model.count > 1 else { return "noop" }
            let s = Int.random(in: 0..<model.count, using: &rng)
            doc.deleteSection(s)
            model.remove(at: s)
            return "deleteSection(\(s))"
        case 78..<82:
            let from = Int.random(in: 0..<model.count, using: &rng)
            let sec = model.remove(at: from)
            let to = Int.random(in: 0...model.count, using: &rng)
            model.insert(sec, at: to)
            doc.moveSection(from: from, to: to)
            return "moveSection(\(from)→\(to))"
        default:
            return try randomBatch(&doc, &model, &rng, entry: entry, randomStatus: randomStatus)
        }
    }

    /// A random valid batch: the model is edited by identity (remove, then insert at random places),
    /// and the batch's "after" index paths are read from the final model.
    func randomBatch(
        _ doc: inout FeedDocument, _ model: inout [ModelSection], _ rng: inout SplitMix64,
        entry: (Status) -> Entry, randomStatus: (inout SplitMix64) -> Status
    ) throws -> String {
        var batch = FeedBatchUpdate()
        let old = model
        var deletedSection: Int?
        if model.count > 1 && Int.random(in: 0..<5, using: &rng) == 0 { deletedSection = Int.random(in: 0..<model.count, using: &rng) }
        var removed = Set<TableIndexPath>()
        var moving: [(TableIndexPath, Entry)] = []
        for _ in 0..<Int.random(in: 0...4, using: &rng) {
            guard let ip = randomRow(old, &rng), ip.section != deletedSection, removed.insert(ip).inserted else { continue }
            if Bool.random(using: &rng) {
                batch.deletedRows.append(ip)
            } else {
                moving.append((ip, old[ip.section].rows[ip.row]))
            }
        }
        var reloadedUIDs: [Int: Entry] = [:]
        for _ in 0..<Int.random(in: 0...2, using: &rng) {
            guard let ip = randomRow(old, &rng), ip.section != deletedSection, !removed.contains(ip) else { continue }
            let uid = old[ip.section].rows[ip.row].uid
            guard reloadedUIDs[uid] == nil else { continue }
            var e = entry(randomStatus(&rng))
            e.uid = uid
            reloadedUIDs[uid] = e
            batch.reloadedRows.append(.init(ip, e.status))
        }
        // Delete phase on the model (by identity).
        let removedUIDs = Set(removed.map { old[$0.section].rows[$0.row].uid })
        for s in model.indices { model[s].rows.removeAll { removedUIDs.contains($0.uid) } }
        for s in model.indices { model[s].rows = model[s].rows.map { reloadedUIDs[$0.uid] ?? $0 } }
        if let d = deletedSection {
            batch.deletedSections = [d]
            model.remove(at: d)
        }
        // A section moved with its rows (its source index is the old one, its destination final).
        if let from = old.indices.filter({ $0 != deletedSection }).randomElement(using: &rng), Bool.random(using: &rng) {
            let section = model.remove(at: from - (deletedSection.map { $0 < from ? 1 : 0 } ?? 0))
            let to = Int.random(in: 0...model.count, using: &rng)
            model.insert(section, at: to)
            batch.movedSections = [.init(from: from, to: to)]
        }
        // Insert phase: new rows and moved rows at random places of the final model.
        var placed: [Int: Bool] = [:]  // uid → is a move
        let inserted = (0..<Int.random(in: 0...3, using: &rng)).map { _ in entry(randomStatus(&rng)) }
        var items = inserted.map { ($0, false) } + moving.map { ($0.1, true) }
        items.shuffle(using: &rng)
        if model.isEmpty { items = [] }
        for (e, isMove) in items {
            let s = Int.random(in: 0..<model.count, using: &rng)
            model[s].rows.insert(e, at: Int.random(in: 0...model[s].rows.count, using: &rng))
            placed[e.uid] = isMove
        }
        if model.isEmpty {
            // Everything went with the deleted section: undo the batch as a no-op.
            model = old
            return "batch(noop)"
        }
        for (s, sec) in model.enumerated() {
            for (r, e) in sec.rows.enumerated() {
                guard let isMove = placed[e.uid] else { continue }
                let ip = TableIndexPath(section: s, row: r)
                if isMove {
                    let from = moving.first { $0.1.uid == e.uid }!.0
                    batch.movedRows.append(.init(from: from, to: ip))
                } else {
                    batch.insertedRows.append(.init(ip, e.status))
                }
            }
        }
        // A moved row that was also reloaded keeps the reloaded status: not possible here
        // (reloads skip removed rows), so the moved entries are the old ones.
        try doc.performBatchUpdates(batch)
        return "batch(-\(batch.deletedRows.count) ~\(batch.reloadedRows.count) ↔\(batch.movedRows.count) +\(batch.insertedRows.count)"
            + " sections moved \(batch.movedSections.map { "\($0.from)→\($0.to)" })"
            + " sections -\(batch.deletedSections))"
    }

    func compare(_ doc: FeedDocument, _ model: [ModelSection], _ rng: inout SplitMix64) throws {
        guard doc.numberOfSections == model.count else { throw Mismatch(description: "sections \(doc.numberOfSections) vs \(model.count)") }
        for (s, sec) in model.enumerated() {
            // Pool statuses have distinct ids; their variants differ in the like count.
            let ids = doc.statuses(inSection: s).map { [$0.id, Int64($0.attitudesCount)] }
            guard ids == sec.rows.map({ [$0.status.id, Int64($0.status.attitudesCount)] }) else {
                throw Mismatch(description: "statuses of section \(s)")
            }
        }
        for (w, width) in widths.enumerated() {
            guard let g = doc.geometry(forWidth: width) else { throw Mismatch(description: "width \(width) not held") }
            var naive = NaiveTable(configuration: g.configuration)
            naive.sections = model.enumerated().map { k, sec in
                NaiveSection(
                    id: k, header: pixels(sec.headerHeights[w]), footer: pixels(sec.footerHeights[w]),
                    rows: sec.rows.map { pixels($0.heights[w]) }, collapsed: false)
            }
            let l = naive.layout()
            func check(_ ok: Bool, _ what: @autoclosure () -> String) throws {
                if !ok { throw Mismatch(description: "width \(width): \(what())") }
            }
            try check(g.contentHeight == naive.pt(l.content), "content \(g.contentHeight) vs \(naive.pt(l.content))")
            for (s, sec) in model.enumerated() {
                try check(g.rectForHeader(inSection: s) == naive.rect(l.sectionTop[s], naive.sections[s].header), "header \(s)")
                try check(g.rectForFooter(inSection: s) == naive.rect(l.footerTop[s], naive.sections[s].footer), "footer \(s)")
                for r in sec.rows.indices {
                    let ip = TableIndexPath(section: s, row: r)
                    let want = naive.rect(l.rowTop[s][r], naive.sections[s].rows[r])
                    try check(g.rectForRow(ip) == want, "rect \(ip): \(g.rectForRow(ip)) vs \(want)")
                }
            }
            let total = naive.pt(l.content)
            var ys = (0..<8).map { _ in Double.random(in: -5...(total + 5), using: &rng) }
            for (_, top, _) in l.visibleRows.prefix(3) { ys.append(naive.pt(top)) }
            for y in ys {
                try check(g.indexPathForRow(at: y) == naive.indexPathForRow(at: y, l), "row at \(y)")
            }
            for _ in 0..<3 {
                let a = Double.random(in: -5...(total + 5), using: &rng)
                let b = a + Double.random(in: 0...400, using: &rng)
                try check(g.indexPathsForRows(in: a..<b) == naive.indexPaths(in: a..<b, l), "rows in \(a)..<\(b)")
            }
        }
    }

    /// Header and footer heights of a model section at every held width (titles laid out through
    /// the document's documented rule, from a fresh preparation of the title).
    func decorate(_ s: inout ModelSection, _ engine: FeedEngine, _ base: FeedOptions) {
        func heights(_ d: FeedSectionDecoration) -> [Double] {
            var title: PreparedText?
            if case .title(let t) = d {
                title = engine.cellEngine.measurer.prepare(AttributedText(t, size: FeedTitleMetrics.fontSize, weight: .bold))
            }
            return widths.map { w in
                var o = base
                o.width = w
                return FeedDocument.decorationHeight(d, title, o)
            }
        }
        s.headerHeights = heights(s.header)
        s.footerHeights = heights(s.footer)
    }

    func pixels(_ points: Double) -> Int64 { Int64((points * scale).rounded()) }
}
