import Benchmark
import TextMeasure

/// Text: ns per character of prepare + layout of the corpus texts at 15 pt and 355 pt, cold (the
/// shaped-word cache emptied before each pass, fonts loaded), warm, relayout of prepared texts
/// at a new width, the single-line label path, and the naive baseline (cache emptied before every
/// text).
func textBenchmarks() {
    let options = LayoutOptions(width: Inputs.textWidth)

    /// Lines of every text at `options`, from a measurer of its own: the correctness check.
    func expectedLines(_ options: LayoutOptions) -> Int {
        let m = Inputs.measurer()
        return Inputs.texts.reduce(0) { $0 + m.prepare($1).layout(options).lines.count }
    }

    func pass(_ m: TextMeasurer) -> Int {
        var lines = 0
        for t in Inputs.texts {
            let layout = m.prepare(t).layout(options)
            lines += layout.lines.count
            blackHole(layout)
        }
        return lines
    }

    func record(_ name: String, _ texts: [AttributedText], note: String? = nil) {
        Facts.record(
            name, input: Inputs.textSource.name + ", 15 pt at 355 pt", unit: "char",
            perIteration: Inputs.characters(texts), extra: ["texts": Double(texts.count)], note: note)
    }

    Benchmark("Text cold", configuration: .passes(10)) { benchmark, expected in
        let m = Inputs.measurer()
        benchmark.startMeasurement()
        let lines = pass(m)
        benchmark.stopMeasurement()
        record(benchmark.name, Inputs.texts, note: "fresh shaped-word cache each pass (fonts loaded)")
        precondition(lines == expected, "cold pass gave \(lines) lines, expected \(expected)")
    } setup: {
        expectedLines(options)
    }

    Benchmark("Text warm words", configuration: .passes(20)) { (benchmark: Benchmark, state: (TextMeasurer, Int)) in
        let (warm, expected) = state
        warm.clearCaches(keepingShapedWords: true)
        benchmark.startMeasurement()
        let lines = pass(warm)
        benchmark.stopMeasurement()
        record(benchmark.name, Inputs.texts, note: "prepared texts dropped, shaped words kept: every text segmented, itemized and measured again, nothing shaped")
        precondition(lines == expected, "warm-words pass gave \(lines) lines, expected \(expected)")
    } setup: {
        let warm = Inputs.measurer()
        _ = pass(warm)
        return (warm, expectedLines(options))
    }

    Benchmark("Text warm", configuration: .passes(20)) { (benchmark: Benchmark, state: (TextMeasurer, Int)) in
        let (warm, expected) = state
        let lines = pass(warm)
        benchmark.stopMeasurement()
        record(benchmark.name, Inputs.texts, note: "every cache kept: prepared texts found by content")
        precondition(lines == expected, "warm pass gave \(lines) lines, expected \(expected)")
    } setup: {
        let warm = Inputs.measurer()
        _ = pass(warm)
        return (warm, expectedLines(options))
    }

    Benchmark("Text relayout 355→320", configuration: .passes(50)) { (benchmark: Benchmark, state: ([PreparedText], Int)) in
        let (prepared, expected) = state
        var lines = 0
        let narrow = LayoutOptions(width: Inputs.relayoutWidth)
        for p in prepared {
            let layout = p.layout(narrow)
            lines += layout.lines.count
            blackHole(layout)
        }
        benchmark.stopMeasurement()
        record(benchmark.name, Inputs.texts, note: "PreparedText.layout at 320 pt of texts prepared once")
        precondition(lines == expected, "relayout gave \(lines) lines, expected \(expected)")
    } setup: {
        let m = Inputs.measurer()
        let prepared = Inputs.texts.map { m.prepare($0) }
        return (prepared, expectedLines(LayoutOptions(width: Inputs.relayoutWidth)))
    }

    let labelAttributes = TextAttributes(size: Inputs.textSize)
    Benchmark("Text label singleLineSize", configuration: .passes(20)) { (benchmark: Benchmark, state: (TextMeasurer, Double)) in
        let (labelMeasurer, expected) = state
        var width = 0.0
        for label in Inputs.labels {
            let size = labelMeasurer.singleLineSize(label, attributes: labelAttributes)
            width += size.width
        }
        benchmark.stopMeasurement()
        let labels = Inputs.labels.map { AttributedText($0, size: Inputs.textSize) }
        Facts.record(
            benchmark.name, input: "user names and sources of the " + Inputs.textSource.name + ", 15 pt", unit: "char",
            perIteration: Inputs.characters(labels), extra: ["labels": Double(labels.count)], note: "warm cache")
        precondition(abs(width - expected) < 1e-6, "labels measured \(width) pt wide, expected \(expected)")
    } setup: {
        let m = Inputs.measurer()
        let expected = Inputs.labels.reduce(0.0) { $0 + m.singleLineSize($1, attributes: labelAttributes).width }
        let warm = Inputs.measurer()
        for label in Inputs.labels { _ = warm.singleLineSize(label, attributes: labelAttributes) }
        return (warm, expected)
    }

    // Loading the fonts, which every process pays once before it measures anything: opening the
    // four files, reading their cmaps, analysing the faces' plans and making the per-character
    // and ASCII tables (docs/text-engine.md). The files are in the page cache after the first.
    Benchmark("Fonts load", configuration: .passes(20)) { benchmark in
        let fonts = try FontSet.load(directory: Inputs.fontsDirectory)
        benchmark.stopMeasurement()
        Facts.record(benchmark.name, input: "the pinned cascade (Fonts/fonts.json: four faces)", unit: "load", perIteration: 1)
        let probe = TextMeasurer(fonts: fonts).prepare(AttributedText("微博 weibo.com 😀", size: 15))
        precondition(probe.missingGlyphCount == 0 && probe.clusterCount == 14, "the loaded fonts do not measure the probe text")
    }

    Benchmark("Text naive", configuration: .passes(5)) { benchmark, expected in
        let m = Inputs.measurer()
        var lines = 0
        for t in Inputs.texts {
            m.clearCaches()
            let layout = m.prepare(t).layout(options)
            lines += layout.lines.count
            blackHole(layout)
        }
        benchmark.stopMeasurement()
        record(benchmark.name, Inputs.texts, note: "baseline: shaped-word cache emptied before every text")
        precondition(lines == expected, "naive pass gave \(lines) lines, expected \(expected)")
    } setup: {
        expectedLines(options)
    }
}
