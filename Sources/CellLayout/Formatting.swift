import Foundation

/// Toolbar count labels (spec section 2): a zero count shows the button's word, counts up to
/// 9 999 as is, then whole ten-thousands ("N万"), from 10 000 000 whole ten-millions ("N千万").
package enum CountFormat {
    /// The label of a toolbar button with `count`; `word` is shown for zero (and negative) counts.
    ///
    /// `label(count, word:) == label(shown(count), word:)` for every count.
    package static func label(_ count: Int, word: String) -> String {
        if count <= 0 { return word }
        if count < 10_000 { return String(count) }
        if count < 10_000_000 { return "\(count / 10_000)万" }
        return "\(count / 10_000_000)千万"
    }

    /// The smallest count with the same label as `count` (0 for zero and negative counts): counts
    /// that show the same label have the same `shown` value.
    package static func shown(_ count: Int) -> Int {
        if count <= 0 { return 0 }
        if count < 10_000 { return count }
        if count < 10_000_000 { return count / 10_000 * 10_000 }
        return count / 10_000_000 * 10_000_000
    }
}

/// Relative time of a status (spec section 2), computed against a given `now` in a fixed UTC
/// offset, so results never depend on the wall clock or the machine's time zone.
///
/// Under 10 minutes "刚刚" (also for dates in the future); under an hour "N分钟前"; the same day
/// "N小时前"; the day before "昨天 HH:mm"; the same year "M-d"; else "yy-M-dd".
package enum RelativeTime {
    package static func format(_ date: Date, now: Date, utcOffset: Int) -> String {
        let delta = now.timeIntervalSince(date)
        if delta < 600 { return "刚刚" }
        if delta < 3600 { return "\(Int(delta / 60))分钟前" }
        let local = Int((date.timeIntervalSince1970 + Double(utcOffset)).rounded(.down))
        let localNow = Int((now.timeIntervalSince1970 + Double(utcOffset)).rounded(.down))
        let day = floorDiv(local, 86_400), today = floorDiv(localNow, 86_400)
        if day == today { return "\(Int(delta / 3600))小时前" }
        if day == today - 1 {
            let secs = local - day * 86_400
            return "昨天 " + twoDigits(secs / 3600) + ":" + twoDigits(secs % 3600 / 60)
        }
        let (y, m, d) = civil(day)
        if y == civil(today).year { return "\(m)-\(d)" }
        return twoDigits(((y % 100) + 100) % 100) + "-\(m)-" + twoDigits(d)
    }

    /// An absolute date "yy-M-dd HH:mm", for layouts made without a `now`.
    package static func absolute(_ date: Date, utcOffset: Int) -> String {
        let local = Int((date.timeIntervalSince1970 + Double(utcOffset)).rounded(.down))
        let day = floorDiv(local, 86_400)
        let secs = local - day * 86_400
        let (y, m, d) = civil(day)
        return twoDigits(((y % 100) + 100) % 100) + "-\(m)-" + twoDigits(d) + " "
            + twoDigits(secs / 3600) + ":" + twoDigits(secs % 3600 / 60)
    }

    private static func floorDiv(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }

    private static func twoDigits(_ v: Int) -> String { v < 10 ? "0\(v)" : String(v) }

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
