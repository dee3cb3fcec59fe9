import FeedLayoutSupport
import ArgumentParser
import Foundation
import CellLayout
import StatusModel
import TableLayout
import TextMeasure

/// Errors the CLI reports itself: input errors exit with 1, usage errors with 2.
enum CLIError: Error, CustomStringConvertible {
    case input(String)

    var description: String {
        switch self {
        case .input(let message): return message
        }
    }
}

/// Shared set-up of the subcommands.
enum CLIEnvironment {
    /// Loads the pinned fonts (from `--fonts DIR` or the default place) into a measurer.
    static func measurer(fontsOption: String?, retainGlyphs: Bool = false) throws -> TextMeasurer {
        do {
            let fonts = try fontsOption.map { dir throws(TextMeasureError) in try FontSet.load(directory: URL(fileURLWithPath: dir)) }
                ?? FontSet.loadDefault()
            return TextMeasurer(fonts: fonts, retainGlyphs: retainGlyphs)
        } catch {
            // The library's message names its API; the command line's way is the flag.
            let hint = if case .manifestMissing? = error as? TextMeasureError { " (feedlayout: --fonts DIR)" } else { "" }
            throw CLIError.input("feedlayout: \(error)\(hint)")
        }
    }
}

/// Buffered standard output (one write per 64 KiB instead of one per line). A failing write is
/// an error (`CLIError.input` naming <stdout>), never a silent success.
struct OutputBuffer {
    private var bytes: [UInt8] = []
    init() { bytes.reserveCapacity(1 << 16) }
    mutating func write(_ s: String) throws {
        bytes.append(contentsOf: s.utf8)
        if bytes.count >= 1 << 16 { try flush() }
    }
    mutating func flush() throws {
        guard !bytes.isEmpty else { return }
        defer { bytes.removeAll(keepingCapacity: true) }
        do {
            try DescriptorOutput.writeStandardOutput(bytes)
        } catch {
            throw CLIError.input("feedlayout: \(error)")
        }
    }
}

/// JSON number and string forms for hand-written JSON.
enum JSONNumber {
    /// `v` rounded to `digits` decimals, written without trailing zeros ("350.0107", "345", "-0" never).
    /// Every result is a valid JSON number: a value too large to scale ("1e+308") is written in
    /// Swift's shortest exponent form; a non-finite one MUST be refused by the caller (it is
    /// written "0" as a last resort, never "inf"). The package's one formatter (`DecimalText`).
    static func fixed(_ v: Double, _ digits: Int) -> String { DecimalText.string(v, decimals: digits) }

    /// A JSON string literal (`JSONString`: controls, C1 controls, quotes, backslashes, U+2028,
    /// U+2029 and U+FEFF escaped).
    static func string(_ s: String) -> String { JSONString.literal(s) }
}

/// Options every layout-producing subcommand shares (`layout`, `heights`, `query`, `preview`,
/// `render`, `bench`). The width is not among them: `WidthsOption` for the commands that take
/// several, `WidthOption` for those that take one.
struct FeedInputOptions: ParsableArguments {
    @Option(help: "Cell style (default: friend for a friend list, weibo otherwise).")
    var style: StyleName?

    @Option(help: "Screen scale: 1, 2 or 3.")
    var scale: Double = 2

    @Option(name: .customLong("max-lines"), help: "Line limit of the main text, with a \"...全文\" token (0: unlimited).")
    var maxLines: Int = 0

    @Flag(name: .customLong("skip-invalid"), help: "Skip invalid statuses (each is reported on stderr, with the count) instead of failing.")
    var skipInvalid = false

    @Option(help: "Directory holding fonts.json (default: the package's Fonts/).")
    var fonts: String?

    @Option(parsing: .unconditional, help: "Reference time of relative dates, as seconds since 1970, negative before (default: absolute dates, so output is reproducible).")
    var now: Double?

    func validate() throws {
        guard [1, 2, 3].contains(scale) else { throw ValidationError("--scale must be 1, 2 or 3") }
        guard maxLines >= 0 else { throw ValidationError("--max-lines must be ≥ 0") }
        // Years 1…9999, the dates the loader accepts (a larger --now trapped in the date code).
        if let now, !(now.isFinite && now >= -62_135_596_800 && now <= 253_402_300_799) {
            throw ValidationError("--now \(now) must be seconds since 1970 in [-62135596800, 253402300799] (years 1–9999)")
        }
    }

    /// The options at `width`; the style is --style, else the friend style for a friend list
    /// (`format`), else weibo.
    func options(width: Double, format: FeedFormat? = nil) -> FeedOptions {
        let chosen = style?.style ?? (format == .friendList ? .friend : .weibo)
        return FeedOptions(width: width, style: chosen, scale: scale, maxTextLines: maxLines)
    }
}

/// Refuses standard input (`-`) named more than once among `inputs`: the second read found it
/// empty ("<stdin>: the file is empty").
func checkInputs(_ inputs: [String]) throws {
    if inputs.filter({ $0 == "-" }).count > 1 {
        throw ValidationError("- (standard input) can be given once: a second read would find it empty")
    }
}

/// Refuses an empty `-o` path (it named the current directory: ". : cannot write the file").
func checkOutput(_ path: String?) throws {
    if path?.isEmpty == true { throw ValidationError("-o needs a file name, or - for standard output") }
}

/// Refuses a width outside [1, 100000] with the value in the message (the export writes widths to
/// the thousandth of a point: a narrower cell would read as 0).
func checkWidth(_ width: Double) throws {
    guard width.isFinite && width >= 1 && width <= 100_000 else {
        throw ValidationError("--width \(width) must be a number in [1, 100000]")
    }
}

