import ArgumentParser
import Foundation
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
            throw CLIError.input("feedlayout: \(error)")
        }
    }
}

/// Buffered standard output (one write per 64 KiB instead of one per line).
struct OutputBuffer {
    private var bytes: [UInt8] = []
    init() { bytes.reserveCapacity(1 << 16) }
    mutating func write(_ s: String) {
        bytes.append(contentsOf: s.utf8)
        if bytes.count >= 1 << 16 { flush() }
    }
    mutating func flush() {
        guard !bytes.isEmpty else { return }
        bytes.withUnsafeBufferPointer { buf in
            var offset = 0
            while offset < buf.count {
                let n = Foundation.write(1, buf.baseAddress! + offset, buf.count - offset)
                if n <= 0 { break }
                offset += n
            }
        }
        bytes.removeAll(keepingCapacity: true)
    }
}

/// JSON number and string forms for hand-written JSON.
enum JSONNumber {
    /// `v` rounded to `digits` decimals, written without trailing zeros ("350.0107", "345", "-0" never).
    static func fixed(_ v: Double, _ digits: Int) -> String {
        guard v.isFinite else { return "0" }
        let scale = pow(10.0, Double(digits))
        let r = (v * scale).rounded() / scale
        if r == 0 { return "0" }
        if r == r.rounded() && abs(r) < 1e15 { return String(Int64(r)) }
        var s = String(format: "%.\(digits)f", r)
        while s.hasSuffix("0") { s.removeLast() }
        if s.hasSuffix(".") { s.removeLast() }
        return s
    }

    /// A JSON string literal with every character JSON requires escaped.
    static func string(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 || u.value == 0x2028 || u.value == 0x2029 || (0x7F...0x9F).contains(u.value) {
                    out += String(format: "\\u%04x", u.value)
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }
}
