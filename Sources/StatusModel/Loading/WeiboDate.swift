// Weibo API dates ("Wed Sep 09 10:11:34 +0800 2015"), parsed and formatted by hand: no
// DateFormatter (locale-dependent, slow to create, not Sendable), no Calendar. Civil-date
// arithmetic after Howard Hinnant's days_from_civil / civil_from_days.
import Foundation

/// Parsing and formatting of the Weibo API's `created_at` strings. Thread-safe (pure functions).
public enum WeiboDate {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    /// Parses "EEE MMM dd HH:mm:ss Z yyyy" (English names, numeric zone like +0800); nil when invalid.
    /// The weekday name must be a valid name but is not cross-checked against the date.
    public static func parse(_ s: String) -> Date? {
        let parts = s.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 6, weekdays.contains(String(parts[0])),
            let month = months.firstIndex(of: String(parts[1])),
            let day = Int(parts[2]), parts[2].count <= 2,
            let (h, m, sec) = clock(parts[3]),
            let offset = zoneOffset(parts[4]),
            let year = Int(parts[5]), parts[5].count == 4
        else { return nil }
        return makeDate(year: year, month: month + 1, day: day, hour: h, minute: m, second: sec, offset: offset)
    }

    /// Parses the classic plist's absolute forms "yyyy-MM-dd HH:mm[:ss]" (Beijing time) or a Weibo
    /// API date; nil for relative texts such as "2小时前".
    public static func parseClassic(_ s: String) -> Date? {
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
    public static func format(_ date: Date, offsetSeconds: Int = beijingOffset) -> String {
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
    public static let beijingOffset = 8 * 3600

    private static func pad(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }

    /// Years have four digits ("0023"), as `parse` requires.
    private static func year4(_ y: Int) -> String {
        let s = String(y)
        return y >= 0 && s.count < 4 ? String(repeating: "0", count: 4 - s.count) + s : s
    }

    private static func clock(_ s: Substring) -> (Int, Int, Int)? {
        let f = s.split(separator: ":", omittingEmptySubsequences: false)
        guard f.count == 3, f.allSatisfy({ $0.count == 2 }), let h = Int(f[0]), let m = Int(f[1]), let sec = Int(f[2])
        else { return nil }
        return (h, m, sec)
    }

    private static func zoneOffset(_ s: Substring) -> Int? {
        guard s.count == 5, let sign = s.first, sign == "+" || sign == "-",
            let hh = Int(s.dropFirst().prefix(2)), let mm = Int(s.suffix(2)), hh < 24, mm < 60
        else { return nil }
        return (sign == "-" ? -1 : 1) * (hh * 3600 + mm * 60)
    }

    private static func makeDate(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, offset: Int)
        -> Date?
    {
        guard (1...9999).contains(year), (1...12).contains(month), (0..<24).contains(hour),
            (0..<60).contains(minute), (0..<61).contains(second)
        else { return nil }
        let dim = [31, isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
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
