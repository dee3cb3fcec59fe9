// Weibo API dates ("Wed Sep 09 10:11:34 +0800 2015"), parsed and formatted by hand: no
// DateFormatter (locale-dependent, slow to create, not Sendable), no Calendar. Civil-date
// arithmetic after Howard Hinnant's days_from_civil / civil_from_days.
import Foundation

/// Parsing and formatting of the Weibo API's `created_at` strings. Thread-safe (pure functions).
package enum WeiboDate {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    /// Parses "EEE MMM dd HH:mm:ss Z yyyy" (English names, numeric zone like +0800); nil when invalid.
    /// The weekday name must be a valid name but is not cross-checked against the date. Fields are
    /// separated by one or more spaces; numbers may carry a sign where `Int(_:)` accepts one.
    package static func parse(_ s: String) -> Date? {
        var s = s
        return s.withUTF8 { parse(utf8: $0) }
    }

    /// `parse(_:)` over UTF-8 bytes (every valid date is ASCII), without making substrings.
    static func parse(utf8 b: UnsafeBufferPointer<UInt8>) -> Date? {
        // The six space-separated fields, as byte ranges.
        var fields: (Range<Int>, Range<Int>, Range<Int>, Range<Int>, Range<Int>, Range<Int>) = (0..<0, 0..<0, 0..<0, 0..<0, 0..<0, 0..<0)
        var count = 0
        var i = 0
        let n = b.count
        while i < n {
            if b[i] == 0x20 {
                i += 1
                continue
            }
            if b[i] >= 0x80 { return nil }
            var j = i
            while j < n && b[j] != 0x20 {
                if b[j] >= 0x80 { return nil }
                j += 1
            }
            switch count {
            case 0: fields.0 = i..<j
            case 1: fields.1 = i..<j
            case 2: fields.2 = i..<j
            case 3: fields.3 = i..<j
            case 4: fields.4 = i..<j
            case 5: fields.5 = i..<j
            default: return nil
            }
            count += 1
            i = j
        }
        guard count == 6, fields.0.count == 3, weekdayNames.contains(name(b, fields.0)),
            fields.1.count == 3, let month = monthNames.firstIndex(of: name(b, fields.1)),
            fields.2.count <= 2, let day = integer(b, fields.2),
            let (h, m, sec) = clock(b, fields.3),
            let offset = zoneOffset(b, fields.4),
            fields.5.count == 4, let year = integer(b, fields.5)
        else { return nil }
        return makeDate(year: year, month: month + 1, day: day, hour: h, minute: m, second: sec, offset: offset)
    }

    /// Three ASCII letters as one number, to compare names without strings.
    private static func name(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> UInt32 {
        UInt32(b[r.lowerBound]) << 16 | UInt32(b[r.lowerBound + 1]) << 8 | UInt32(b[r.lowerBound + 2])
    }

    private static let weekdayNames: [UInt32] = weekdays.map { packed($0) }
    private static let monthNames: [UInt32] = months.map { packed($0) }
    private static func packed(_ s: String) -> UInt32 { s.utf8.reduce(0) { $0 << 8 | UInt32($1) } }

    /// A decimal integer with an optional sign, as `Int(_:)` reads it; nil when empty or invalid.
    private static func integer(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> Int? {
        var i = r.lowerBound
        var negative = false
        if i < r.upperBound && (b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-")) {
            negative = b[i] == UInt8(ascii: "-")
            i += 1
        }
        guard i < r.upperBound, r.count <= 18 else { return nil }
        var v = 0
        while i < r.upperBound {
            let d = Int(b[i]) - 48
            guard d >= 0 && d < 10 else { return nil }
            v = v * 10 + d
            i += 1
        }
        return negative ? -v : v
    }

    private static func clock(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> (Int, Int, Int)? {
        let s = r.lowerBound
        guard r.count == 8, b[s + 2] == UInt8(ascii: ":"), b[s + 5] == UInt8(ascii: ":"),
            let h = integer(b, s..<s + 2), let m = integer(b, s + 3..<s + 5), let sec = integer(b, s + 6..<s + 8)
        else { return nil }
        return (h, m, sec)
    }

    private static func zoneOffset(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> Int? {
        let s = r.lowerBound
        guard r.count == 5, b[s] == UInt8(ascii: "+") || b[s] == UInt8(ascii: "-"),
            let hh = integer(b, s + 1..<s + 3), let mm = integer(b, s + 3..<s + 5), hh < 24, mm < 60
        else { return nil }
        return (b[s] == UInt8(ascii: "-") ? -1 : 1) * (hh * 3600 + mm * 60)
    }

    /// Parses the classic plist's absolute forms "yyyy-MM-dd HH:mm[:ss]" (Beijing time) or a Weibo
    /// API date; nil for relative texts such as "2小时前".
    package static func parseClassic(_ s: String) -> Date? {
        if let d = parse(s) { return d }
        let parts = s.split(separator: " ")
        guard parts.count == 2 else { return nil }
        let ymd = parts[0].split(separator: "-", omittingEmptySubsequences: false)
        guard ymd.count == 3, ymd[0].count == 4, let y = Int(ymd[0]), let mo = Int(ymd[1]), let d = Int(ymd[2])
        else { return nil }
        let hms = parts[1].split(separator: ":", omittingEmptySubsequences: false)
        guard hms.count == 2 || hms.count == 3, let h = Int(hms[0]), let mi = Int(hms[1]) else { return nil }
        let sec = hms.count == 3 ? Int(hms[2]) : 0
        guard let sec else { return nil }
        return makeDate(year: y, month: mo, day: d, hour: h, minute: mi, second: sec, offset: beijingOffset)
    }

    /// Formats `date` the way the API does, in Beijing time (+0800). Sub-second parts are dropped.
    package static func format(_ date: Date, offsetSeconds: Int = beijingOffset) -> String {
        let t = Int64(date.timeIntervalSince1970.rounded(.down)) + Int64(offsetSeconds)
        let days = floorDiv(t, 86400)
        let secs = Int(t - days * 86400)
        let (y, m, d) = civil(fromDays: days)
        let wd = Int(((days % 7) + 11) % 7)  // 1970-01-01 was a Thursday
        let sign = offsetSeconds < 0 ? "-" : "+"
        let off = abs(offsetSeconds) / 60
        return "\(weekdays[wd]) \(months[m - 1]) \(pad(d)) \(pad(secs / 3600)):\(pad(secs / 60 % 60)):\(pad(secs % 60)) "
            + "\(sign)\(pad(off / 60))\(pad(off % 60)) \(year4(y))"
    }

    /// UTC+8, the zone of the Weibo API.
    package static let beijingOffset = 8 * 3600

    private static func pad(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }

    /// Years have four digits ("0023"), as `parse` requires.
    private static func year4(_ y: Int) -> String {
        let s = String(y)
        return y >= 0 && s.count < 4 ? String(repeating: "0", count: 4 - s.count) + s : s
    }

    private static func makeDate(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, offset: Int)
        -> Date?
    {
        guard (1...9999).contains(year), (1...12).contains(month), (0..<24).contains(hour),
            (0..<60).contains(minute), (0..<61).contains(second)
        else { return nil }
        let dim = month == 2 ? (isLeap(year) ? 29 : 28) : (month == 4 || month == 6 || month == 9 || month == 11 ? 30 : 31)
        guard (1...dim).contains(day) else { return nil }
        let days = daysFromCivil(year, month, day)
        let t = days * 86400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offset)
        // `format` writes Beijing time: keep its year within four digits too, so that every parsed
        // date formats back to a parsable string.
        guard (1...9999).contains(civil(fromDays: floorDiv(t + Int64(beijingOffset), 86400)).0) else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(t))
    }

    private static func isLeap(_ y: Int) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }

    private static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }

    private static func daysFromCivil(_ y0: Int, _ m: Int, _ d: Int) -> Int64 {
        let y = Int64(m <= 2 ? y0 - 1 : y0)
        let era = floorDiv(y, 400)
        let yoe = y - era * 400
        let mp = Int64((m + 9) % 12)
        let doy = (153 * mp + 2) / 5 + Int64(d) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    private static func civil(fromDays z0: Int64) -> (Int, Int, Int) {
        let z = z0 + 719468
        let era = floorDiv(z, 146097)
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        return (Int(y), Int(m), Int(d))
    }
}
