import ArgumentParser
import Foundation
import StatusModel
import TableLayout

/// `feedlayout query [INPUT...] --y FROM:TO | --at Y`: the rows of a laid-out feed that a scroll
/// range shows, or the row under a point, answered by the table's logarithmic queries.
struct Query: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the rows intersecting a y range (--y FROM:TO) or the row at a point (--at Y).",
        discussion: """
            Lays out the feed (heights only) at one --width and prints one line per row: section, row, \
            status id, y and height in points (4 decimals at most), after a header line. Rows intersect \
            FROM:TO when their top is below TO and their bottom above FROM. --at prints the row whose \
            frame contains Y (top ≤ Y < bottom), or only the header when there is none. Inputs as for \
            the other commands: files in any supported format, - for standard input, none for the \
            bundled demo feed. A friend list (or a plist with "sections", or any feed with --group-by) is \
            laid out in its sections, as `layout` exports it: the rows of closed sections are not shown \
            (a friend list's groups start closed; --expand N opens section N, --expand-all every section).
            """)

    @Argument(help: "Feed files (- for standard input; none: the bundled demo feed).")
    var inputs: [String] = []

    @OptionGroup var feed: FeedInputOptions

    @OptionGroup var width: WidthOption

    @OptionGroup var sections: SectionOptions

    @Option(name: .customLong("y"), help: "A y range FROM:TO in points (FROM ≤ TO); --y or --at is required.")
    var yRange: String?

    @Option(name: .customLong("at"), help: "A y coordinate in points; --y or --at is required.")
    var at: Double?

    func validate() throws {
        try checkInputs(inputs)
        switch (yRange, at) {
        case (nil, nil): throw ValidationError("give --y FROM:TO or --at Y")
        case (.some, .some): throw ValidationError("give either --y or --at, not both")
        case (.some(let r), nil): _ = try Self.parseRange(r)
        case (nil, .some(let y)): guard y.isFinite else { throw ValidationError("--at must be a finite number") }
        }
    }

    /// Parses "FROM:TO" (each a finite number, FROM ≤ TO; negative values are allowed).
    static func parseRange(_ text: String) throws -> Range<Double> {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let lo = Double(parts[0]), let hi = Double(parts[1]), lo.isFinite, hi.isFinite else {
            throw ValidationError("--y must be FROM:TO with two numbers, got \"\(text)\"")
        }
        guard lo <= hi else { throw ValidationError("--y FROM:TO needs FROM ≤ TO, got \"\(text)\"") }
        return lo..<hi
    }

    func run() throws { try reportingErrors(runCommand) }

    private func runCommand() throws {
        let loaded = try CLIEnvironment.loadFeed(inputs, skipInvalid: feed.skipInvalid)
        let engine = try CLIEnvironment.feedEngine(feed)
        // The style and the sections `layout` gives the same inputs.
        let options = feed.options(width: width.value, format: loaded.format)
        let geometry: TableGeometry
        let statusID: (TableIndexPath) -> Int64
        if let list = try sections.sections(ofLoaded: loaded, now: feed.now) {
            let doc: FeedDocument
            do {
                doc = try sections.document(list, format: loaded.format, engine: engine, options: options)
            } catch let error as CLIError {
                throw error
            } catch {
                throw CLIError.input("feedlayout: \(error)")
            }
            geometry = doc.geometry
            statusID = { doc.status(at: $0).id }
        } else {
            let layout: FeedGeometry
            do {
                layout = try engine.layout(loaded.statuses, options: options)
            } catch {
                throw CLIError.input("feedlayout: \(error)")
            }
            geometry = layout.geometry
            statusID = { layout.statusIDs[$0.row] }
        }
        let rows: [TableIndexPath]
        if let yRange {
            rows = geometry.indexPathsForRows(in: try Self.parseRange(yRange))
        } else {
            rows = geometry.indexPathForRow(at: at!).map { [$0] } ?? []
        }
        var out = OutputBuffer()
        try out.write("section\trow\tid\ty\theight\n")
        for ip in rows {
            let rect = geometry.rectForRow(ip)
            try out.write("\(ip.section)\t\(ip.row)\t\(statusID(ip))\t")
            try out.write("\(JSONNumber.fixed(rect.y, 4))\t\(JSONNumber.fixed(rect.height, 4))\n")
        }
        try out.flush()
    }
}
