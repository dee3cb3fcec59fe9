import Testing
@testable import TableLayout

/// An edit at an index the table does not have stops the program with a message naming the
/// index, whatever its payload: an empty batch at a bad index is a caller's error too, not a
/// no-op that hides it. (Exit tests: each edit runs in a child process, which must fail.)
@Suite struct EditPreconditionTests {
    private static func table(sections: Int) throws -> TableGeometry {
        try TableGeometry(
            configuration: TableConfiguration(style: .plain, width: 320, scale: 2),
            sections: (0..<sections).map { _ in SectionSpec(rowHeights: [44, 60]) })
    }

    @Test func appendingToATableWithoutSectionsStops() async {
        await #expect(processExitsWith: .failure) {
            var t = try Self.table(sections: 0)
            try t.appendRows(heights: [])
        }
        await #expect(processExitsWith: .failure) {
            var t = try Self.table(sections: 0)
            try t.appendRows(heights: [44])
        }
    }

    @Test func emptyBatchesAtBadIndicesStop() async {
        await #expect(processExitsWith: .failure) {
            var t = try Self.table(sections: 1)
            try t.insertRows(at: TableIndexPath(section: 3, row: 0), heights: [])
        }
        await #expect(processExitsWith: .failure) {
            var t = try Self.table(sections: 1)
            try t.insertRows(at: TableIndexPath(section: 0, row: 5), heights: [])
        }
        await #expect(processExitsWith: .failure) {
            var t = try Self.table(sections: 1)
            t.deleteRows(inSection: 2, rows: 0..<0)
        }
        await #expect(processExitsWith: .failure) {
            var t = try Self.table(sections: 1)
            t.deleteRows(inSection: 0, rows: 7..<7)
        }
        await #expect(processExitsWith: .failure) {
            var t = try Self.table(sections: 1)
            try t.reloadRows(inSection: 0, startingAt: 9, heights: [])
        }
        await #expect(processExitsWith: .failure) {
            var t = try Self.table(sections: 1)
            t.deleteSections(4..<4)
        }
    }

    /// The same empty batches at indices the table has change nothing.
    @Test func emptyBatchesAtValidIndicesChangeNothing() throws {
        var t = try Self.table(sections: 2)
        let before = t.contentHeight
        try t.insertRows(at: TableIndexPath(section: 1, row: 2), heights: [])
        t.deleteRows(inSection: 0, rows: 2..<2)
        try t.reloadRows(inSection: 1, startingAt: 2, heights: [])
        t.deleteSections(2..<2)
        try t.appendRows(heights: [])
        #expect(t.contentHeight == before)
        #expect(t.numberOfSections == 2)
        #expect(t.numberOfRows(inSection: 0) == 2 && t.numberOfRows(inSection: 1) == 2)
    }
}
