/// A (section, row) position in a table.
public struct TableIndexPath: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var section: Int
    public var row: Int

    public init(section: Int, row: Int) {
        self.section = section
        self.row = row
    }

    public static func < (a: Self, b: Self) -> Bool { (a.section, a.row) < (b.section, b.row) }
    public var description: String { "[\(section), \(row)]" }
}

/// An axis-aligned rectangle in points, y growing downwards from the top of the content.
public struct TableRect: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var minY: Double { y }
    public var maxY: Double { y + height }
    public var description: String { "(\(x), \(y), \(width), \(height))" }
}

/// UITableView's two styles.
public enum TableStyle: Sendable, Equatable {
    /// No inset; `sectionSpacing` (default 0) between sections; headers float while scrolling.
    case plain
    /// Sections inset horizontally and separated by a gap (default 20 pt); headers scroll.
    case grouped
}

/// How expanding a section affects the others.
public enum SectionExpansionMode: Sendable, Equatable {
    /// Each section opens and closes on its own.
    case independent
    /// Opening a section closes the one opened before it (a QQ-style friend list).
    case accordion
}

/// Fixed parameters of a table: style, width, pixel scale, section spacing and inset.
public struct TableConfiguration: Sendable, Equatable {
    public var style: TableStyle
    /// Width of the table in points; rects span 0…width (minus the inset in grouped style).
    public var width: Double
    /// Pixels per point. Heights are stored as integer pixels of this scale.
    public var scale: Double
    /// Space before each section, in points (for the first section too).
    public var sectionSpacing: Double
    /// Horizontal inset of section content (headers, rows, footers), in points.
    public var horizontalInset: Double

    /// - Parameters: `sectionSpacing` and `horizontalInset` default to 0 (plain) or 20 and 16
    ///   (grouped).
    public init(style: TableStyle, width: Double, scale: Double = 2, sectionSpacing: Double? = nil, horizontalInset: Double? = nil) {
        self.style = style
        self.width = width
        self.scale = scale
        self.sectionSpacing = sectionSpacing ?? (style == .grouped ? 20 : 0)
        self.horizontalInset = horizontalInset ?? (style == .grouped ? 16 : 0)
    }
}

/// The heights that describe one section, in points.
public struct SectionSpec: Sendable, Equatable {
    public var headerHeight: Double
    public var footerHeight: Double
    public var rowHeights: [Double]
    public var isCollapsed: Bool

    public init(headerHeight: Double = 0, rowHeights: [Double], footerHeight: Double = 0, isCollapsed: Bool = false) {
        self.headerHeight = headerHeight
        self.footerHeight = footerHeight
        self.rowHeights = rowHeights
        self.isCollapsed = isCollapsed
    }
}

/// The section index (the A–Z bar): titles and the section each one jumps to.
public struct SectionIndex: Sendable, Equatable {
    public private(set) var titles: [String]
    /// `sections[i]` is the section that `titles[i]` jumps to.
    public internal(set) var sections: [Int]

    /// - Precondition: `titles` and `sections` have the same count; sections are ≥ 0.
    public init(titles: [String], sections: [Int]) {
        precondition(titles.count == sections.count, "SectionIndex: \(titles.count) titles, \(sections.count) sections")
        precondition(sections.allSatisfy { $0 >= 0 }, "SectionIndex: negative section")
        self.titles = titles
        self.sections = sections
    }

    /// Maps each index title to the first section whose title sorts at or after it (the last
    /// section if none), as an alphabetical contact list does for letters without a section.
    /// `sectionTitles` MUST be sorted and non-empty.
    /// - Complexity: O(t log s).
    public init(titles: [String], sectionTitles: [String]) {
        precondition(!sectionTitles.isEmpty, "SectionIndex: no section titles")
        let targets = titles.map { title -> Int in
            var lo = 0
            var hi = sectionTitles.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if sectionTitles[mid] < title { lo = mid + 1 } else { hi = mid }
            }
            return min(lo, sectionTitles.count - 1)
        }
        self.init(titles: titles, sections: targets)
    }

    /// The section for the first index title equal to `title`. - Complexity: O(t).
    public func section(forTitle title: String) -> Int? {
        titles.firstIndex(of: title).map { sections[$0] }
    }
}

/// A row (`TableMove<TableIndexPath>`) or a section (`TableMove<Int>`) moved with its content:
/// `from` is its index before the update, `to` after it.
public struct TableMove<Index: Hashable & Sendable>: Hashable, Sendable {
    public var from: Index
    public var to: Index
    public init(from: Index, to: Index) {
        self.from = from
        self.to = to
    }
}

/// Row and section edits applied together, like UITableView's `performBatchUpdates`: one type for
/// the table of heights (`TableBatchUpdate`, rows are heights and sections `SectionSpec`s) and the
/// feed of statuses (`FeedBatchUpdate`, rows are statuses and sections `FeedSection`s).
///
/// Index semantics (UIKit's): `reloadedRows`, `deletedRows`, `deletedSections` and the sources of
/// `movedRows` and `movedSections` use indices of the table *before* the update;
/// `insertedSections`, `insertedRows` and the destinations of the moves use indices of the table
/// *after* it. Deletes (and move sources) are applied first in descending order, then inserts (and
/// move destinations) in ascending order. When `removesEmptiedSections` is set, a section that
/// loses its last row through this batch's row deletes or moves is deleted too, in the delete
/// phase: the "after" indices MUST count it as deleted. Rows listed in `deletedRows` that belong
/// to a deleted section are ignored (they go with their section). Every index MUST be valid and no
/// row or insertion index MAY appear twice (preconditions); an invalid height throws before
/// anything changes.
public struct BatchUpdate<RowContent: Sendable, SectionContent: Sendable>: Sendable {
    /// A row's content placed at an index path: an inserted row (index after the update) or a
    /// reloaded one (index before it).
    public struct RowEdit: Sendable {
        public var indexPath: TableIndexPath
        public var content: RowContent
        public init(_ indexPath: TableIndexPath, _ content: RowContent) {
            self.indexPath = indexPath
            self.content = content
        }
    }

    /// A section inserted at `index` (after the update).
    public struct SectionInsertion: Sendable {
        public var index: Int
        public var section: SectionContent
        public init(_ index: Int, _ section: SectionContent) {
            self.index = index
            self.section = section
        }
    }

    public var deletedSections: [Int] = []
    public var deletedRows: [TableIndexPath] = []
    /// Rows whose content changed (a new height; a new like count, an edited text).
    public var reloadedRows: [RowEdit] = []
    public var movedRows: [TableMove<TableIndexPath>] = []
    /// Sections moved with their rows (after this batch's row deletes inside them, before its row
    /// inserts, whose indices are final); a moved section is never removed as emptied.
    public var movedSections: [TableMove<Int>] = []
    public var insertedSections: [SectionInsertion] = []
    public var insertedRows: [RowEdit] = []
    public var removesEmptiedSections = false

    public init() {}
}

extension BatchUpdate.RowEdit: Equatable where RowContent: Equatable {}
extension BatchUpdate.SectionInsertion: Equatable where SectionContent: Equatable {}
extension BatchUpdate: Equatable where RowContent: Equatable, SectionContent: Equatable {}

/// Edits of a `TableGeometry`: rows are heights in points, inserted sections `SectionSpec`s.
public typealias TableBatchUpdate = BatchUpdate<Double, SectionSpec>
