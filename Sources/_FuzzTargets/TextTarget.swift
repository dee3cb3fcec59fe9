// The text engine target: fuzzed Unicode text in fuzzed runs with inline objects and entities,
// laid out at a fuzzed width, line limit, wrap mode and line height.
import Foundation
import TextMeasure

public enum TextTarget {
    /// One measurer for the process, on the repository's pinned fonts.
    public static let measurer: TextMeasurer = {
        do {
            return TextMeasurer(fonts: try FontSet.load(directory: fuzzFontsDirectory()))
        } catch {
            FileHandle.standardError.write(Data("cannot load the fonts: \(error)\n".utf8))
            exit(2)
        }
    }()

    /// Input layout: 21 parameter bytes, then the text bytes. Byte 0x1E in the text splits runs
    /// (each run gets its own size and weight from the parameters), byte 0x1D inserts an inline object.
    public static func run(_ input: inout FuzzInput) {
        let width = input.double(normal: 0...800)
        let maxLines = Int(input.byte() % 8)
        let flags = input.byte()
        let wrap: WrapMode = flags & 1 == 0 ? .word : .character
        let gridSize = input.double(normal: 1...40, hostile: false)
        let lineHeight: LineHeightPolicy = flags & 2 == 0 ? .natural : .grid(size: gridSize, multiple: 1.34, ascentFraction: 0.86)
        let pixelGrid: PixelGrid? = flags & 12 == 0 ? nil : PixelGrid(scale: Double(flags >> 2 & 3))
        var sizes: [Double] = []
        for _ in 0..<3 { sizes.append(input.double(normal: 1...60)) }
        let objectWidth = input.double(normal: 0...40)
        let textMode = input.byte()

        // Build the attributed text.
        let body = fuzzText(input.rest(), mode: textMode)
        var text = AttributedText("", attributes: TextAttributes(size: sizes[0]))
        var runIndex = 0
        var pending = ""
        func flush() {
            guard !pending.isEmpty else { return }
            let size = sizes[runIndex % sizes.count]
            let weight: FontWeight = runIndex % 2 == 0 ? .regular : .bold
            let range = text.append(pending, attributes: TextAttributes(size: size, weight: weight))
            if runIndex % 3 == 2 { text.addEntity(.mention, range: range, value: pending) }
            pending = ""
        }
        for ch in body.unicodeScalars {
            switch ch {
            case "\u{1E}":
                flush()
                runIndex += 1
            case "\u{1D}":
                flush()
                text.appendAttachment(
                    width: objectWidth, ascent: gridSize * 0.8, descent: gridSize * 0.2, name: "o",
                    attributes: TextAttributes(size: sizes[runIndex % sizes.count]))
            default:
                pending.unicodeScalars.append(ch)
            }
        }
        flush()

        let prepared = measurer.prepare(text)
        let n = text.utf16Count
        // Clusters cover the text in order without gaps.
        var offset = 0
        for i in 0..<prepared.clusterCount {
            let r = prepared.utf16Range(ofCluster: i)
            fuzzCheck(r.lowerBound == offset && r.upperBound > r.lowerBound, "cluster \(i) range \(r) after \(offset)")
            fuzzCheck(prepared.advance(ofCluster: i).isFinite, "cluster \(i) advance \(prepared.advance(ofCluster: i))")
            offset = r.upperBound
        }
        fuzzCheck(offset == n, "clusters end at \(offset), text has \(n) units")

        let options = LayoutOptions(width: width, maxLines: maxLines, lineHeight: lineHeight, wrap: wrap, grid: pixelGrid)
        let token = measurer.prepare(AttributedText("…", size: sizes[0]))
        let layout = prepared.layout(options, truncationToken: token)
        if ProcessInfo.processInfo.environment["FUZZ_DEBUG"] != nil { dump(text, prepared, options, layout) }
        check(layout, prepared: prepared, options: options, utf16Count: n)

        // Deterministic: a second preparation (now from warm caches) lays out the same.
        let again = measurer.prepare(text).layout(options, truncationToken: token)
        fuzzCheck(again == layout, "second layout differs")
        // Each input frees what it cached: libFuzzer runs LeakSanitizer after every input that
        // allocates more than it frees, and with caches that grow that was nearly every input,
        // each scan slower as the heap grew (five in six of the target's time).
        measurer.clearCaches()
    }

