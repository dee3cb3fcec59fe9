import ArgumentParser
import Foundation
import StatusModel
import TextMeasure

/// `feedlayout measure`: the text engine in the peers harness's JSON Lines format, so its line
/// breaks compare directly with Pango and SkParagraph (`../shared/tools/peers/compare.py`).
struct Measure: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure texts (JSON Lines in, JSON Lines out) in the format of the peers harness.",
        discussion: """
            Input lines: {"id", "text", "font_size", "width", "line_height"?}; ids are unique (a line without one \
            takes its line number). Output lines: {"id", "height", \
            "line_count", "line_breaks", "line_widths", "width_used", "offset_unit": "utf16"}. line_breaks are \
            the UTF-16 offsets where lines start; widths leave out trailing spaces; natural line height unless \
            line_height is given (CSS-like: the leading is split above and below).
            With --time, lays out every input --reps times in-process for three cases and prints one JSON object \
            per case from the median pass: cold (every cache cleared before each pass; fonts stay loaded), \
            warm-words (prepared texts dropped, shaped words kept: every text is segmented, itemized and measured \
            again without shaping) and warm (every cache kept: prepared texts are found by content) (ns_per_char from wall time, cpu_ns_per_char from the thread's CPU time, which a \
            loaded machine disturbs less).
            """)

    @Argument(help: "A JSON Lines file, or - for standard input.")
    var input: String = "-"

    @Option(help: "Directory holding fonts.json (default: the package's Fonts/).")
    var fonts: String?

    @Flag(help: "Time the layout instead of printing results.")
    var time = false

    @Option(help: "Timed passes with --time (the median is reported).")
    var reps = 5

    func validate() throws {
        guard reps >= 1, reps <= 1000 else { throw ValidationError("--reps must be in 1...1000") }
    }

    func run() throws { try reportingErrors(measure) }

    private func measure() throws {
        let measurer = try CLIEnvironment.measurer(fontsOption: fonts)
        let items = try MeasureItem.read(input)
        if time {
            try timeLayout(items, measurer: measurer)
            return
        }
        var out = OutputBuffer()
        for item in items {
            let layout = measurer.prepare(item.text).layout(item.options)
            try out.write(item.result(layout))
            try out.write("\n")
        }
        try out.flush()
    }

    private func timeLayout(_ items: [MeasureItem], measurer: TextMeasurer) throws {
        guard !items.isEmpty else { throw CLIError.input("feedlayout: \(input == "-" ? FeedSource.standardInputName : input): no text to time") }
        let chars = items.reduce(0) { $0 + $1.text.string.unicodeScalars.count }
        for mode in ["cold", "warm-words", "warm"] {
            let warm = mode != "cold"
            var passes: [Double] = []
            var cpuPasses: [Double] = []
            var sink = 0.0
            if warm { for item in items { sink += measurer.prepare(item.text).layout(item.options).size.height } }
            for _ in 0..<reps {
                if mode == "cold" { measurer.clearCaches() }
                if mode == "warm-words" { measurer.clearCaches(keepingShapedWords: true) }
                let t0 = DispatchTime.now().uptimeNanoseconds
                let c0 = threadCPUSeconds()
                for item in items {
                    sink += measurer.prepare(item.text).layout(item.options).size.height
                }
                cpuPasses.append(threadCPUSeconds() - c0)
                passes.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9)
            }
            precondition(sink.isFinite)
            passes.sort()
            cpuPasses.sort()
            let median = passes[passes.count / 2]
            let cpuMedian = cpuPasses[cpuPasses.count / 2]
            let n = Double(items.count)
            var out = OutputBuffer()
            try out.write(
                "{\"case\": \"\(mode)\", \"texts\": \(items.count), \"chars\": \(chars), "
                    + "\"reps\": \(reps), \"texts_per_s\": \(JSONNumber.fixed(n / median, 1)), "
                    + "\"us_per_text\": \(JSONNumber.fixed(median / n * 1e6, 3)), "
                    + "\"ns_per_char\": \(JSONNumber.fixed(median / Double(max(chars, 1)) * 1e9, 2)), "
                    + "\"cpu_ns_per_char\": \(JSONNumber.fixed(cpuMedian / Double(max(chars, 1)) * 1e9, 2))}\n")
            try out.flush()
        }
    }
}

/// CPU time of the calling thread: less disturbed than wall time on a shared, loaded machine.
func threadCPUSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

/// One input record of `measure`.
struct MeasureItem {
    var id: String
    var text: AttributedText
    var options: LayoutOptions

