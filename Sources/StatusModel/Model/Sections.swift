// Sectioned feeds: statuses in titled sections (a friend list's groups, the sections of a model
// plist that names them, or a plain feed grouped by day, user or source on request).
//
// Grouping is stable: sections appear in the order of their first status, and statuses keep
// their input order inside a section, so the same input gives the same sections on every run.
import Foundation

/// A titled section of statuses: a friend group, a day of a feed, one user's statuses.
///
/// A value; `Sendable`. The statuses of a sectioned `Feed` are the concatenation of its
/// sections' statuses, in order.
public struct StatusSection: Sendable, Hashable {
    /// The header's title (a group name, "今天", a user's name). Empty: no title.
    public var title: String
    /// The footer's text; nil: no footer.
    public var footer: String?
    public var statuses: [Status]
    /// Members counted online, for a friend group's "online/total" count; nil for other sections.
    public var onlineCount: Int?
    /// Whether the section starts closed (only its header shown). Friend groups start closed.
    public var isCollapsed: Bool
    /// The section's title in a side index (the first character of `title` unless given).
    public var indexTitle: String

    public init(
        title: String, footer: String? = nil, statuses: [Status], onlineCount: Int? = nil, isCollapsed: Bool = false,
        indexTitle: String? = nil
    ) {
        self.title = title
        self.footer = footer
        self.statuses = statuses
        self.onlineCount = onlineCount
        self.isCollapsed = isCollapsed
        self.indexTitle = indexTitle ?? title.first.map(String.init) ?? ""
    }

    /// The count shown right of the header's title: "online/total" for a friend group, nil otherwise.
    public var detail: String? { onlineCount.map { "\($0)/\(statuses.count)" } }
}

/// How `StatusSection.group` puts a plain feed into sections.
public enum FeedGrouping: String, Sendable, Hashable, CaseIterable {
    /// By calendar day of `createdAt` in the given time zone: "今天", "昨天", "11月20日", and
    /// "2025年11月20日" for another year than now's (index titles "今", "昨", "11.20").
    /// Statuses without a date: "时间未知".
    case day
    /// By author: the screen name (the name when it is empty); deleted statuses: "未知用户".
    case user
    /// By client (`source`); statuses without one: "未知来源".
    case source
}

extension StatusSection {
    /// The title of the section of statuses without a date, in `.day` grouping.
    package static let unknownDayTitle = "时间未知"
    package static let unknownUserTitle = "未知用户"
    package static let unknownSourceTitle = "未知来源"

    /// `statuses` in sections by `grouping`: one section per distinct key, in the order of each
    /// key's first status; each section's statuses in input order (stable and deterministic).
    ///
    /// - Parameters:
    ///   - statuses: the feed's statuses, in display order.
    ///   - grouping: by day, by user or by source.
    ///   - now: the reference for "今天" and "昨天" and for whether a year is shown; nil gives
    ///     absolute titles with the year ("2026年11月20日"), so that the same feed always gives
    ///     the same sections (as the cells' dates are absolute without a reference time).
    ///   - timeZone: the calendar days' time zone (a status at 23:30 UTC is "tomorrow" in +08:00).
    /// - Complexity: O(n) (one calendar computation per status for `.day`).
    public static func group(
        _ statuses: [Status], by grouping: FeedGrouping, now: Date?, timeZone: TimeZone
    ) -> [StatusSection] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        // Without a reference time no day is "today": every title is absolute, with its year.
        var today = DateComponents()
        var yesterday = DateComponents()
        if let now {
            today = calendar.dateComponents([.year, .month, .day], from: now)
            let todayStart = calendar.date(from: today) ?? now
            yesterday = calendar.dateComponents(
                [.year, .month, .day], from: calendar.date(byAdding: .day, value: -1, to: todayStart) ?? todayStart)
        }

        func key(_ s: Status) -> String {
            switch grouping {
            case .day:
                guard let d = s.createdAt else { return unknownDayTitle }
                let c = calendar.dateComponents([.year, .month, .day], from: d)
                if c.year == today.year && c.month == today.month && c.day == today.day { return "今天" }
                if c.year == yesterday.year && c.month == yesterday.month && c.day == yesterday.day { return "昨天" }
                let (y, m, day) = (c.year ?? 0, c.month ?? 0, c.day ?? 0)
                return now != nil && c.year == today.year ? "\(m)月\(day)日" : "\(y)年\(m)月\(day)日"
            case .user:
                let name = s.user.screenName.isEmpty ? s.user.name : s.user.screenName
                return name.isEmpty ? unknownUserTitle : name
            case .source:
                return s.source.isEmpty ? unknownSourceTitle : s.source
            }
        }

        var sectionOf: [String: Int] = [:]
        var sections: [StatusSection] = []
        for s in statuses {
            let k = key(s)
            if let i = sectionOf[k] {
                sections[i].statuses.append(s)
            } else {
                sectionOf[k] = sections.count
                // A date's index title is its month and day ("11.20"); other titles' first character.
                var indexTitle: String?
                if grouping == .day, let d = s.createdAt, k != "今天", k != "昨天" {
                    let c = calendar.dateComponents([.month, .day], from: d)
                    indexTitle = "\(c.month ?? 0).\(c.day ?? 0)"
                }
                sections.append(StatusSection(title: k, statuses: [s], indexTitle: indexTitle))
            }
        }
        return sections
    }
}

extension Feed {
    /// The feed with its statuses in sections by `grouping` (`StatusSection.group`); the
    /// statuses are reordered section by section.
    public func grouped(by grouping: FeedGrouping, now: Date?, timeZone: TimeZone) -> Feed {
        let sections = StatusSection.group(statuses, by: grouping, now: now, timeZone: timeZone)
        return Feed(sections: sections, sourceName: sourceName, format: format)
    }
}
