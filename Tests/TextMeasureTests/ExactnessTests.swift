@testable import TextMeasure
import XCTest
import _LayoutTestSupport

/// The production path (per-character advances for CJK, words shaped apart and cached) against
/// HarfBuzz shaping every run of the paragraph whole.
final class ExactnessTests: XCTestCase {
    static let mixed = [
        "今天天气很好😀，我们去#公园#散步 @小明 http://t.cn/RPusQ8P [微笑] 1,234.56元",
        "AVATAR Type WAVE, “quoted” ‘text’ — dashes —— and … ellipses; fi fl ffi ligatures.",
        "「引号」《书名》（括号）【方括号】、顿号。句号！感叹？问号：冒号；分号",
        "ひらがなとカタカナ、漢字のまじった日本語の文。한국어 문장도 있습니다.",
        "👨‍👩‍👧‍👦 family, 👍🏽 skin tone, 🇨🇳🇺🇸 flags, 1️⃣ keycap, ❤️ heart, ☀ sun",
        "Mixed 中文 and English words, numbers 2026-11-22 12:30, prices ¥99.9 and 50%.",
    ]

    private func compare(_ texts: [String], sizes: [Double], widths: [Double], file: StaticString = #filePath, line: UInt = #line)
        throws -> (lines: Int, worst: Double)
    {
        let fonts = try XCTUnwrap(Shared.fonts ?? { throw XCTSkip("fonts are not installed: run scripts/setup.sh") }())
        let fast = TextMeasurer(fonts: fonts)
        let reference = TextMeasurer(fonts: fonts, retainGlyphs: false, cacheBudgetBytes: 1 << 20, shapesWholeRuns: true)
        var worst = 0.0, lines = 0
        for t in texts {
            for size in sizes {
                let text = AttributedText(t, size: size)
                let p = fast.prepare(text)
                let r = reference.prepare(text)
                XCTAssertEqual(p.clusterCount, r.clusterCount, file: file, line: line)
                guard p.clusterCount == r.clusterCount else { continue }
                for w in widths {
                    for l in p.layout(LayoutOptions(width: w)).lines {
                        var a = 0.0, b = 0.0, contentA = 0.0, contentB = 0.0
                        for c in l.clusters {
                            a += p.advance(ofCluster: c)
                            b += r.advance(ofCluster: c)
                            if !p.isHanging(c) { contentA = a; contentB = b }
                        }
                        worst = max(worst, abs(contentA - contentB))
                        lines += 1
                        XCTAssertEqual(contentA, contentB, accuracy: 0.01, "\(t.prefix(40)) at \(size) pt, width \(w)", file: file, line: line)
                    }
                }
            }
        }
        return (lines, worst)
    }

    func testMixedScriptsMatchWholeRunShaping() throws {
        let r = try compare(Self.mixed, sizes: [14, 15, 16, 17], widths: [320, 355, 414])
        XCTAssertGreaterThan(r.lines, 50)
    }

    /// The per-character path and word shaping proven on every text of the real corpus.
    func testCorpusMatchesWholeRunShaping() throws {
        guard let texts = Shared.corpusTexts else { throw XCTSkip(TestPaths.sharedCorpusSkipMessage) }
        XCTAssertGreaterThan(texts.count, 300)
        let r = try compare(texts, sizes: [15, 17], widths: [320, 355, 414])
        XCTAssertGreaterThan(r.lines, 1000)
        print("exactness on the corpus: \(r.lines) lines, worst |difference| \(r.worst) pt")
    }
}