    static func check(_ layout: TextLayout, prepared: PreparedText, options: LayoutOptions, utf16Count n: Int) {
        let maxWidth = options.width.isFinite ? max(0, options.width) : (options.width > 0 ? Double.greatestFiniteMagnitude : 0)
        fuzzCheck(layout.size.width.isFinite && layout.size.width >= 0, "size width \(layout.size.width)")
        fuzzCheck(layout.size.height.isFinite && layout.size.height >= 0, "size height \(layout.size.height)")
        fuzzCheck(layout.fullHeight.isFinite && layout.fullHeight >= 0, "full height \(layout.fullHeight)")
        // On a grid, more lines are taller. (With natural line heights a truncation token taller
        // than the tiny text it ends can make the cut text taller than the whole: not checked.)
        if case .grid = options.lineHeight {
            fuzzCheck(layout.fullHeight >= layout.size.height - 1e-9, "full height \(layout.fullHeight) < \(layout.size.height)")
        }
        if prepared.clusterCount == 0 {
            fuzzCheck(layout.lines.isEmpty, "lines for empty text")
            return
        }
        fuzzCheck(!layout.lines.isEmpty, "no lines for \(n) units")
        fuzzCheck(layout.fullLineCount >= layout.lines.count, "full line count \(layout.fullLineCount) < \(layout.lines.count)")
        if options.maxLines > 0 {
            fuzzCheck(layout.lines.count <= options.maxLines, "\(layout.lines.count) lines over the limit \(options.maxLines)")
        }
        fuzzCheck(layout.isTruncated == (layout.fullLineCount > layout.lines.count), "isTruncated disagrees with the counts")
        fuzzCheck(layout.isTruncated == (layout.token != nil), "token without truncation or truncation without token")
        // Lines cover the text in order, without gaps (a truncated last line ends at the cut).
        var unit = 0, cluster = 0
        var lastBaseline = -Double.infinity
        for (i, line) in layout.lines.enumerated() {
            fuzzCheck(line.range.lowerBound == unit, "line \(i) starts at \(line.range.lowerBound), expected \(unit)")
            fuzzCheck(line.clusters.lowerBound == cluster, "line \(i) starts at cluster \(line.clusters.lowerBound), expected \(cluster)")
            fuzzCheck(line.width.isFinite && line.width >= 0, "line \(i) width \(line.width)")
            fuzzCheck(line.baseline.isFinite && line.ascent.isFinite && line.descent.isFinite, "line \(i) metrics not finite")
            fuzzCheck(line.baseline >= lastBaseline, "line \(i) baseline \(line.baseline) above the previous one")
            lastBaseline = line.baseline
            // A line wider than the width holds one cluster with an advance (a cluster never
            // splits; zero-width and hanging clusters may join it), unless it holds a tab: a tab
            // is placed whole at its stop and the width left is clamped at 0, so what follows it
            // on the line is tested against a full line (`x\t\u{301}` is 26.88 px on one line at
            // 20 px, in Pango too). It is measured up to its last cluster with an advance that does
            // not hang: white space after that counts in a line's width in places (no-break spaces
            // at a paragraph's end, white space before a zero-width item), but the fit is tested
            // without it (`x\u{A0}` is one line 10.83 px wide at 8 px, `中中中 \u{200F}` 48.36 px at
            // 46 px, in Pango too).
            var x = 0.0, fitWidth = 0.0
            for c in line.clusters {
                x += prepared.advance(ofCluster: c)
                if !prepared.isHanging(c) && prepared.advance(ofCluster: c) > 0 { fitWidth = x }
            }
            // (A line's width also holds the kerning its last cluster loses: the smaller of the two.)
            if min(fitWidth, line.width) > maxWidth + 1e-6 && !(layout.token?.line == i) && !line.clusters.contains(where: prepared.isTab) {
                let visible = line.clusters.filter { !prepared.isHanging($0) && prepared.advance(ofCluster: $0) > 0 }.count
                fuzzCheck(visible <= 1, "line \(i) of \(visible) clusters is \(line.width) wide, width \(maxWidth)")
            }
            // Its width is at least that of its widest cluster that is not hanging (kerning cannot
            // take more than a cluster's own advance away).
            if let widest = line.clusters.filter({ !prepared.isHanging($0) }).map({ prepared.advance(ofCluster: $0) }).max() {
                fuzzCheck(line.width >= widest * 0.5 - 1e-9, "line \(i) is \(line.width) wide, holding a cluster of \(widest)")
            }
            let xs = layout.clusterPositions(onLine: i, of: prepared)
            fuzzCheck(xs.count == line.clusters.count + 1, "cluster positions count")
            fuzzCheck(zip(xs, xs.dropFirst()).allSatisfy { $0.0 <= $0.1 && $0.1.isFinite }, "cluster positions not increasing")
            unit = line.range.upperBound
            cluster = line.clusters.upperBound
        }
        if !layout.isTruncated {
            fuzzCheck(unit == n && cluster == prepared.clusterCount, "lines end at \(unit) of \(n)")
        }
        for e in layout.entityRects(of: prepared) {
            for r in e.rects { fuzzCheck(r.width > 0 && r.minX.isFinite && r.maxX.isFinite && r.minY.isFinite, "entity rect \(r)") }
        }
        for (_, r) in layout.attachmentRects(of: prepared) {
            fuzzCheck(r.minX.isFinite && r.width >= 0 && r.maxY.isFinite, "attachment rect \(r)")
        }
    }
}

/// Prints the input of a failing run (set FUZZ_DEBUG=1 when reproducing a crash file).
func dump(_ text: AttributedText, _ prepared: PreparedText, _ options: LayoutOptions, _ layout: TextLayout) {
    func print(_ s: String) { FileHandle.standardError.write(Data((s + "\n").utf8)) }
    print("text: \(text.string.unicodeScalars.map { String($0.value, radix: 16) })")
    print("runs: \(text.runs)")
    print("attachments: \(text.attachments)")
    print("options: \(options)")
    for i in 0..<prepared.clusterCount {
        print("cluster \(i) \(prepared.utf16Range(ofCluster: i)) advance \(prepared.advance(ofCluster: i)) hanging \(prepared.isHanging(i)) font \(prepared.font(ofCluster: i))")
    }
    for line in layout.lines { print("line \(line)") }
}
