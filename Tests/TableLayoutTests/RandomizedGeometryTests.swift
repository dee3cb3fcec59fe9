import XCTest
import _LayoutTestSupport
@testable import TableLayout

/// Thousands of seeded random edits; after each one every query of `TableGeometry` is compared with
/// `NaiveTable`. A failure message starts with the seed and the operation number to replay it.
final class RandomizedGeometryTests: XCTestCase {
    struct Mismatch: Error, CustomStringConvertible {
        var description: String
    }

    func testRandomEditsPlainDeepTree() throws {
        for seed: UInt64 in [1, 2, 3] {
            try run(seed: seed, operations: 500, style: .plain, scale: 2, shape: TreeShape(leafCapacity: 4, fanout: 4))
        }
    }

    func testRandomEditsGroupedDeepTree() throws {
        for seed: UInt64 in [11, 12] {
            try run(seed: seed, operations: 500, style: .grouped, scale: 3, shape: TreeShape(leafCapacity: 5, fanout: 4))
        }
    }

    func testRandomEditsPlainSpacedStandardShape() throws {
        try run(seed: 21, operations: 500, style: .plain, scale: 1, shape: .standard, spacing: 1)
    }

    func testRandomEditsMediumShape() throws {
        try run(seed: 31, operations: 500, style: .plain, scale: 3, shape: TreeShape(leafCapacity: 8, fanout: 6), spacing: 0.5)
    }

    /// A longer sweep for local runs: `TABLELAYOUT_FUZZ_SEEDS=200 swift test --filter TableLayoutTests`.
    func testExtendedSeedSweepFromEnvironment() throws {
        guard let value = ProcessInfo.processInfo.environment["TABLELAYOUT_FUZZ_SEEDS"], let seeds = UInt64(value) else {
            throw XCTSkip("set TABLELAYOUT_FUZZ_SEEDS=<count> to run a longer seed sweep")
        }
        for seed in 1000..<(1000 + seeds) {
            let style: TableStyle = seed % 2 == 0 ? .plain : .grouped
            let shape = TreeShape(leafCapacity: 4 + Int(seed % 5), fanout: 4 + Int(seed % 3))
            try run(seed: seed, operations: 300, style: style, scale: Double(1 + seed % 3), shape: shape,
                    spacing: seed % 4 == 0 ? 0.5 : nil)
        }
    }

    // MARK: Driver

    func run(seed: UInt64, operations: Int, style: TableStyle, scale: Double, shape: TreeShape, spacing: Double? = nil) throws {
        var rng = SplitMix64(seed: seed)
        let config = TableConfiguration(style: style, width: 375, scale: scale, sectionSpacing: spacing)
        var naive = NaiveTable(configuration: config)
        naive.tableHeader = Int64.random(in: 0...40, using: &rng)
        naive.tableFooter = Int64.random(in: 0...40, using: &rng)
        for _ in 0..<Int.random(in: 0...4, using: &rng) {
            naive.sections.append(randomSection(&naive, &rng, maxRows: 12))
        }
        var geometry = try TableGeometry(
            configuration: config, tableHeaderHeight: naive.pt(naive.tableHeader), tableFooterHeight: naive.pt(naive.tableFooter),
            sections: naive.geometrySpecs, shape: shape)
        var history: [String] = []
        for op in 0..<operations {
            let name = try randomEdit(&geometry, &naive, &rng)
            history.append(name)
            do {
                try compare(geometry, naive, &rng)
            } catch let m as Mismatch {
                XCTFail("seed \(seed) op \(op) (\(history.suffix(3).joined(separator: " → "))): \(m)")
                return
            }
        }
    }

    func randomHeight(_ rng: inout SplitMix64) -> Int64 {
        switch Int.random(in: 0..<10, using: &rng) {
        case 0: 0
        case 1: Int64.random(in: 1...3, using: &rng)
        default: Int64.random(in: 4...200, using: &rng)
        }
    }

    func randomSection(_ naive: inout NaiveTable, _ rng: inout SplitMix64, maxRows: Int) -> NaiveSection {
        let rows = (0..<Int.random(in: 0...maxRows, using: &rng)).map { _ in randomHeight(&rng) }
        return naive.makeSection(
            header: Bool.random(using: &rng) ? Int64.random(in: 0...60, using: &rng) : 0, rows: rows,
            footer: Bool.random(using: &rng) ? Int64.random(in: 0...30, using: &rng) : 0,
            collapsed: Int.random(in: 0..<5, using: &rng) == 0)
    }

