import FeedLayoutSupport
import Foundation

/// Toolbar count labels (docs/cell-spec.md, section 2): a zero count shows the button's word, counts up to
/// 9 999 as is, then whole ten-thousands ("N万"), from 10 000 000 whole ten-millions ("N千万").
package enum CountFormat {
    /// The label of a toolbar button with `count`; `word` is shown for zero (and negative) counts.
    ///
    /// `label(count, word:) == label(shown(count), word:)` for every count.
    package static func label(_ count: Int, word: String) -> String {
        if count <= 0 { return word }
        let (number, unit) = shownNumber(count)
        return unit == 1 ? String(number) : unit == 10_000 ? "\(number)万" : "\(number)千万"
    }

    /// The smallest count with the same label as `count` (0 for zero and negative counts): counts
    /// that show the same label have the same `shown` value.
    package static func shown(_ count: Int) -> Int {
        if count <= 0 { return 0 }
        let (number, unit) = shownNumber(count)
        return number * unit
    }

    /// The number a positive count's label shows and the unit it is shown in (1, 10 000 for
    /// "万", 10 000 000 for "千万"): the one place the label's thresholds are.
    private static func shownNumber(_ count: Int) -> (number: Int, unit: Int) {
        if count < 10_000 { return (count, 1) }
        if count < 10_000_000 { return (count / 10_000, 10_000) }
        return (count / 10_000_000, 10_000_000)
    }

    /// The smallest count whose label has the shape of `count`'s: the same word or unit and as
    /// many digits ("1000" for 1234, "10万" for 567 890); `count` itself for zero and negative
    /// counts. Labels of one shape differ in their ASCII digits only.
    package static func firstOfShape(_ count: Int) -> Int {
        guard count > 0 else { return count }
        var (number, unit) = shownNumber(count)
        var first = 1
        while number >= 10 {
            number /= 10
            first *= 10
        }
        return first * unit
    }

    /// Calls `body` with the ASCII digits of the positive `count`'s label, in order (none for
    /// zero and negative counts: their label is the word).
    package static func withLabelDigits<R>(_ count: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { out in
            guard count > 0 else { return body(UnsafeBufferPointer(rebasing: out[..<0])) }
            var number = shownNumber(count).number
            var k = 20
            repeat {
                k -= 1
                out[k] = UInt8(0x30 + number % 10)
                number /= 10
            } while number > 0
            return body(UnsafeBufferPointer(rebasing: out[k...]))
        }
    }
}

/// Relative time of a status (docs/cell-spec.md, section 2), computed against a given `now` in a fixed UTC
/// offset, so results never depend on the wall clock or the machine's time zone.
///
/// Under 10 minutes "刚刚" (also for dates in the future); under an hour "N分钟前"; the same day
/// "N小时前"; the day before "昨天 HH:mm"; the same year "M-d"; else "yy-M-dd".
package enum RelativeTime {
    package static func format(_ date: Date, now: Date, utcOffset: Int) -> String {
        formatText(date, now: now, utcOffset: utcOffset).string
    }

    /// `format`, written in place: no string is made (a cell keys and builds its time line from
    /// the bytes).
    package static func formatText(_ date: Date, now: Date, utcOffset: Int) -> ShortText {
        // A `now` that is not a date of years 1…9999 (±∞, NaN, 1e300) has no relative form: the
        // integer conversions below would trap. Such a layout shows absolute dates.
        guard Self.isRepresentable(now), Self.isRepresentable(date) else { return absoluteText(date, utcOffset: utcOffset) }
        let delta = now.timeIntervalSince(date)
        var out = ShortText()
        if delta < 600 {
            out.append("刚刚")
            return out
        }
        if delta < 3600 {
            out.append(number: Int(delta / 60))
            out.append("分钟前")
            return out
        }
        let local = Int((date.timeIntervalSince1970 + Double(utcOffset)).rounded(.down))
        let localNow = Int((now.timeIntervalSince1970 + Double(utcOffset)).rounded(.down))
        let day = floorDiv(local, 86_400), today = floorDiv(localNow, 86_400)
        if day == today {
            out.append(number: Int(delta / 3600))
            out.append("小时前")
        } else if day == today - 1 {
            out.append("昨天 ")
            appendClock(local - day * 86_400, to: &out)
        } else {
            let (y, m, d) = civil(day)
            if y == civil(today).year {
                out.append(number: m)
                out.append("-")
                out.append(number: d)
            } else {
                appendDate(y, m, d, to: &out)
            }
        }
        return out
    }

    /// Seconds since 1970 of 9999-12-31T23:59:59Z; −62 135 596 800 is 0001-01-01T00:00:00Z.
    package static let latestSeconds = 253_402_300_799.0
    package static let earliestSeconds = -62_135_596_800.0

    /// True when `date` lies in years 1…9999 (so every integer conversion of it is exact).
    package static func isRepresentable(_ date: Date) -> Bool {
        let t = date.timeIntervalSince1970
        return t.isFinite && t >= earliestSeconds - 86_400 && t <= latestSeconds + 86_400
    }

    /// An absolute date "yy-M-dd HH:mm", for layouts made without a `now`.
    package static func absolute(_ date: Date, utcOffset: Int) -> String {
        absoluteText(date, utcOffset: utcOffset).string
    }

    /// `absolute`, written in place.
    package static func absoluteText(_ date: Date, utcOffset: Int) -> ShortText {
        var out = ShortText()
        guard isRepresentable(date) else { return out }
        let local = Int((date.timeIntervalSince1970 + Double(utcOffset)).rounded(.down))
        let day = floorDiv(local, 86_400)
        let (y, m, d) = civil(day)
        appendDate(y, m, d, to: &out)
        out.append(" ")
        appendClock(local - day * 86_400, to: &out)
        return out
    }

    /// "yy-M-dd".
    private static func appendDate(_ y: Int, _ m: Int, _ d: Int, to out: inout ShortText) {
        out.append(number: ((y % 100) + 100) % 100, digits: 2)
        out.append("-")
        out.append(number: m)
        out.append("-")
        out.append(number: d, digits: 2)
    }

    /// "HH:mm" of `secs` seconds into a day.
    private static func appendClock(_ secs: Int, to out: inout ShortText) {
        out.append(number: secs / 3600, digits: 2)
        out.append(":")
        out.append(number: secs % 3600 / 60, digits: 2)
    }

    private static func floorDiv(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }

    /// Proleptic Gregorian (year, month, day) of a day count since 1970-01-01 (days-from-civil
    /// inverted, exact for any day).
    package static func civil(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        return (y, m, d)
    }
}