    /// Bounds of the numeric fields: every height and width computed from them stays finite, so
    /// every number written is valid JSON (a font size of 1e308 made the output hold "inf").
    static let maxSize = 10_000.0
    static let maxWidth = 1_000_000.0

    static func read(_ path: String) throws -> [MeasureItem] {
        let data: Data
        if path == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            guard let d = FileManager.default.contents(atPath: path) else {
                throw CLIError.input("feedlayout: \(path): cannot read the file")
            }
            data = d
        }
        var items: [MeasureItem] = []
        var lineNumber = 0
        // Results are matched to their inputs by id: an id given twice (or an id left out, which
        // takes its line's number, and a line whose id is that number) is an error.
        var linesByID: [String: Int] = [:]
        // A UTF-8 byte-order mark may open the input, as in a feed.
        let body = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data[...]
        for line in body.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            if line.allSatisfy({ $0 == 32 || $0 == 9 || $0 == 13 }) { continue }
            let where_ = "\(path == "-" ? FeedSource.standardInputName : path):\(lineNumber)"
            let object: JSONObjectRecord
            do throws(JSONObjectRecord.SyntaxError) {
                object = try Array(line).withUnsafeBufferPointer { (b) throws(JSONObjectRecord.SyntaxError) in try JSONObjectRecord(parsing: b) }
            } catch {
                throw CLIError.input("feedlayout: \(where_): \(error.reason)")
            }
            guard case .string(let text)? = object["text"] else {
                throw CLIError.input("feedlayout: \(where_): field \"text\" must be a string")
            }
            // A field of the wrong type is an error, not a default; booleans are not numbers.
            let id: String
            switch object["id"] {
            case nil, .null?: id = String(lineNumber)
            case .string(let s)?: id = s
            case .number(let token)?: id = token
            default: throw CLIError.input("feedlayout: \(where_): field \"id\" must be a string or a number")
            }
            if let first = linesByID.updateValue(lineNumber, forKey: id) {
                throw CLIError.input(
                    "feedlayout: \(where_): id \(DisplaySafe.quoted(id)) is also the id of line \(first)"
                        + " (ids name the results; a line without one takes its line number)")
            }
            guard let size = object["font_size"]?.doubleValue, size.isFinite, size >= 0, size <= Self.maxSize else {
                throw CLIError.input("feedlayout: \(where_) (id \(id)): field \"font_size\" must be a number in [0, \(Int(Self.maxSize))]")
            }
            guard let width = object["width"]?.doubleValue, width.isFinite, abs(width) <= Self.maxWidth else {
                throw CLIError.input("feedlayout: \(where_) (id \(id)): field \"width\" must be a number in [-\(Int(Self.maxWidth)), \(Int(Self.maxWidth))]")
            }
            var options = LayoutOptions(width: width)
            if let value = object["line_height"], value != .null {
                guard let lh = value.doubleValue, lh.isFinite, lh >= 0, lh <= Self.maxSize else {
                    throw CLIError.input("feedlayout: \(where_) (id \(id)): field \"line_height\" must be a number in [0, \(Int(Self.maxSize))]")
                }
                options.lineHeight = .cssLineHeight(lh, fontSize: size)
            }
            items.append(MeasureItem(id: id, text: AttributedText(text, size: size), options: options))
        }
        return items
    }

    func result(_ layout: TextLayout) -> String {
        let breaks = layout.lines.map { String($0.range.lowerBound) }.joined(separator: ", ")
        let widths = layout.lines.map { JSONNumber.fixed($0.width, 4) }.joined(separator: ", ")
        let used = layout.lines.map(\.width).max() ?? 0
        let height = layout.lines.last?.bottom ?? 0
        return "{\"id\": \(JSONNumber.string(id)), \"engine\": \"feedlayout\", \"height\": \(JSONNumber.fixed(height, 4)), "
            + "\"width_used\": \(JSONNumber.fixed(used, 4)), \"line_count\": \(layout.lines.count), "
            + "\"line_breaks\": [\(breaks)], \"line_widths\": [\(widths)], \"offset_unit\": \"utf16\"}"
    }
}

extension LineHeightPolicy {
    /// CSS `line-height` in points for the primary face's metrics: the leading is split evenly above
    /// and below the Noto Sans CJK ascent (1.160 em) and descent (0.288 em).
    static func cssLineHeight(_ lineHeight: Double, fontSize: Double) -> LineHeightPolicy {
        let ascent = 1.160 * fontSize, descent = 0.288 * fontSize
        let half = (lineHeight - ascent - descent) / 2
        return .grid(pitch: lineHeight, ascent: ascent + half, descent: descent + half)
    }
}