    func spec(_ s: NaiveSection, _ naive: NaiveTable) -> SectionSpec {
        SectionSpec(headerHeight: naive.pt(s.header), rowHeights: s.rows.map(naive.pt), footerHeight: naive.pt(s.footer), isCollapsed: s.collapsed)
    }

    func randomRow(_ naive: NaiveTable, _ rng: inout SplitMix64) -> TableIndexPath? {
        let candidates = naive.sections.indices.filter { !naive.sections[$0].rows.isEmpty }
        guard let s = candidates.randomElement(using: &rng) else { return nil }
        return TableIndexPath(section: s, row: Int.random(in: 0..<naive.sections[s].rows.count, using: &rng))
    }

    // swiftlint:disable:next function_body_length cyclomatic_complexity
    func randomEdit(_ g: inout TableGeometry, _ n: inout NaiveTable, _ rng: inout SplitMix64) throws -> String {
        let totalRows = n.sections.reduce(0) { $0 + $1.rows.count }
        var kind = Int.random(in: 0..<19, using: &rng)
        if n.sections.isEmpty { kind = 6 }
        if totalRows > 160, kind < 3 { kind = 4 }
        if n.sections.count > 14, kind == 6 { kind = 8 }
        switch kind {
        case 0, 1:
            let s = Int.random(in: 0..<n.sections.count, using: &rng)
            let r = Int.random(in: 0...n.sections[s].rows.count, using: &rng)
            let hs = (0..<Int.random(in: 1...(kind == 0 ? 1 : 20), using: &rng)).map { _ in randomHeight(&rng) }
            try g.insertRows(at: TableIndexPath(section: s, row: r), heights: hs.map(n.pt))
            n.sections[s].rows.insert(contentsOf: hs, at: r)
            return "insertRows(\(s),\(r))×\(hs.count)"
        case 2:
            let s = Int.random(in: 0..<n.sections.count, using: &rng)
            let hs = (0..<Int.random(in: 1...20, using: &rng)).map { _ in randomHeight(&rng) }
            try g.appendRows(heights: hs.map(n.pt), toSection: s)
            n.sections[s].rows.append(contentsOf: hs)
            return "append(\(s))×\(hs.count)"
        case 3, 4:
            guard let ip = randomRow(n, &rng) else { return "noop" }
            let count = n.sections[ip.section].rows.count
            let len = kind == 3 ? 1 : Int.random(in: 1...(count - ip.row), using: &rng)
            g.deleteRows(inSection: ip.section, rows: ip.row..<(ip.row + len))
            n.sections[ip.section].rows.removeSubrange(ip.row..<(ip.row + len))
            return "deleteRows(\(ip))×\(len)"
        case 5:
            guard let ip = randomRow(n, &rng) else { return "noop" }
            let h = randomHeight(&rng)
            try g.reloadRow(at: ip, height: n.pt(h))
            n.sections[ip.section].rows[ip.row] = h
            return "reload(\(ip))"
        case 6:
            let s = Int.random(in: 0...n.sections.count, using: &rng)
            let new = (0..<Int.random(in: 1...2, using: &rng)).map { _ in randomSection(&n, &rng, maxRows: 15) }
            try g.insertSections(new.map { spec($0, n) }, at: s)
            n.sections.insert(contentsOf: new, at: s)
            return "insertSections(\(s))×\(new.count)"
        case 7:
            let s = Int.random(in: 0..<n.sections.count, using: &rng)
            let len = Int.random(in: 1...min(2, n.sections.count - s), using: &rng)
            g.deleteSections(s..<(s + len))
            if let id = n.lastExpandedID, n.sections[s..<(s + len)].contains(where: { $0.id == id }) { n.lastExpandedID = nil }
            n.sections.removeSubrange(s..<(s + len))
            return "deleteSections(\(s))×\(len)"
        case 8:
            let from = Int.random(in: 0..<n.sections.count, using: &rng)
            let to = Int.random(in: 0..<n.sections.count, using: &rng)
            g.moveSection(from: from, to: to)
            n.sections.insert(n.sections.remove(at: from), at: to)
            return "moveSection(\(from)→\(to))"
        case 9:
            guard let from = randomRow(n, &rng) else { return "noop" }
            let h = n.sections[from.section].rows.remove(at: from.row)
            let s = Int.random(in: 0..<n.sections.count, using: &rng)
            let to = TableIndexPath(section: s, row: Int.random(in: 0...n.sections[s].rows.count, using: &rng))
            n.sections[s].rows.insert(h, at: to.row)
            g.moveRow(from: from, to: to)
            return "moveRow(\(from)→\(to))"
        case 10:
            let s = Int.random(in: 0..<n.sections.count, using: &rng)
            var new = randomSection(&n, &rng, maxRows: 10)
            new.id = n.sections[s].id
            new.collapsed = new.collapsed || n.sections[s].collapsed
            try g.reloadSection(s, with: spec(new, n))
            n.sections[s] = new
            return "reloadSection(\(s))"
        case 11:
            let s = Int.random(in: 0..<n.sections.count, using: &rng)
            let h = Int64.random(in: 0...50, using: &rng)
            if Bool.random(using: &rng) {
                try g.setHeaderHeight(n.pt(h), inSection: s)
                n.sections[s].header = h
            } else {
                try g.setFooterHeight(n.pt(h), inSection: s)
                n.sections[s].footer = h
            }
            return "headerFooter(\(s))"
        case 12, 13:
            let s = Int.random(in: 0..<n.sections.count, using: &rng)
            if Int.random(in: 0..<6, using: &rng) == 0 {
                let accordion = Bool.random(using: &rng)
                g.expansionMode = accordion ? .accordion : .independent
                n.accordion = accordion
            }
            if kind == 12 {
                g.toggleSection(s)
                n.setExpanded(n.sections[s].collapsed, section: s)
            } else {
                let e = Bool.random(using: &rng)
                g.setExpanded(e, section: s)
                n.setExpanded(e, section: s)
            }
            return "expand(\(s))"
        case 16:
            guard let ip = randomRow(n, &rng) else { return "noop" }
            let len = Int.random(in: 1...(n.sections[ip.section].rows.count - ip.row), using: &rng)
            let hs = (0..<len).map { _ in randomHeight(&rng) }
            try g.reloadRows(inSection: ip.section, startingAt: ip.row, heights: hs.map(n.pt))
            n.sections[ip.section].rows.replaceSubrange(ip.row..<(ip.row + len), with: hs)
            return "reloadRows(\(ip))×\(len)"
        case 14:
            let h = Int64.random(in: 0...50, using: &rng)
            if Bool.random(using: &rng) {
                try g.setTableHeaderHeight(n.pt(h))
                n.tableHeader = h
            } else {
                try g.setTableFooterHeight(n.pt(h))
                n.tableFooter = h
            }
            return "tableHeaderFooter"
        default:
            try randomBatch(&g, &n, &rng)
            return "batch"
        }
    }

