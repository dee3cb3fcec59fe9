import Foundation

/// The font manifest (`Fonts/fonts.json`): one entry per face of the cascade.
public struct FontManifest: Sendable, Decodable, Equatable {
    public struct Entry: Sendable, Decodable, Equatable {
        /// "primary", "bold" or "emoji".
        public var role: String
        public var file: String
        public var faceIndex: Int
        public var family: String
        public var sha256: String
        public var package: String
    }
    public var fonts: [Entry]
}

/// The loaded font cascade: primary (Noto Sans CJK SC), bold, and emoji (Noto Color Emoji).
///
/// Fonts are loaded only from the manifest's directory, never by asking the system for a family,
/// so layouts are reproducible. Thread-safety: immutable after `load`; share one across threads.
public final class FontSet: Sendable {
    public let directory: URL
    public let manifest: FontManifest
    let primary: FontFile
    let bold: FontFile
    let emoji: FontFile
    /// Advance tables of the per-character path, for the primary and bold faces.
    let simplePrimary: SimpleAdvanceTable
    let simpleBold: SimpleAdvanceTable
    /// cmap coverage of the BMP per face, read once at load (a bit per code point).
    let coverage: [FontSlot: CoverageBits]

    private init(directory: URL, manifest: FontManifest, files: [String: FontFile]) {
        self.directory = directory
        self.manifest = manifest
        primary = files["primary"]!
        bold = files["bold"]!
        emoji = files["emoji"]!
        simplePrimary = SimpleAdvanceTable(font: primary)
        simpleBold = SimpleAdvanceTable(font: bold)
        coverage = [.primary: CoverageBits(font: primary), .bold: CoverageBits(font: bold), .emoji: CoverageBits(font: emoji)]
    }

    /// True when the face of `slot` maps `scalar` to a glyph.
    @inline(__always) func covers(_ slot: FontSlot, _ scalar: UInt32, bits: CoverageBits) -> Bool {
        scalar < 0x10000 ? bits.contains(scalar) : file(slot).nominalGlyph(scalar) != nil
    }

    /// Loads the cascade named by `directory/fonts.json`.
    /// - Throws: `TextMeasureError` naming the manifest or the font file, and the fix.
    public static func load(directory: URL) throws(TextMeasureError) -> FontSet {
        let manifestURL = directory.appendingPathComponent("fonts.json")
        guard let data = FileManager.default.contents(atPath: manifestURL.path) else {
            throw .manifestMissing(path: manifestURL.path)
        }
        let manifest: FontManifest
        do {
            manifest = try JSONDecoder().decode(FontManifest.self, from: data)
        } catch {
            throw .manifestInvalid(path: manifestURL.path, reason: "\(error)")
        }
        var files: [String: FontFile] = [:]
        for role in ["primary", "bold", "emoji"] {
            guard let entry = manifest.fonts.first(where: { $0.role == role }) else {
                throw .manifestInvalid(path: manifestURL.path, reason: "no font with role \"\(role)\"")
            }
            let path = directory.appendingPathComponent(entry.file).path
            guard FileManager.default.fileExists(atPath: path) else { throw .fontMissing(file: path, role: role) }
            let file = try FontFile(path: path, faceIndex: entry.faceIndex)
            guard file.familyName == entry.family else {
                throw .fontInvalid(
                    file: path, reason: "face \(entry.faceIndex) is \"\(file.familyName)\", expected \"\(entry.family)\"")
            }
            files[role] = file
        }
        return FontSet(directory: directory, manifest: manifest, files: files)
    }

    /// Where to look for the fonts when no directory is given: `$FEEDLAYOUT_FONTS`, then a
    /// `Fonts/fonts.json` in the current directory or above it, then beside or above the running
    /// executable (a package checkout's `.build/release/feedlayout` finds the package's `Fonts/`).
    public static func defaultDirectory() -> URL? {
        let env = ProcessInfo.processInfo.environment
        if let dir = env["FEEDLAYOUT_FONTS"], !dir.isEmpty { return URL(fileURLWithPath: dir) }
        return PackageFiles.locate("Fonts/fonts.json")?.deletingLastPathComponent()
    }

    /// Loads the cascade from `defaultDirectory()`.
    public static func loadDefault() throws(TextMeasureError) -> FontSet {
        guard let dir = defaultDirectory() else {
            throw .manifestMissing(path: "Fonts/fonts.json (searched $FEEDLAYOUT_FONTS, the current directory and the executable's)")
        }
        return try load(directory: dir)
    }

    func file(_ slot: FontSlot) -> FontFile {
        switch slot {
        case .primary, .object: return primary
        case .bold: return bold
        case .emoji: return emoji
        }
    }

    /// Path of the font file of a slot, for renderers.
    public func path(of slot: FontSlot) -> String { file(slot).path }

    /// Face index of the font of a slot, for renderers.
    public func faceIndex(of slot: FontSlot) -> Int {
        let role: String
        switch slot {
        case .primary, .object: role = "primary"
        case .bold: role = "bold"
        case .emoji: role = "emoji"
        }
        return manifest.fonts.first { $0.role == role }?.faceIndex ?? 0
    }

