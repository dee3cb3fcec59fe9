import CellLayout
import Foundation
import Glibc

/// A feed ready to show: its terminal lines and where its cells come from.
public struct PreviewDocument: Sendable {
    public var preview: FeedPreview
    /// The layout of row `i`, e.g. `FeedEngine.cell(for:options:)` (cached) on a heights-only layout.
    public var cell: @Sendable (Int) -> CellLayout

    public init(preview: FeedPreview, cell: @escaping @Sendable (Int) -> CellLayout) {
        self.preview = preview
        self.cell = cell
    }
}

/// Keys of the viewer, decoded from raw input bytes.
public enum ViewerKey: Equatable, Sendable {
    case lineDown, lineUp, pageDown, pageUp, top, bottom, quit

    /// The keys in `bytes`, in order; unknown bytes are ignored.
    /// j / ↓ / Enter / Ctrl-N: line down; k / ↑ / Ctrl-P: line up; space / PgDn / f / Ctrl-F: page
    /// down; b / PgUp / Ctrl-B: page up; g / Home: top; G / End: bottom; q / Q: quit.
    public static func decode(_ bytes: [UInt8]) -> [ViewerKey] {
        var keys: [ViewerKey] = []
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x1B, i + 2 < bytes.count, bytes[i + 1] == UInt8(ascii: "[") || bytes[i + 1] == UInt8(ascii: "O") {
                var j = i + 2
                while j < bytes.count, (0x30...0x3F).contains(bytes[j]) { j += 1 }
                guard j < bytes.count else { break }
                let params = String(decoding: bytes[(i + 2)..<j], as: UTF8.self)
                switch (params, bytes[j]) {
                case ("", UInt8(ascii: "A")): keys.append(.lineUp)
                case ("", UInt8(ascii: "B")): keys.append(.lineDown)
                case ("", UInt8(ascii: "H")), ("1", UInt8(ascii: "~")): keys.append(.top)
                case ("", UInt8(ascii: "F")), ("4", UInt8(ascii: "~")): keys.append(.bottom)
                case ("5", UInt8(ascii: "~")): keys.append(.pageUp)
                case ("6", UInt8(ascii: "~")): keys.append(.pageDown)
                default: break
                }
                i = j + 1
                continue
            }
            switch b {
            case UInt8(ascii: "j"), 0x0D, 0x0A, 0x0E: keys.append(.lineDown)
            case UInt8(ascii: "k"), 0x10: keys.append(.lineUp)
            case UInt8(ascii: " "), UInt8(ascii: "f"), 0x06: keys.append(.pageDown)
            case UInt8(ascii: "b"), 0x02: keys.append(.pageUp)
            case UInt8(ascii: "g"): keys.append(.top)
            case UInt8(ascii: "G"): keys.append(.bottom)
            case UInt8(ascii: "q"), UInt8(ascii: "Q"): keys.append(.quit)
            default: break
            }
            i += 1
        }
        return keys
    }
}

/// The position of the viewer over a feed's terminal lines.
public struct ViewerPosition: Equatable, Sendable {
    /// The first feed line on screen.
    public var top: Int
    /// Lines of feed on screen (the screen minus the status line).
    public var page: Int

    public init(top: Int, page: Int) {
        self.top = top
        self.page = max(1, page)
    }

    /// Applies `key` over a feed of `lineCount` lines; the top stays in 0…max(0, lineCount − page).
    public mutating func apply(_ key: ViewerKey, lineCount: Int) {
        switch key {
        case .lineDown: top += 1
        case .lineUp: top -= 1
        case .pageDown: top += page
        case .pageUp: top -= page
        case .top: top = 0
        case .bottom: top = lineCount
        case .quit: break
        }
        clamp(lineCount: lineCount)
    }

    public mutating func clamp(lineCount: Int) {
        top = max(0, min(top, lineCount - page))
    }
}