    /// Builds a valid random batch by simulating it on the naive model: deletes by old index, then
    /// random insert positions in the simulated list, whose final indices make the batch.
    func randomBatch(_ g: inout TableGeometry, _ n: inout NaiveTable, _ rng: inout SplitMix64) throws {
        var batch = TableBatchUpdate()
        batch.removesEmptiedSections = Bool.random(using: &rng)
        let old = n.sections
        var deletedSections = Set<Int>()
        for s in old.indices where Int.random(in: 0..<8, using: &rng) == 0 { deletedSections.insert(s) }
        var removed = Set<TableIndexPath>()
        var moves: [(TableIndexPath, Int64)] = []
        var reloads: [TableIndexPath: Int64] = [:]
        for (s, sec) in old.enumerated() where !deletedSections.contains(s) {
            for r in sec.rows.indices {
                let ip = TableIndexPath(section: s, row: r)
                switch Int.random(in: 0..<12, using: &rng) {
                case 0:
                    removed.insert(ip)
                    batch.deletedRows.append(ip)
                case 1:
                    removed.insert(ip)
                    moves.append((ip, sec.rows[r]))
                case 2:
                    let h = randomHeight(&rng)
                    reloads[ip] = h
                    batch.reloadedRows.append(.init(ip, n.pt(h)))
                default: break
                }
            }
        }
        batch.deletedSections = Array(deletedSections).shuffled(using: &rng)
        batch.deletedRows.shuffle(using: &rng)
        // Simulate the delete phase. Items are (height, isNew marker id).
        struct Item { var height: Int64; var tag: Int? }
        struct Sec { var base: NaiveSection; var items: [Item]; var tag: Int?; var oldIndex: Int? }
        var sim: [Sec] = []
        for (s, sec) in old.enumerated() where !deletedSections.contains(s) {
            var items: [Item] = []
            var touched = false
            for (r, h) in sec.rows.enumerated() {
                let ip = TableIndexPath(section: s, row: r)
                if removed.contains(ip) { touched = true; continue }
                items.append(Item(height: reloads[ip] ?? h, tag: nil))
            }
            if batch.removesEmptiedSections, touched, items.isEmpty { continue }
            sim.append(Sec(base: sec, items: items, tag: nil, oldIndex: s))
        }
        // Section moves: take some survivors out, put them back at random positions.
        var movedOut: [Sec] = []
        for _ in 0..<Int.random(in: 0...2, using: &rng) where !sim.isEmpty {
            var sec = sim.remove(at: Int.random(in: 0..<sim.count, using: &rng))
            sec.tag = nil
            movedOut.append(sec)
        }
        for sec in movedOut { sim.insert(sec, at: Int.random(in: 0...sim.count, using: &rng)) }
        let movedOldIndices = Set(movedOut.compactMap(\.oldIndex))
        // Insert phase on the simulation, at random positions.
        var newSections: [Int: NaiveSection] = [:]
        for t in 0..<Int.random(in: 0...2, using: &rng) {
            let sec = randomSection(&n, &rng, maxRows: 6)
            newSections[t] = sec
            sim.insert(Sec(base: sec, items: sec.rows.map { Item(height: $0, tag: nil) }, tag: t, oldIndex: nil), at: Int.random(in: 0...sim.count, using: &rng))
        }
        var newRows: [Int: (Int64, Bool)] = [:]  // tag -> (height, isMove)
        if !sim.isEmpty {
            var tag = 0
            for (_, h) in moves { newRows[tag] = (h, true); tag += 1 }
            for _ in 0..<Int.random(in: 0...4, using: &rng) { newRows[tag] = (randomHeight(&rng), false); tag += 1 }
            for t in 0..<tag {
                let s = Int.random(in: 0..<sim.count, using: &rng)
                sim[s].items.insert(Item(height: newRows[t]!.0, tag: t), at: Int.random(in: 0...sim[s].items.count, using: &rng))
            }
        } else if !moves.isEmpty {
            return  // nowhere to move rows to; skip this batch
        }
        var moveIndex = 0
        for (s, sec) in sim.enumerated() {
            if let t = sec.tag { batch.insertedSections.append(.init(s, spec(newSections[t]!, n))) }
            if let o = sec.oldIndex, movedOldIndices.contains(o) { batch.movedSections.append(.init(from: o, to: s)) }
            for (r, item) in sec.items.enumerated() {
                guard sec.tag == nil, let t = item.tag else { continue }
                let ip = TableIndexPath(section: s, row: r)
                if newRows[t]!.1 {
                    batch.movedRows.append(.init(from: moves[t].0, to: ip))
                    moveIndex += 1
                } else {
                    batch.insertedRows.append(.init(ip, n.pt(newRows[t]!.0)))
                }
            }
        }
        // Rows added to a new section are part of its spec, not row inserts; keep the spec in sync.
        for (k, ins) in batch.insertedSections.enumerated() {
            let s = ins.index
            let rowsOfNew = sim[s].items
            if rowsOfNew.contains(where: { $0.tag != nil }) {
                // Move destinations inside a new section: express them as row inserts/moves instead.
                var base = sim[s].items.filter { $0.tag == nil }
                base = base.isEmpty ? [] : base
                batch.insertedSections[k].section.rowHeights = base.map { n.pt($0.height) }
                for (r, item) in rowsOfNew.enumerated() {
                    guard let t = item.tag else { continue }
                    let ip = TableIndexPath(section: s, row: r)
                    if newRows[t]!.1 {
                        batch.movedRows.append(.init(from: moves[t].0, to: ip))
                    } else {
                        batch.insertedRows.append(.init(ip, n.pt(newRows[t]!.0)))
                    }
                }
            }
        }
        batch.insertedRows.shuffle(using: &rng)
        try g.performBatchUpdates(batch)
        // The expected result is the simulation.
        let survivors = Set(sim.map(\.base.id))
        if let id = n.lastExpandedID, !survivors.contains(id) { n.lastExpandedID = nil }
        n.sections = sim.map { sec in
            var base = sec.base
            base.rows = sec.items.map(\.height)
            return base
        }
    }