/// `--width` of the commands that lay a feed out at several widths (`layout`, `heights`, `bench`).
struct WidthsOption: ParsableArguments {
    // Unconditional: "--width -1" is a width to refuse with its reason, not a missing value.
    @Option(name: .customLong("width"), parsing: .unconditionalSingleValue,
            help: "Cell width in points, in [1, 100000] (320–1024 typical); repeat for several widths. (default: 375)")
    var values: [Double] = []

    func validate() throws { try values.forEach(checkWidth) }

    /// The widths asked for (375 when none).
    var list: [Double] { values.isEmpty ? [375] : values }
}

/// `--width` of the commands that lay a feed out at one width (`query`, `render`); the last one
/// given counts.
struct WidthOption: ParsableArguments {
    @Option(name: .customLong("width"), parsing: .unconditional, help: "Cell width in points, in [1, 100000] (320–1024 typical); the last one given counts.")
    var value: Double = 375

    func validate() throws { try checkWidth(value) }
}

extension CLIEnvironment {
    /// The bundled demo feed (`Fixtures/feed.plist`), found like the fonts: beside or above the
    /// current directory or the executable.
    static func demoFeedURL() throws -> URL {
        guard let url = PackageFiles.locate("Fixtures/feed.plist") else {
            throw CLIError.input("feedlayout: the bundled demo feed Fixtures/feed.plist was not found; run from the package checkout")
        }
        return url
    }

    /// The command line's one loader: the statuses of every input (`-` is standard input; none
    /// is the demo feed), in order, as one feed. With `skipInvalid`, each skipped status is
    /// reported on stderr, with the count; otherwise the first invalid one fails the load with an
    /// error naming the file, the status and the field. Sectioned inputs (a friend list, a model
    /// plist with `sections`) keep their sections, and each plain one becomes a section titled
    /// with its file's name (`Feed(joining:)`); the sections are nil when no input is sectioned.
    static func loadFeed(_ inputs: [String], skipInvalid: Bool) throws -> Feed {
        var feeds: [Feed] = []
        var skippedTotal = 0
        let options = LoadOptions(skipInvalid: skipInvalid)
        for input in inputs.isEmpty ? [try demoFeedURL().path] : inputs {
            let result: LoadResult
            do {
                if input == "-" {
                    let data = FileHandle.standardInput.readDataToEndOfFile()
                    result = try FeedLoader.load(data: data, fileName: FeedSource.standardInputName, options: options)
                } else {
                    result = try FeedLoader.load(contentsOf: URL(fileURLWithPath: input), options: options)
                }
            } catch {
                throw CLIError.input("feedlayout: \(error)")
            }
            for s in result.skipped {
                printError(s.description)
            }
            skippedTotal += result.skipped.count
            feeds.append(result.feed)
        }
        if skippedTotal > 0 {
            printError("\(skippedTotal) invalid statuses skipped")
        }
        return Feed(joining: feeds)
    }

    /// Whether an input may be sectioned (a property list: a friend list or a model plist with
    /// `sections`), judged from its first bytes ("bplist" or "<" after a BOM and whitespace, the
    /// loader's rule for property lists); standard input is not looked at. Only those bytes are
    /// read: the loader's full detection scans a JSON file's first 64 KiB, 0.2 % of a plain
    /// export's instructions (callgrind, 2 000 statuses).
    static func mayBeSectioned(_ path: String) -> Bool {
        // An input read only once (standard input, a pipe) is not looked at: its bytes would be gone.
        guard !FeedSource.isReadOnce(path), let h = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? h.close() }
        guard var head = try? h.read(upToCount: 512) else { return false }
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { head = head.dropFirst(3) }
        let rest = head.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        return rest.first == UInt8(ascii: "<") || rest.starts(with: Array("bplist".utf8))
    }

    /// The inputs that may be sectioned (`mayBeSectioned`: property lists) opened once, by
    /// index, and the first of them that is sectioned (nil when none is). Opening a property
    /// list holds it whole (loaded, or its statuses found for batches), so a plain one then goes
    /// to a job as opened (`sources(_:opened:options:rereadable:)`) rather than read again.
    static func openMaybeSectioned(_ inputs: [String], options: LoadOptions) throws -> (opened: [Int: FeedSource], sectioned: String?) {
        var opened: [Int: FeedSource] = [:]
        for (k, path) in inputs.enumerated() where mayBeSectioned(path) {
            let source = try FeedSource.open(path, options: options)
            if case .loaded(let result) = source, result.feed.sections != nil { return (opened, path) }
            if !source.isStreamed { opened[k] = source }
        }
        return (opened, nil)
    }

    /// The sources of `inputs` for a job: those in `opened` as they are, the others opened
    /// (streamed, but loaded whole when `rereadable` and they can be read only once).
    static func sources(_ inputs: [String], opened: [Int: FeedSource], options: LoadOptions, rereadable: Bool) throws -> [FeedSource] {
        try inputs.indices.map { k in
            try opened[k] ?? FeedSource.open(inputs[k], options: options, streaming: !(rereadable && FeedSource.isReadOnce(inputs[k])))
        }
    }

    /// A feed engine on the pinned fonts.
    static func feedEngine(_ input: FeedInputOptions, retainGlyphs: Bool = false) throws -> FeedEngine {
        let measurer = try measurer(fontsOption: input.fonts, retainGlyphs: retainGlyphs)
        let cells = CellLayoutEngine(measurer: measurer, now: input.now.map { Date(timeIntervalSince1970: $0) })
        return FeedEngine(cellEngine: cells)
    }
}