/// A short UTF-8 text written in place (32 bytes inline, no heap, no intermediate strings): the
/// time texts of cells, read as bytes (`withUTF8`) or made a `String` (`string`; at most 15
/// bytes is a small string, stored without an allocation). Text past 32 bytes is dropped, which
/// the formats above never reach (their longest is 15 bytes).
package struct ShortText: Sendable {
    private var bytes: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    /// The number of bytes written.
    package private(set) var count = 0
    private static let capacity = 32

    package init() {}

    /// Appends `s` whole, or nothing when it does not fit (the bytes stay valid UTF-8).
    package mutating func append(_ s: StaticString) {
        s.withUTF8Buffer { b in
            guard count + b.count <= Self.capacity else { return }
            for c in b { push(c) }
        }
    }

    /// The decimal digits of `v` (a minus sign first when negative), zero-padded to `digits`.
    package mutating func append(number v: Int, digits: Int = 1) {
        var m = v.magnitude
        var tmp: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: the 20 digits of UInt64.max
        var k = 0
        withUnsafeMutableBytes(of: &tmp) { t in
            repeat {
                t[k] = UInt8(truncatingIfNeeded: 0x30 &+ m % 10)
                m /= 10
                k += 1
            } while m > 0 && k < t.count
            while k < min(digits, t.count) {
                t[k] = 0x30
                k += 1
            }
        }
        if v < 0 { push(0x2D) }
        withUnsafeBytes(of: &tmp) { t in
            while k > 0 {
                k -= 1
                push(t[k])
            }
        }
    }

    private mutating func push(_ c: UInt8) {
        guard count < Self.capacity else { return }
        let i = count
        withUnsafeMutableBytes(of: &bytes) { $0[i] = c }
        count += 1
    }

    package var string: String { withUTF8 { String(decoding: $0, as: UTF8.self) } }

    /// `body` of the bytes written.
    package func withUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        var copy = bytes
        let n = count
        return withUnsafeBytes(of: &copy) { body(UnsafeBufferPointer(rebasing: $0.bindMemory(to: UInt8.self)[..<n])) }
    }
}

/// The created-at text a cell shows: formatted from the status's date in place, or the status's
/// own text when it has no date.
enum CellTime: Sendable {
    case formatted(ShortText)
    case given(String)

    /// `body` of the text's UTF-8 bytes.
    func withUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        switch self {
        case .formatted(let t): t.withUTF8(body)
        case .given(let s): StringBytes.withUTF8(s, body)
        }
    }

    var string: String {
        switch self {
        case .formatted(let t): t.string
        case .given(let s): s
        }
    }

    var utf8Count: Int {
        switch self {
        case .formatted(let t): t.count
        case .given(let s): s.utf8.count
        }
    }
}
