import CellLayout
import Foundation
import TerminalPreview
import XCTest
import _LayoutTestSupport

/// Untrusted status text never reaches the terminal as a control sequence.
final class EscapeTests: XCTestCase {
    func testUnsafeScalars() {
        for v in UInt32(0)...0x1F { XCTAssertTrue(TerminalText.isUnsafe(v), "U+\(String(v, radix: 16))") }
        for v in UInt32(0x7F)...0x9F { XCTAssertTrue(TerminalText.isUnsafe(v), "U+\(String(v, radix: 16))") }
        for v: UInt32 in [0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069, 0x2028, 0x2029] {
            XCTAssertTrue(TerminalText.isUnsafe(v), "U+\(String(v, radix: 16))")
        }
        for v: UInt32 in [0x20, 0x41, 0x7E, 0xA0, 0x4E2D, 0x200D, 0x1F600, 0xFE0F, 0x2500] {
            XCTAssertFalse(TerminalText.isUnsafe(v), "U+\(String(v, radix: 16))")
        }
        XCTAssertEqual(TerminalText.sanitized("a\u{1B}[2Jb\u{9B}c\u{202E}d"), "a\u{FFFD}[2Jb\u{FFFD}c\u{FFFD}d")
        XCTAssertEqual(TerminalText.sanitized("中文 ok"), "中文 ok")
        // Invisible format characters are left out; the joiner, selectors and tags of emoji stay.
        XCTAssertEqual(TerminalText.sanitized("a\u{200B}b\u{FEFF}c\u{AD}d\u{2060}e\u{200C}f"), "abcdef")
        XCTAssertEqual(TerminalText.sanitized("👩\u{200D}💻❤\u{FE0F}"), "👩\u{200D}💻❤\u{FE0F}")
    }

    /// The SGR sequences of colour output, and what is left once they are taken out.
    private func splitSGR(_ text: String) -> (sequences: [String], rest: [UInt8]) {
        let bytes = Array(text.utf8)
        var sequences: [String] = []
        var rest: [UInt8] = []
        var i = 0
        while i < bytes.count {
            if bytes[i] == 0x1B, i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "[") {
                var j = i + 2
                while j < bytes.count, (0x30...0x3F).contains(bytes[j]) { j += 1 }
                let end = min(j, bytes.count - 1)
                sequences.append(String(decoding: bytes[i...end], as: UTF8.self))
                i = end + 1
                continue
            }
            rest.append(bytes[i])
            i += 1
        }
        return (sequences, rest)
    }

    func testHostileFixtureColourOff() throws {
        let statuses = try Shared.statuses("hostile-escapes.plist")
        XCTAssertEqual(statuses.count, 4, "every hostile status loads (NUL included)")
        for width in [320.0, 375] {
            for style in [CellStyle.weibo, .classic] {
                let doc = try Shared.document(statuses, width: width, style: style, title: "hostile")
                let text = Shared.render(doc, color: false)
                XCTAssertFalse(text.utf8.contains(0x1B), "no ESC byte at all without colour")
                for u in text.unicodeScalars where u != "\n" {
                    XCTAssertFalse(TerminalText.isUnsafe(u.value), "U+\(String(u.value, radix: 16)) reached the output")
                }
                XCTAssertTrue(text.contains("\u{FFFD}[2J"), "the neutralised ESC is shown as a placeholder")
                XCTAssertTrue(text.contains("gnp.exe"), "the text around the bidi override is kept")
            }
        }
    }

    func testHostileFixtureColourOn() throws {
        let statuses = try Shared.statuses("hostile-escapes.plist")
        let doc = try Shared.document(statuses, width: 375, style: .weibo, title: "hostile")
        let (sequences, rest) = splitSGR(Shared.render(doc, color: true))
        XCTAssertFalse(sequences.isEmpty)
        // Only the renderer's own SGR form: reset, then bold / 256-colour foreground / background.
        let own = try NSRegularExpression(pattern: #"^\x1B\[0(;1)?(;38;5;\d{1,3})?(;48;5;\d{1,3})?m$"#)
        for s in Set(sequences) {
            let matched = own.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)) != nil
            XCTAssertTrue(matched, "unexpected sequence \(s.debugDescription)")
        }
        XCTAssertFalse(rest.contains(0x1B), "an ESC outside the renderer's SGR sequences")
        let restText = String(decoding: rest, as: UTF8.self)
        for u in restText.unicodeScalars where u != "\n" { XCTAssertFalse(TerminalText.isUnsafe(u.value)) }
    }

    func testCanvasNeverHoldsControls() {
        var canvas = Canvas(width: 20, height: 1)
        canvas.write("a\u{1B}]0;t\u{07}\u{9B}2J", x: 0, y: 0)
        let line = canvas.lines(color: false)[0]
        XCTAssertEqual(line, "a\u{FFFD}]0;t\u{FFFD}\u{FFFD}2J")
    }
}

