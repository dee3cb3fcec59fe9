import Benchmark
import StatusModel
import TableLayout

/// A table that benchmarks edit in place across iterations.
final class TableBox {
    var table: TableGeometry
    init(_ table: TableGeometry) { self.table = table }
}

/// Table at 1 000 000 rows: each iteration runs 1 000 operations (the report divides), at fixed
/// places spread over the content (`Inputs.spread`); edits are undone outside the measurement.
func tableBenchmarks() {
    let ops = 1_000
    let viewport = 812.0
    let input = "TableGeometry, 1 000 000 rows of 60–600 pt (Inputs.spread, seed 7), plain, scale 2"
    let middle = Inputs.tableRows / 2

    /// `ops` offsets spread over the content.
    func offsets(_ table: TableGeometry) -> [Double] {
        let limit = Int(table.contentHeight - viewport)
        return (0..<ops).map { Double(Inputs.spread($0, below: limit, seed: 11)) + 0.25 }
    }

    func record(_ name: String, unit: String, note: String) {
        Facts.record(name, input: input, unit: unit, perIteration: ops, note: note)
    }

    Benchmark("Table build 1M rows", configuration: .passes(5)) { benchmark, _ in
        let before = ProcessMemory.resident
        benchmark.startMeasurement()
        let table = Inputs.table()
        benchmark.stopMeasurement()
        let after = ProcessMemory.resident
        Facts.record(
            benchmark.name, input: input, unit: "row", perIteration: Inputs.tableRows,
            extra: [
                "residentBytes": Double(table.residentBytes),
                "bytesPerRow": Double(table.residentBytes) / Double(Inputs.tableRows),
                "rssDeltaBytesPerRow": Double(after - before) / Double(Inputs.tableRows),
            ],
            note: "TableGeometry.init; bytesPerRow = residentBytes / rows (rssDelta: VmRSS growth while building, first pass)")
        precondition(table.numberOfRows == Inputs.tableRows, "the table has \(table.numberOfRows) rows")
        precondition(
            abs(table.contentHeight - Inputs.tableHeights.reduce(0, +)) < 1, "content height \(table.contentHeight)")
        blackHole(table)
    } setup: {
        Inputs.tableHeights.count
    }

    Benchmark("Table visible-range query", configuration: .passes(200, seconds: 3)) { (benchmark: Benchmark, state: (TableGeometry, [Double], Int)) in
        let (table, ys, expected) = state
        var rows = 0
        for y in ys { rows += table.indexPathsForRows(in: y..<(y + viewport)).count }
        benchmark.stopMeasurement()
        record(benchmark.name, unit: "query", note: "indexPathsForRows(in:) of an 812 pt viewport")
        let first = table.indexPathsForRows(in: ys[0]..<(ys[0] + viewport))
        let r = table.rectForRow(first[0])
        precondition(rows == expected && r.minY <= ys[0] && r.maxY > ys[0], "visible-range query: \(rows) rows")
    } setup: {
        let table = Inputs.table()
        let ys = offsets(table)
        return (table, ys, ys.reduce(0) { $0 + table.indexPathsForRows(in: $1..<($1 + viewport)).count })
    }

    Benchmark("Table point lookup", configuration: .passes(200, seconds: 3)) { (benchmark: Benchmark, state: (TableGeometry, [Double])) in
        let (table, ys) = state
        var sum = 0
        for y in ys { sum &+= table.indexPathForRow(at: y)?.row ?? -1 }
        benchmark.stopMeasurement()
        record(benchmark.name, unit: "query", note: "indexPathForRow(at:)")
        blackHole(sum)
        for y in ys.prefix(50) {
            let r = table.rectForRow(table.indexPathForRow(at: y)!)
            precondition(r.minY <= y && y < r.maxY, "point lookup at \(y) gave a row at \(r)")
        }
    } setup: {
        let table = Inputs.table()
        return (table, offsets(table))
    }

    /// `ops` distinct rows in the middle half.
    let editRows = (0..<ops).map { Inputs.tableRows / 4 + $0 * (Inputs.tableRows / 2 / ops) }

    Benchmark("Table height change", configuration: .passes(100, seconds: 3)) { (benchmark: Benchmark, state: (TableBox, Double)) in
        let (box, original) = state
        for row in editRows {
            try? box.table.reloadRow(at: TableIndexPath(section: 0, row: row), height: Inputs.tableHeights[row] + 10)
        }
        benchmark.stopMeasurement()
        record(benchmark.name, unit: "edit", note: "reloadRow(at:height:) of one row (height + 10 pt)")
        let changed = box.table.contentHeight
        for row in editRows {
            try? box.table.reloadRow(at: TableIndexPath(section: 0, row: row), height: Inputs.tableHeights[row])
        }
        precondition(abs(changed - original - Double(10 * ops)) < 1e-6, "height change: content \(changed)")
        precondition(box.table.contentHeight == original, "height change was not undone")
    } setup: {
        let box = TableBox(Inputs.table())
        return (box, box.table.contentHeight)
    }

    Benchmark("Table insert middle", configuration: .passes(100, seconds: 3)) { (benchmark: Benchmark, state: (TableBox, Double)) in
        let (box, original) = state
        for _ in 0..<ops { try? box.table.insertRow(at: TableIndexPath(section: 0, row: middle), height: 100) }
        benchmark.stopMeasurement()
        record(benchmark.name, unit: "edit", note: "insertRow(at:height:) at row 500 000")
        let grown = (box.table.numberOfRows, box.table.contentHeight)
        box.table.deleteRows(inSection: 0, rows: middle..<(middle + ops))
        precondition(grown.0 == Inputs.tableRows + ops && abs(grown.1 - original - Double(100 * ops)) < 1e-6, "insert: \(grown)")
        precondition(box.table.contentHeight == original, "insertions were not undone")
    } setup: {
        let box = TableBox(Inputs.table())
        return (box, box.table.contentHeight)
    }

    Benchmark("Table delete middle", configuration: .passes(100, seconds: 3)) { (benchmark: Benchmark, state: (TableBox, Double)) in
        let (box, original) = state
        try? box.table.insertRows(at: TableIndexPath(section: 0, row: middle), heights: [Double](repeating: 100, count: ops))
        benchmark.startMeasurement()
        for _ in 0..<ops { box.table.deleteRow(at: TableIndexPath(section: 0, row: middle)) }
        benchmark.stopMeasurement()
        record(benchmark.name, unit: "edit", note: "deleteRow(at:) at row 500 000")
        precondition(
            box.table.numberOfRows == Inputs.tableRows && box.table.contentHeight == original, "delete: rows left over")
    } setup: {
        let box = TableBox(Inputs.table())
        return (box, box.table.contentHeight)
    }

    let page = (0..<20).map { 80 + Double($0 * 7) }
    Benchmark("Table append 20-row page", configuration: .passes(100, seconds: 3)) { (benchmark: Benchmark, state: (TableBox, Double)) in
        let (box, original) = state
        for _ in 0..<ops { try? box.table.appendRows(heights: page) }
        benchmark.stopMeasurement()
        record(benchmark.name, unit: "edit", note: "appendRows(heights:) of a 20-row page")
        let grown = box.table.numberOfRows
        box.table.deleteRows(inSection: 0, rows: Inputs.tableRows..<grown)
        precondition(grown == Inputs.tableRows + 20 * ops, "append: \(grown) rows")
        precondition(box.table.contentHeight == original, "appends were not undone")
    } setup: {
        let box = TableBox(Inputs.table())
        return (box, box.table.contentHeight)
    }
}
