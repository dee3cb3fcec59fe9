import ArgumentParser
import CellLayout
import FeedPipeline
import Foundation
import StatusModel

/// `feedlayout heights`: the heights pass of a partitioned export (`FeedHeightsJob`).
struct Heights: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Count a feed's rows and sum their heights at each width, without frames (the first pass of a partitioned export).",
        discussion: """
            Prints one JSON object per width: {"width", "scale", "rows", "heightPixels", "height"}; with \
            --per-row also "rowHeightPixels", every row's height in device pixels. A partition's row origin \
            is the sum of "rows" of the partitions before it, its y origin the sum of "heightPixels" divided \
            by the scale: `feedlayout layout PART --format jsonl --row-origin R --y-origin Y` then writes the \
            partition's rows exactly as the whole feed's export does, and the partitions' outputs concatenate \
            into it. A sectioned feed (a friend list, a plist with "sections") is refused: `layout` exports it \
            whole, with its sections, and takes no partition. Exit codes: 0, 1 input errors, 2 usage errors.
            """)

    @Argument(help: "Feed files, read in order as one feed (- for standard input).")
    var inputs: [String] = []

    @OptionGroup var feed: FeedInputOptions

    @OptionGroup var widths: WidthsOption

    @Option(help: "Worker threads (the result does not depend on it).")
    var threads: Int = ProcessInfo.processInfo.activeProcessorCount

    @Flag(name: .customLong("per-row"), help: "Also print every row's height in device pixels.")
    var perRow = false

    @Option(name: .customLong("input-format"), help: "The inputs' format (jsonl, json, plist, classic-plist, friends-plist; default: detected from the content). A partition of one status on standard input needs jsonl: a single line reads as a JSON document.")
    var inputFormat: FeedFormat?

    func validate() throws {
        try checkInputs(inputs)
        guard !inputs.isEmpty else { throw ValidationError("give at least one INPUT") }
        guard threads >= 1 else { throw ValidationError("--threads must be ≥ 1") }
    }

    func run() throws {
        try reportingErrors {
            // Partitions are of plain feeds: a sectioned one's rows are its sections' (`layout`
            // refuses --row-origin for them), not a list whose heights add up. An input that may
            // be sectioned (a property list) is opened once to tell, and held whole: every
            // width's pass takes it as opened.
            let loadOptions = LoadOptions(skipInvalid: feed.skipInvalid, format: inputFormat)
            let (opened, sectioned) = try CLIEnvironment.openMaybeSectioned(inputs, options: loadOptions)
            if let sectioned {
                throw CLIError.input(
                    "feedlayout: \(sectioned): a sectioned feed (a friend list or a plist with sections): heights and partitioned "
                        + "exports apply to plain feeds; `feedlayout layout` exports it whole")
            }
            let measurer = try CLIEnvironment.measurer(fontsOption: feed.fonts)
            let engine = CellLayoutEngine(measurer: measurer, now: feed.now.map { Date(timeIntervalSince1970: $0) })
                .withPreparedCellCache(budgetBytes: 0)
            var out = OutputBuffer()
            for (w, width) in widths.list.enumerated() {
                var job = FeedHeightsJob(inputs: inputs, options: feed.options(width: width), loadOptions: loadOptions, threads: threads)
                job.batchStatuses = 512
                let openedSources = try opened.isEmpty
                    ? nil : CLIEnvironment.sources(inputs, opened: opened, options: loadOptions, rereadable: false)
                let result = try job.run(opened: openedSources, engine: engine, perRow: perRow)
                if w == 0 && result.skippedCount > 0 { printError("\(result.skippedCount) invalid statuses skipped") }
                var line = "{\"width\":\(JSONNumber.fixed(width, 3)),\"scale\":\(JSONNumber.fixed(feed.scale, 3)),"
                    + "\"rows\":\(result.rowCount),\"heightPixels\":\(result.heightPixels),\"height\":\(JSONNumber.fixed(result.height, 3))"
                if let rows = result.rowHeightPixels {
                    line += ",\"rowHeightPixels\":[" + rows.map(String.init).joined(separator: ",") + "]"
                }
                try out.write(line + "}\n")
            }
            try out.flush()
        }
    }
}
