// Invariant checks that stop the process with a readable message (libFuzzer then saves the
// input), and the reading of typed values off a fuzzer input.
import Foundation

/// Stops the process with `message` when `condition` is false; libFuzzer records the input as a crash.
@inline(__always)
public func fuzzCheck(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
    if !condition() {
        FileHandle.standardError.write(Data("invariant failed at \(file):\(line): \(message())\n".utf8))
        abort()
    }
}

/// Reads typed values off the front of a fuzzer input; past the end every read returns zero.
public struct FuzzInput {
    public private(set) var bytes: ArraySlice<UInt8>

    public init(_ data: UnsafeBufferPointer<UInt8>) { bytes = ArraySlice(data) }

    public init(bytes: [UInt8]) { self.bytes = bytes[...] }

    public var isEmpty: Bool { bytes.isEmpty }

    public mutating func byte() -> UInt8 {
        guard let b = bytes.first else { return 0 }
        bytes = bytes.dropFirst()
        return b
    }

    public mutating func uint16() -> UInt16 { UInt16(byte()) | UInt16(byte()) << 8 }

    /// A double chosen from `normal` most of the time and from the hostile values otherwise
    /// (0, negative, NaN, ±infinity, 1e300, tiny), driven by one selector byte.
    public mutating func double(normal: ClosedRange<Double>, hostile: Bool = true) -> Double {
        let selector = byte()
        let raw = Double(uint16()) / Double(UInt16.max)
        if hostile {
            switch selector {
            case 250: return 0
            case 251: return -raw * 1000
            case 252: return .nan
            case 253: return .infinity
            case 254: return 1e300
            case 255: return -.infinity
            default: break
            }
        }
        return normal.lowerBound + raw * (normal.upperBound - normal.lowerBound)
    }

    /// Everything left, consumed.
    public mutating func rest() -> ArraySlice<UInt8> {
        defer { bytes = [] }
        return bytes
    }

    /// The bytes up to the next `separator` (consumed, not returned) or the end.
    public mutating func field(separator: UInt8 = 0x1F) -> ArraySlice<UInt8> {
        if let i = bytes.firstIndex(of: separator) {
            defer { bytes = bytes[(i + 1)...] }
            return bytes[..<i]
        }
        return rest()
    }
}

/// Decodes bytes into arbitrary Unicode text: UTF-8 when `mode` is even (invalid sequences
/// repaired to U+FFFD), otherwise little-endian UTF-16 units (lone surrogates repaired).
public func fuzzText(_ bytes: ArraySlice<UInt8>, mode: UInt8) -> String {
    if mode & 1 == 0 { return String(decoding: bytes, as: UTF8.self) }
    var units: [UInt16] = []
    units.reserveCapacity(bytes.count / 2)
    var i = bytes.startIndex
    while i + 1 < bytes.endIndex {
        units.append(UInt16(bytes[i]) | UInt16(bytes[i + 1]) << 8)
        i += 2
    }
    return String(decoding: units, as: UTF16.self)
}

/// The pinned fonts of the repository (Fonts/ at the package root), or `$FEEDLAYOUT_FONTS` when set.
public func fuzzFontsDirectory() -> URL {
    if let dir = ProcessInfo.processInfo.environment["FEEDLAYOUT_FONTS"] { return URL(fileURLWithPath: dir) }
    // This file is Sources/_FuzzTargets/FuzzInput.swift.
    return URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fonts")
}