    /// Natural vertical metrics of a slot at a size, in points.
    public func metrics(_ slot: FontSlot, size: Double) -> RunFont {
        let f = file(slot)
        let k = size / Double(f.upem)
        return RunFont(slot: slot, size: size, ascent: Double(f.ascender) * k, descent: Double(f.descender) * k)
    }
}

/// Files of a package checkout, found from where the program runs.
package enum PackageFiles {
    /// The first existing `relativePath` in the current directory or one of its 7 parents, then
    /// beside the running executable or above it (a checkout's `.build/release/feedlayout` finds
    /// the checkout's files).
    package static func locate(_ relativePath: String) -> URL? {
        var starts = [URL(fileURLWithPath: FileManager.default.currentDirectoryPath)]
        if let exe = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            starts.append(exe.deletingLastPathComponent())
        }
        for start in starts {
            var dir = start
            for _ in 0..<8 {
                let candidate = dir.appendingPathComponent(relativePath)
                if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
                let parent = dir.deletingLastPathComponent()
                if parent.path == dir.path { break }
                dir = parent
            }
        }
        return nil
    }
}

/// One bit per BMP code point: does the face's cmap map it (8 KiB per face).
struct CoverageBits: Sendable {
    let words: [UInt64]
    init(font: FontFile) {
        var w = [UInt64](repeating: 0, count: 0x10000 / 64)
        for cp in UInt32(0)..<0x10000 where font.nominalGlyph(cp) != nil {
            w[Int(cp >> 6)] |= 1 << UInt64(cp & 63)
        }
        words = w
    }
    @inline(__always) func contains(_ scalar: UInt32) -> Bool {
        words[Int(scalar >> 6)] & (1 << UInt64(scalar & 63)) != 0
    }
}

/// The per-character path: for code points whose glyph never interacts with its neighbours in
/// shaping (CJK ideographs, CJK and fullwidth punctuation in Noto Sans CJK; kana kern, so they are shaped), the advance is the
/// glyph's hmtx advance, read once when the fonts load. `TextMeasureTests.testPerCharacterPathIsExact`
/// proves it equal to HarfBuzz shaping whole runs on the corpus.
///
/// Storage: one byte per BMP code point, an index into the face's few distinct advances of these
/// characters (0: not on the per-character path); 64 KiB per face, so that the lookups of a text
/// stay in cache. (Noto Sans CJK has two such advances; a face with more than 255 leaves the
/// characters of the others to shaping, which is the reference.) Glyph ids are not stored: they
/// are the cmap's, read when a measurer keeps glyphs.
struct SimpleAdvanceTable: Sendable {
    static let ranges: [ClosedRange<UInt32>] = [
        0x3000...0x303F,  // CJK symbols and punctuation
        0x3400...0x4DBF,  // CJK extension A
        0x4E00...0x9FFF,  // CJK unified ideographs
        0xF900...0xFAFF,  // CJK compatibility ideographs
        0xFF01...0xFF60,  // fullwidth forms
    ]
    let index: [UInt8]
    /// `advances[i - 1]` is the advance of the code points whose index is `i` (font units).
    let advances: [UInt32]

    init(font: FontFile) {
        var t = [UInt8](repeating: 0, count: 0x10000)
        var distinct: [UInt32] = []
        for range in Self.ranges {
            // U+3000 (ideographic space) hangs at line ends: it takes the whitespace path.
            for cp in range where cp != 0x3000 {
                guard let glyph = font.nominalGlyph(cp), glyph != 0, glyph < 0x10000 else { continue }
                let adv = font.advance(ofGlyph: glyph)
                guard adv > 0, adv < 0x10000 else { continue }
                if let i = distinct.firstIndex(of: UInt32(adv)) {
                    t[Int(cp)] = UInt8(i + 1)
                } else if distinct.count < 255 {
                    distinct.append(UInt32(adv))
                    t[Int(cp)] = UInt8(distinct.count)
                }
            }
        }
        index = t
        advances = distinct
    }

    /// The advance (font units) of a per-character-path code point, or 0 for any other.
    @inline(__always) func advance(_ scalar: UInt32) -> UInt32 {
        guard scalar < 0x10000 else { return 0 }
        let i = Int(index[Int(scalar)])
        return i == 0 ? 0 : advances[i - 1]
    }

    /// True when `scalar` is on the per-character path.
    @inline(__always) func contains(_ scalar: UInt32) -> Bool {
        scalar < 0x10000 && index[Int(scalar)] != 0
    }

    /// True when a UTF-16 unit next to a per-character-path character cannot kern with it: another
    /// such character, or whitespace.
    @inline(__always) func isPlainNeighbour(_ unit: UInt16) -> Bool {
        index[Int(unit)] != 0 || unit == 0x20 || unit == 0x0A || unit == 0x0D || unit == 0x09 || unit == 0x3000
    }
}