/// The interactive viewer: the alternate screen, raw keys, one frame per key.
///
/// Each frame draws only the lines on screen: the rows on them come from the preview's range
/// query and their cells from the document (so a feed of any length draws in the time of a
/// screenful). The status line shows the rows and lines on screen and how long the previous frame
/// took (query, cells, drawing and the write). A resize (SIGWINCH) asks for a new document at the
/// new width when `followWidth` is set, keeping the first row on screen.
public final class InteractiveViewer {
    private let color: Bool
    private let followWidth: Bool
    private let makeDocument: (_ columns: Int) throws -> PreviewDocument

    /// - Parameters:
    ///   - color: emit SGR colours.
    ///   - followWidth: lay the feed out again at the terminal's width on start and on resize.
    ///   - makeDocument: lays the feed out for a terminal of `columns` columns.
    public init(color: Bool, followWidth: Bool, makeDocument: @escaping (_ columns: Int) throws -> PreviewDocument) {
        self.color = color
        self.followWidth = followWidth
        self.makeDocument = makeDocument
    }

    /// Runs until q (or end of input). The terminal is restored however it ends.
    public func run() throws {
        guard Terminal.isInteractive else { throw TerminalPreviewError.notATerminal }
        var size = Terminal.size() ?? (24, 80)
        var document = try makeDocument(size.columns)
        try Terminal.enter()
        defer { Terminal.leave() }
        var position = ViewerPosition(top: 0, page: size.lines - 1)
        var lastFrame: Double?
        while true {
            lastFrame = draw(document, position: position, size: size, lastFrame: lastFrame)
            guard let bytes = Terminal.read() else {
                if Terminal.takeResize(), let s = Terminal.size() {
                    let firstRow = document.preview.rows(inLines: position.top..<(position.top + 1)).first
                    size = s
                    if followWidth {
                        Terminal.write(Self.message("laying out at \(s.columns) columns…", columns: s.columns))
                        document = try makeDocument(s.columns)
                    }
                    position = ViewerPosition(top: firstRow.map { document.preview.firstLine(ofRow: $0) } ?? 0, page: s.lines - 1)
                    position.clamp(lineCount: document.preview.lineCount)
                }
                continue
            }
            if bytes.isEmpty { return }
            for key in ViewerKey.decode(bytes) {
                if key == .quit { return }
                position.apply(key, lineCount: document.preview.lineCount)
            }
        }
    }

    private static func message(_ text: String, columns: Int) -> String {
        "\u{1B}[H\u{1B}[2J" + String(text.prefix(columns))
    }

    /// Draws one frame; returns its duration in milliseconds.
    private func draw(_ document: PreviewDocument, position: ViewerPosition, size: (lines: Int, columns: Int), lastFrame: Double?) -> Double {
        let start = Self.now()
        let preview = document.preview
        let lines = position.top..<min(preview.lineCount, position.top + position.page)
        let canvas = preview.canvas(lines: lines, cell: document.cell)
        var out = "\u{1B}[H"
        for line in canvas.lines(color: color, columns: size.columns) {
            out += line
            out += "\u{1B}[K\r\n"
        }
        for _ in canvas.height..<position.page { out += "\u{1B}[K\r\n" }
        let rows = preview.rows(inLines: lines)
        let range = rows.isEmpty ? "–" : "\(rows.first! + 1)–\(rows.last! + 1)"
        let frame = lastFrame.map { String(format: "%.2f ms", $0) } ?? "–"
        // The frame time first, so a narrow terminal never cuts it off.
        var status = "frame \(frame) · rows \(range) of \(preview.rowCount) · lines \(lines.lowerBound + 1)–\(lines.upperBound)"
            + " of \(preview.lineCount) · j/k ↑↓ space PgUp/PgDn g/G q"
        let limit = max(0, size.columns - 1)
        if TerminalText.columns(status) > limit { status = String(status.prefix(limit)) }
        out += color ? "\u{1B}[0;7m\(status)\u{1B}[0m\u{1B}[K" : "\(status)\u{1B}[K"
        Terminal.write(out)
        return (Self.now() - start) * 1000
    }

    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
