import StatusModel

/// A status as an element of `_SummaryTree`: the tree's element counts give positional access;
/// the summary carries nothing.
struct _StatusElement: _TreeElement {
    var status: Status
    var summary: Int64 { 0 }
}

/// The statuses of a feed section in a counted B+tree: positional reads, writes, inserts and
/// removals in O(log n), where a flat `[Status]` moves its whole tail on every insert or removal
/// (a `Status` is a few hundred bytes inline, so a middle insert at a million rows would move
/// hundreds of megabytes).
///
/// Leaves hold 32 statuses (a leaf insert moves at most ~8 KiB), internal nodes 32 children: four
/// levels for a million rows. Thread-safety: a copy-on-write value, like the geometry.
struct StatusList: Sendable {
    private var tree: _SummaryTree<_StatusElement>

    static let shape = TreeShape(leafCapacity: 32, fanout: 32)

    /// - Complexity: O(n).
    init(_ statuses: [Status] = []) {
        tree = _SummaryTree(statuses.map { _StatusElement(status: $0) }, shape: Self.shape)
    }

    /// - Complexity: O(1).
    var count: Int { tree.count }
    var isEmpty: Bool { tree.count == 0 }

    /// - Complexity: O(log n).
    subscript(i: Int) -> Status {
        get { tree[i].status }
        set { _ = tree.replace(at: i, with: _StatusElement(status: newValue)) }
    }

    /// - Complexity: O(log n).
    mutating func insert(_ status: Status, at i: Int) { tree.insert(_StatusElement(status: status), at: i) }

    /// - Complexity: O(k + log n).
    mutating func insert(contentsOf statuses: [Status], at i: Int) {
        tree.insert(contentsOf: statuses.map { _StatusElement(status: $0) }[...], at: i)
    }

    /// - Complexity: O(log n).
    @discardableResult
    mutating func remove(at i: Int) -> Status { tree.remove(at: i).status }

    /// - Complexity: O((k / 8 + 1) · log n).
    mutating func removeSubrange(_ range: Range<Int>) { _ = tree.removeSubrange(range) }

    /// Calls `body` with each status in order. - Complexity: O(n).
    func forEach(_ body: (Status) -> Void) { tree.forEach(from: 0) { body($0.status); return true } }

    /// All statuses in order. - Complexity: O(n).
    var array: [Status] {
        var result: [Status] = []
        result.reserveCapacity(count)
        forEach { result.append($0) }
        return result
    }
}