    // MARK: Comparison

    func expect<T: Equatable>(_ a: T, _ b: T, _ what: @autoclosure () -> String) throws {
        if a != b { throw Mismatch(description: "\(what()): geometry \(a), naive \(b)") }
    }

    func compare(_ g: TableGeometry, _ n: NaiveTable, _ rng: inout SplitMix64) throws {
        g._checkInvariants()
        let l = n.layout()
        try expect(g.numberOfSections, n.sections.count, "numberOfSections")
        try expect(g.contentHeight, n.pt(l.content), "contentHeight")
        try expect(g.lastExpandedSection, n.lastExpandedSection, "lastExpandedSection")
        try expect(g.rectForTableHeader, TableRect(x: 0, y: 0, width: 375, height: n.pt(n.tableHeader)), "table header")
        try expect(g.rectForTableFooter.minY, n.pt(l.content - n.tableFooter), "table footer")
        var boundaries: [Int64] = [0, l.content, n.tableHeader]
        for (s, sec) in n.sections.enumerated() {
            try expect(g.numberOfRows(inSection: s), sec.rows.count, "rows in \(s)")
            try expect(g.heights(ofRowsInSection: s, rows: 0..<sec.rows.count), sec.rows.map(n.pt), "heights of section \(s)")
            try expect(g.isCollapsed(s), sec.collapsed, "collapsed \(s)")
            let top = l.sectionTop[s]
            try expect(g.rectForSection(s), n.rect(top, l.sectionBottom[s] - top), "rectForSection \(s)")
            try expect(g.rectForHeader(inSection: s), n.rect(top, sec.header), "rectForHeader \(s)")
            try expect(g.rectForFooter(inSection: s), n.rect(l.footerTop[s], sec.footer), "rectForFooter \(s)")
            for r in sec.rows.indices {
                let ip = TableIndexPath(section: s, row: r)
                try expect(g.rectForRow(ip), n.rect(l.rowTop[s][r], sec.collapsed ? 0 : sec.rows[r]), "rectForRow \(ip)")
                try expect(g.height(ofRow: ip), n.pt(sec.rows[r]), "height \(ip)")
            }
            boundaries += [top, top - n.spacing, top + sec.header, l.footerTop[s], l.sectionBottom[s]]
            // Floating header at offsets around the section.
            let limit = n.pt(l.sectionBottom[s] - sec.header)
            for offset in [n.pt(top) - 1, n.pt(top), n.pt(top) + 0.25, limit, limit + 3, n.pt(l.sectionBottom[s]), Double.random(in: -5...n.pt(l.content) + 5, using: &rng)] {
                let expected = n.configuration.style == .plain ? min(max(offset, n.pt(top)), limit) : n.pt(top)
                try expect(g.floatingHeaderFrame(inSection: s, scrollOffset: offset), TableRect(x: n.x, y: expected, width: n.w, height: n.pt(sec.header)), "floating header \(s) at \(offset)")
            }
        }
        for row in l.visibleRows { boundaries += [row.1, row.1 + row.2] }
        // Point lookups at every boundary, one pixel either side, a fraction inside, and random y.
        var ys: [Double] = []
        for b in boundaries { ys += [n.pt(b), n.pt(b - 1), n.pt(b + 1), n.pt(b) + 0.3 / n.scale, n.pt(b) - 0.3 / n.scale] }
        for _ in 0..<20 { ys.append(Double.random(in: -10...(n.pt(l.content) + 10), using: &rng)) }
        if ys.count > 250 { ys = Array(ys.shuffled(using: &rng).prefix(250)) }
        for y in ys {
            try expect(g.indexPathForRow(at: y), n.indexPathForRow(at: y, l), "indexPathForRow(at: \(y))")
        }
        // Range queries with endpoints drawn from the same candidates.
        for k in 0..<16 {
            let a = ys.randomElement(using: &rng) ?? 0
            let b = k == 0 ? a : (ys.randomElement(using: &rng) ?? 1)
            let range = min(a, b)..<max(a, b)
            try expect(g.indexPathsForRows(in: range), n.indexPaths(in: range, l), "indexPathsForRows(in: \(range))")
        }
        try expect(g.indexPathsForRows(in: -1..<(n.pt(l.content) + 1)), l.visibleRows.map(\.0), "all rows")
        // Filtering: a random subset of rows becomes one section with the same heights.
        let all = n.sections.enumerated().flatMap { s, sec in sec.rows.indices.map { TableIndexPath(section: s, row: $0) } }
        if !all.isEmpty, Int.random(in: 0..<4, using: &rng) == 0 {
            let picked = all.filter { _ in Bool.random(using: &rng) }
            let f = g.filtered(rows: picked)
            f._checkInvariants()
            try expect(f.numberOfSections, 1, "filtered sections")
            var y = n.spacing
            for (i, ip) in picked.enumerated() {
                let h = n.sections[ip.section].rows[ip.row]
                try expect(f.rectForRow(TableIndexPath(section: 0, row: i)), n.rect(y, h), "filtered row \(i)")
                y += h
            }
            try expect(f.contentHeight, n.pt(y), "filtered content height")
        }
    }
}
