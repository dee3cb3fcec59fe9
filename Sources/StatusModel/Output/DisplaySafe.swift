// The one sanitiser for text printed from content: error and warning messages, key paths, file
// names, anything a feed can put on a terminal. A feed is hostile input: a key or a value holding
// ESC ] 0 ; … BEL would set the terminal's title, ESC ] 52 would write the clipboard, a bidi
// override would reorder the rest of the line. Every such scalar is shown escaped instead.

/// Escaping of content for terminals and logs.
package enum DisplaySafe {
    /// True for the scalars that act on a terminal when printed: C0 controls (U+0000–U+001F,
    /// ESC included), DEL, C1 controls (U+0080–U+009F, which some terminals read as CSI), the
    /// line and paragraph separators (U+2028, U+2029) and the bidi controls (U+061C, U+200E,
    /// U+200F, U+202A–U+202E, U+2066–U+2069), which reorder the rest of a line. Nothing taken
    /// from content may reach a terminal with one of them: messages escape them (`escaped`),
    /// the terminal preview draws a placeholder instead.
    @inline(__always)
    package static func isTerminalControl(_ v: UInt32) -> Bool {
        if v < 0x20 || (v >= 0x7F && v <= 0x9F) { return true }
        if v < 0x61C { return false }
        return v == 0x61C || v == 0x200E || v == 0x200F || (v >= 0x2028 && v <= 0x202E) || (v >= 0x2066 && v <= 0x2069)
    }

    /// True for the scalars that are never printed raw in a message: the terminal controls
    /// (`isTerminalControl`), U+FEFF, and the invisible format characters (the soft hyphen
    /// U+00AD, the zero-width space and joiners U+200B–U+200D, the word joiner and invisible
    /// operators U+2060–U+2064, tags U+E0000–U+E007F), with which a key or value would read as
    /// another.
    @inline(__always)
    package static func isUnsafe(_ v: UInt32) -> Bool {
        if isTerminalControl(v) { return true }
        return v == 0xAD || (v >= 0x200B && v <= 0x200D) || (v >= 0x2060 && v <= 0x2064) || v == 0xFEFF
            || (v >= 0xE0000 && v <= 0xE007F)
    }

    /// `s` with every unsafe scalar (see `isUnsafe`) written as `\u{XX}` (hexadecimal, upper
    /// case). Idempotent (the escaped form holds no unsafe scalar), so a message built from
    /// escaped parts can be escaped again as a whole. With `keepingNewlines` a line feed stays a
    /// line feed (for multi-line usage text written by the program itself).
    /// - Complexity: O(n) in the scalars of `s`; `s` itself when nothing needs escaping.
    package static func escaped(_ s: String, keepingNewlines: Bool = false) -> String {
        guard s.unicodeScalars.contains(where: { isUnsafe($0.value) && !(keepingNewlines && $0 == "\n") }) else { return s }
        var out = String.UnicodeScalarView()
        for u in s.unicodeScalars {
            if isUnsafe(u.value) && !(keepingNewlines && u == "\n") {
                out.append(contentsOf: "\\u{\(String(u.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                out.append(u)
            }
        }
        return String(out)
    }

    /// `s` between double quotes, escaped like `escaped(_:)` and with `"` written `\"`: how a
    /// key or value taken from content is named in a message.
    package static func quoted(_ s: String) -> String {
        var out = String.UnicodeScalarView()
        out.append("\"")
        for u in escaped(s).unicodeScalars {
            if u == "\"" { out.append("\\") }
            out.append(u)
        }
        out.append("\"")
        return String(out)
    }

    /// A key as a component of a dotted key path: bare when it is a plain identifier
    /// (`[A-Za-z0-9_-]+`), else quoted in brackets (`pic_infos["a.b\u{1B}"]`), so that a key
    /// holding dots, brackets or controls is neither ambiguous nor live.
    package static func keyPathComponent(_ key: String) -> (bare: Bool, text: String) {
        let plain = !key.isEmpty && key.utf8.allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F || b == 0x2D
        }
        return plain ? (true, key) : (false, "[" + quoted(key) + "]")
    }
}
