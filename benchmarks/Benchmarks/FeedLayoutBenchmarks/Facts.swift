import Foundation

/// What the harness cannot know about a benchmark: the input it ran on and how much work one
/// iteration does (characters, cells, rows, queries, bytes), plus figures read inside the process
/// (resident bytes, VmHWM, cache sizes).
///
/// `run.sh` sets `FEEDLAYOUT_BENCH_FACTS` to a JSON Lines file; each call of a benchmark appends one
/// line (warm-up included, so the report also counts the calls), and `report.py` joins them with the
/// harness's timings.
/// Without the variable (a plain `swift package benchmark`) nothing is written.
enum Facts {
    /// Records the facts of one call of benchmark `name`.
    /// - Parameters:
    ///   - unit: what one iteration processes ("char", "cell", "row", "query", "edit", "byte").
    ///   - perIteration: how many of them.
    ///   - extra: other figures (bytes, counts), by name.
    static func record(
        _ name: String, input: String, unit: String, perIteration: Int, extra: [String: Double] = [:], note: String? = nil
    ) {
        guard let path = ProcessInfo.processInfo.environment["FEEDLAYOUT_BENCH_FACTS"], !path.isEmpty else { return }
        var object: [String: Any] = ["name": name, "input": input, "unit": unit, "perIteration": perIteration, "extra": extra]
        if let note { object["note"] = note }
        guard var line = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return }
        line.append(UInt8(ascii: "\n"))
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o644)
        guard fd >= 0 else { return }
        defer { close(fd) }
        _ = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }

    /// Records that benchmark `name` could not run (its input is absent).
    static func skipped(_ name: String, reason: String) {
        record(name, input: "absent", unit: "skipped", perIteration: 0, note: reason)
    }
}
