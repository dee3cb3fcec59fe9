// SummaryTree: a counted B+tree with per-node summaries, the storage under `RowHeightSequence`
// (row heights) and `TableGeometry` (sections).
//
// Design
// - Leaves hold up to `leafCapacity` elements; internal nodes hold up to `fanout` children and,
//   next to the child references, two parallel arrays with each child's element count and summary,
//   so a descent scans contiguous integers instead of dereferencing children.
// - Every leaf is at the same depth. Non-root leaves hold at least `leafMinimum` elements and
//   non-root internal nodes at least `fanoutMinimum` children (checked by `_checkInvariants`).
// - Insertion (one element or a batch) inserts into one leaf and splits what overflows into evenly
//   sized pieces, which go up to the parent as new siblings; this makes bulk build, a page append
//   and a middle insert the same code path, costing O(k + log n) for k new elements.
// - Removal removes a run from one leaf at a time and repairs underflow on the way up (merge with
//   a sibling when both fit in one node, otherwise redistribute evenly), so removing k contiguous
//   elements costs O((k / leafMinimum + 1) · log n).
// - Copy-on-write: nodes are classes shared between copies of the tree; every mutation copies the
//   nodes on its path that are not uniquely referenced. A mutation therefore never changes a node
//   another tree value can see, which is why the tree is `@unchecked Sendable`.

/// A monoid summarising a run of elements; `extent` is the coordinate that offset searches walk.
protocol _TreeSummary: Sendable, Equatable {
    static var zero: Self { get }
    static func + (lhs: Self, rhs: Self) -> Self
    static func - (lhs: Self, rhs: Self) -> Self
    var extent: Int64 { get }
}

/// An element stored in a `_SummaryTree`.
protocol _TreeElement: Sendable, Equatable {
    associatedtype Summary: _TreeSummary
    var summary: Summary { get }
}

extension Int64: _TreeSummary {
    var extent: Int64 { self }
}

extension Int32: _TreeElement {
    var summary: Int64 { Int64(self) }
}

/// Node capacities of a `_SummaryTree`. Tests use small shapes to exercise deep trees.
package struct TreeShape: Sendable, Equatable {
    package var leafCapacity: Int
    package var fanout: Int

    package var leafMinimum: Int { leafCapacity / 4 }
    package var fanoutMinimum: Int { max(2, fanout / 4) }

    package init(leafCapacity: Int, fanout: Int) {
        precondition(leafCapacity >= 4 && fanout >= 4, "TreeShape: capacities must be at least 4")
        self.leafCapacity = leafCapacity
        self.fanout = fanout
    }

    /// The production shape: 256 heights (1 KiB of Int32) per leaf, 64 children per node.
    package static let standard = TreeShape(leafCapacity: 256, fanout: 64)

    /// The production shape for section entries (32 bytes each): 64 per leaf keeps the linear
    /// leaf scan of a lookup short.
    package static let sections = TreeShape(leafCapacity: 64, fanout: 64)
}

final class _TreeNode<E: _TreeElement> {
    var elements: [E]
    var children: [_TreeNode<E>]
    var childCounts: [Int]
    var childSummaries: [E.Summary]
    var count: Int
    var summary: E.Summary
    let isLeaf: Bool

    init<C: Collection>(leaf source: C) where C.Element == E {
        elements = Array(source)
        children = []
        childCounts = []
        childSummaries = []
        count = elements.count
        var s = E.Summary.zero
        for e in elements { s = s + e.summary }
        summary = s
        isLeaf = true
    }

    init(children source: [_TreeNode<E>]) {
        elements = []
        children = source
        childCounts = source.map(\.count)
        childSummaries = source.map(\.summary)
        count = childCounts.reduce(0, +)
        var s = E.Summary.zero
        for c in childSummaries { s = s + c }
        summary = s
        isLeaf = false
    }

    private init(copying other: _TreeNode<E>) {
        elements = other.elements
        children = other.children
        childCounts = other.childCounts
        childSummaries = other.childSummaries
        count = other.count
        summary = other.summary
        isLeaf = other.isLeaf
    }

    func copy() -> _TreeNode<E> { _TreeNode(copying: self) }

    /// Number of entries (elements or children) held directly by this node.
    var width: Int { isLeaf ? elements.count : children.count }

    func isUnderfull(_ shape: TreeShape) -> Bool {
        isLeaf ? elements.count < shape.leafMinimum : children.count < shape.fanoutMinimum
    }

    func makeChildUnique(_ c: Int) {
        if !isKnownUniquelyReferenced(&children[c]) { children[c] = children[c].copy() }
    }

    func refreshChild(_ c: Int) {
        childCounts[c] = children[c].count
        childSummaries[c] = children[c].summary
    }

    func recomputeTotals() {
        var s = E.Summary.zero
        if isLeaf {
            for e in elements { s = s + e.summary }
            count = elements.count
        } else {
            for c in childSummaries { s = s + c }
            count = childCounts.reduce(0, +)
        }
        summary = s
    }

    /// The child holding element `i` and the index inside it; `i == count` lands in the last child.
    @inline(__always)
    func locate(_ i: Int) -> (child: Int, local: Int) {
        var i = i
        var c = 0
        let last = childCounts.count - 1
        while c < last && i >= childCounts[c] {
            i -= childCounts[c]
            c += 1
        }
        return (c, i)
    }

    // MARK: Mutations (self is uniquely referenced)

    func update<R>(at i: Int, _ body: (inout E) -> R) -> R {
        if isLeaf {
            let old = elements[i].summary
            let r = body(&elements[i])
            summary = summary - old + elements[i].summary
            return r
        }
        let (c, local) = locate(i)
        makeChildUnique(c)
        let old = childSummaries[c]
        let r = children[c].update(at: local, body)
        childSummaries[c] = children[c].summary
        summary = summary - old + childSummaries[c]
        return r
    }

    /// Overwrites the elements from `i` on with `new` (which MUST fit in this subtree); returns
    /// the change of the summary.
    func overwrite(from i: Int, with new: ArraySlice<E>) -> (old: E.Summary, new: E.Summary) {
        var oldSum = E.Summary.zero
        var newSum = E.Summary.zero
        if isLeaf {
            var k = i
            for e in new {
                oldSum = oldSum + elements[k].summary
                newSum = newSum + e.summary
                elements[k] = e
                k += 1
            }
        } else {
            var (c, local) = locate(i)
            var rest = new
            while !rest.isEmpty {
                let take = min(rest.count, childCounts[c] - local)
                makeChildUnique(c)
                let delta = children[c].overwrite(from: local, with: rest.prefix(take))
                childSummaries[c] = children[c].summary
                oldSum = oldSum + delta.old
                newSum = newSum + delta.new
                rest = rest.dropFirst(take)
                c += 1
                local = 0
            }
        }
        summary = summary - oldSum + newSum
        return (oldSum, newSum)
    }

    /// Inserts `new` at `i`; returns the new right siblings created by splitting this node.
    func insert(_ new: ArraySlice<E>, at i: Int, shape: TreeShape) -> [_TreeNode<E>] {
        if isLeaf {
            elements.insert(contentsOf: new, at: i)
            if elements.count <= shape.leafCapacity {
                for e in new { summary = summary + e.summary }
                count = elements.count
                return []
            }
            let pieces = _chop(elements.count, capacity: shape.leafCapacity)
            let all = elements
            elements = Array(all[pieces[0]])
            recomputeTotals()
            return pieces.dropFirst().map { _TreeNode(leaf: all[$0]) }
        }
        let (c, local) = locate(i)
        makeChildUnique(c)
        let old = childSummaries[c]
        let extras = children[c].insert(new, at: local, shape: shape)
        refreshChild(c)
        count += new.count
        summary = summary - old + childSummaries[c]
        if !extras.isEmpty {
            for e in extras { summary = summary + e.summary }
            children.insert(contentsOf: extras, at: c + 1)
            childCounts.insert(contentsOf: extras.map(\.count), at: c + 1)
            childSummaries.insert(contentsOf: extras.map(\.summary), at: c + 1)
        }
        if children.count <= shape.fanout { return [] }
        let pieces = _chop(children.count, capacity: shape.fanout)
        let all = children
        children = Array(all[pieces[0]])
        childCounts = children.map(\.count)
        childSummaries = children.map(\.summary)
        recomputeTotals()
        return pieces.dropFirst().map { _TreeNode(children: Array(all[$0])) }
    }

    /// Removes up to `maxCount` elements starting at `i`, all from the leaf holding element `i`.
    /// Returns how many were removed and their summary. `i` MUST be `< count`.
    func removeRun(at i: Int, maxCount: Int, shape: TreeShape) -> (count: Int, summary: E.Summary) {
        if isLeaf {
            let end = min(elements.count, i + maxCount)
            var removed = E.Summary.zero
            for k in i..<end { removed = removed + elements[k].summary }
            elements.removeSubrange(i..<end)
            count = elements.count
            summary = summary - removed
            return (end - i, removed)
        }
        var (c, local) = locate(i)
        if local >= childCounts[c] { (c, local) = (c + 1, 0) }
        makeChildUnique(c)
        let result = children[c].removeRun(at: local, maxCount: maxCount, shape: shape)
        refreshChild(c)
        count -= result.count
        summary = summary - result.summary
        if children[c].isUnderfull(shape) { fixUnderflow(c, shape: shape) }
        return result
    }

    private func fixUnderflow(_ c: Int, shape: TreeShape) {
        guard children.count > 1 else { return }
        let a = c > 0 ? c - 1 : c
        let b = a + 1
        makeChildUnique(a)
        makeChildUnique(b)
        let left = children[a]
        let right = children[b]
        let capacity = left.isLeaf ? shape.leafCapacity : shape.fanout
        if left.width + right.width <= capacity {
            if left.isLeaf {
                left.elements.append(contentsOf: right.elements)
            } else {
                left.children.append(contentsOf: right.children)
                left.childCounts.append(contentsOf: right.childCounts)
                left.childSummaries.append(contentsOf: right.childSummaries)
            }
            left.count += right.count
            left.summary = left.summary + right.summary
            children.remove(at: b)
            childCounts.remove(at: b)
            childSummaries.remove(at: b)
            refreshChild(a)
            return
        }
        let leftWidth = (left.width + right.width) / 2
        if left.isLeaf {
            var all = left.elements
            all.append(contentsOf: right.elements)
            left.elements = Array(all[..<leftWidth])
            right.elements = Array(all[leftWidth...])
        } else {
            var all = left.children
            all.append(contentsOf: right.children)
            left.children = Array(all[..<leftWidth])
            right.children = Array(all[leftWidth...])
            left.childCounts = left.children.map(\.count)
            left.childSummaries = left.children.map(\.summary)
            right.childCounts = right.children.map(\.count)
            right.childSummaries = right.children.map(\.summary)
        }
        left.recomputeTotals()
        right.recomputeTotals()
        refreshChild(a)
        refreshChild(b)
    }

    // MARK: Traversal

    /// Calls `body` on each element from `i` on, in order, until it returns false.
    func forEach(from i: Int, _ body: (E) -> Bool) -> Bool {
        if isLeaf {
            var k = i
            while k < elements.count {
                if !body(elements[k]) { return false }
                k += 1
            }
            return true
        }
        var (c, local) = locate(i)
        if local >= childCounts[c] { return true }
        while c < children.count {
            if !children[c].forEach(from: local, body) { return false }
            local = 0
            c += 1
        }
        return true
    }
}

/// Splits `n` entries into the fewest runs of at most `capacity`, as evenly as possible.
func _chop(_ n: Int, capacity: Int) -> [Range<Int>] {
    let pieces = (n + capacity - 1) / capacity
    guard pieces > 1 else { return [0..<n] }
    let base = n / pieces
    let extra = n % pieces
    var result: [Range<Int>] = []
    result.reserveCapacity(pieces)
    var start = 0
    for p in 0..<pieces {
        let size = base + (p < extra ? 1 : 0)
        result.append(start..<(start + size))
        start += size
    }
    return result
}

/// A counted B+tree of `E` with O(log n) positional access, prefix summaries and offset search.
///
/// Thread safety: a value type with copy-on-write nodes; distinct values MAY be used from
/// different threads concurrently, one value MUST NOT be mutated concurrently with any other use.
struct _SummaryTree<E: _TreeElement>: @unchecked Sendable {
    private(set) var root: _TreeNode<E>
    let shape: TreeShape

    init(shape: TreeShape = .standard) {
        self.shape = shape
        root = _TreeNode(leaf: EmptyCollection())
    }

    /// Builds the tree from `elements` with full leaves. - Complexity: O(n).
    init(_ elements: [E], shape: TreeShape = .standard) {
        self.init(shape: shape)
        insert(contentsOf: elements[...], at: 0)
    }

    var count: Int { root.count }
    var summary: E.Summary { root.summary }

    private mutating func makeRootUnique() {
        if !isKnownUniquelyReferenced(&root) { root = root.copy() }
    }

    /// Summary of the elements before `i` (0 ≤ i ≤ count). - Complexity: O(log n).
    func prefixSummary(upTo i: Int) -> E.Summary {
        precondition(i >= 0 && i <= count, "prefixSummary: index \(i) out of 0...\(count)")
        if i == count { return root.summary }
        return descend(to: i) { _, _, before in before }
    }

    /// The element at `i` with the summary of the elements before it. - Complexity: O(log n).
    func elementAndPrefix(at i: Int) -> (element: E, prefix: E.Summary) {
        precondition(i >= 0 && i < count, "element: index \(i) out of 0..<\(count)")
        return descend(to: i) { leaf, k, before in (leaf[k], before) }
    }

    /// Walks from the root to the leaf that holds element `i` (0 ≤ i < count) and calls `body`
    /// with the leaf's elements, `i`'s index among them and the summary of the elements before
    /// `i` (the subtrees left of the path, then the leaf's elements before it).
    @inline(__always)
    private func descend<R>(to i: Int, _ body: (UnsafeBufferPointer<E>, Int, E.Summary) -> R) -> R {
        var node = root
        var i = i
        var acc = E.Summary.zero
        while !node.isLeaf {
            var c = 0
            while i >= node.childCounts[c] {
                i -= node.childCounts[c]
                acc = acc + node.childSummaries[c]
                c += 1
            }
            node = node.children[c]
        }
        return node.elements.withUnsafeBufferPointer { leaf in
            for k in 0..<i { acc = acc + leaf[k].summary }
            return body(leaf, i, acc)
        }
    }

    /// The element at `i`. - Complexity: O(log n).
    subscript(i: Int) -> E {
        precondition(i >= 0 && i < count, "subscript: index \(i) out of 0..<\(count)")
        var node = root
        var i = i
        while !node.isLeaf {
            let (c, local) = node.locate(i)
            node = node.children[c]
            i = local
        }
        return node.elements[i]
    }

    /// The first element whose end extent exceeds `offset` (0 ≤ offset), with the summary before it;
    /// `count` and the total summary when `offset` is at or past the end. Zero-extent elements are
    /// never returned unless followed by the end. - Complexity: O(log n).
    func find(extent offset: Int64) -> (index: Int, prefix: E.Summary) {
        let (index, prefix, _) = findElement(extent: offset)
        return (index, prefix)
    }

    /// `find(extent:)` that also returns the element found (nil at the end).
    /// - Complexity: O(log n).
    func findElement(extent offset: Int64) -> (index: Int, prefix: E.Summary, element: E?) {
        if offset >= root.summary.extent { return (count, root.summary, nil) }
        var node = root
        var offset = offset
        var index = 0
        var acc = E.Summary.zero
        while !node.isLeaf {
            var c = 0
            let last = node.childSummaries.count - 1
            while c < last {
                let s = node.childSummaries[c]
                if offset < s.extent { break }
                offset -= s.extent
                acc = acc + s
                index += node.childCounts[c]
                c += 1
            }
            node = node.children[c]
        }
        return node.elements.withUnsafeBufferPointer { buffer in
            var k = 0
            while k < buffer.count - 1 {
                let s = buffer[k].summary
                if offset < s.extent { break }
                offset -= s.extent
                acc = acc + s
                k += 1
            }
            return (index + k, acc, buffer[k])
        }
    }

    /// Mutates the element at `i` in place. - Complexity: O(log n).
    @discardableResult
    mutating func update<R>(at i: Int, _ body: (inout E) -> R) -> R {
        precondition(i >= 0 && i < count, "update: index \(i) out of 0..<\(count)")
        makeRootUnique()
        return root.update(at: i, body)
    }

    /// Replaces the element at `i`, returning the old one. - Complexity: O(log n).
    @discardableResult
    mutating func replace(at i: Int, with element: E) -> E {
        update(at: i) { e in
            let old = e
            e = element
            return old
        }
    }

    /// Overwrites the elements from `i` on with `elements` (same count, no structural change);
    /// returns the summaries of the old and the new elements.
    /// - Complexity: O(k + log n) for k elements.
    @discardableResult
    mutating func overwrite(from i: Int, with elements: ArraySlice<E>) -> (old: E.Summary, new: E.Summary) {
        precondition(i >= 0 && i + elements.count <= count, "overwrite: \(i)..<\(i + elements.count) out of 0..<\(count)")
        guard !elements.isEmpty else { return (.zero, .zero) }
        makeRootUnique()
        return root.overwrite(from: i, with: elements)
    }

    /// Inserts `elements` at `i` (0 ≤ i ≤ count). - Complexity: O(k + log n) for k elements.
    mutating func insert(contentsOf elements: ArraySlice<E>, at i: Int) {
        precondition(i >= 0 && i <= count, "insert: index \(i) out of 0...\(count)")
        guard !elements.isEmpty else { return }
        makeRootUnique()
        let extras = root.insert(elements, at: i, shape: shape)
        guard !extras.isEmpty else { return }
        var level = [root] + extras
        while level.count > 1 {
            level = _chop(level.count, capacity: shape.fanout).map { _TreeNode(children: Array(level[$0])) }
        }
        root = level[0]
    }

    /// Inserts one element at `i`. - Complexity: O(log n).
    mutating func insert(_ element: E, at i: Int) {
        insert(contentsOf: [element][...], at: i)
    }

    /// Removes the elements in `range`, returning their summary.
    /// - Complexity: O((k / leafMinimum + 1) · log n) for k removed elements.
    @discardableResult
    mutating func removeSubrange(_ range: Range<Int>) -> E.Summary {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "remove: \(range) out of 0..<\(count)")
        var remaining = range.count
        var removed = E.Summary.zero
        while remaining > 0 {
            makeRootUnique()
            let run = root.removeRun(at: range.lowerBound, maxCount: remaining, shape: shape)
            remaining -= run.count
            removed = removed + run.summary
            while !root.isLeaf && root.children.count == 1 { root = root.children[0] }
        }
        return removed
    }

    /// Removes and returns the element at `i`. - Complexity: O(log n).
    @discardableResult
    mutating func remove(at i: Int) -> E {
        let e = self[i]
        removeSubrange(i..<(i + 1))
        return e
    }

    /// Calls `body` on the elements from `i` on until it returns false. - Complexity: O(log n + k).
    func forEach(from i: Int, _ body: (E) -> Bool) {
        guard i < count else { return }
        _ = root.forEach(from: i, body)
    }

    /// All elements in order. - Complexity: O(n).
    var elements: [E] {
        var result: [E] = []
        result.reserveCapacity(count)
        forEach(from: 0) { result.append($0); return true }
        return result
    }

    /// Elements `range` in order. - Complexity: O(log n + k).
    func elements(in range: Range<Int>) -> [E] {
        var result: [E] = []
        result.reserveCapacity(range.count)
        guard !range.isEmpty else { return result }
        var k = range.count
        forEach(from: range.lowerBound) { e in
            result.append(e)
            k -= 1
            return k > 0
        }
        return result
    }

    /// Bytes held by the tree: object headers, stored properties and array buffers (capacity),
    /// without malloc's own rounding. - Complexity: O(n / leafCapacity).
    var residentBytes: Int {
        func bytes(_ node: _TreeNode<E>) -> Int {
            // 16-byte object header + 4 array references + count + summary + flag.
            var total = 16 + 4 * 8 + 8 + MemoryLayout<E.Summary>.stride + 8
            func buffer<T>(_ a: [T]) -> Int { a.capacity == 0 ? 0 : 32 + a.capacity * MemoryLayout<T>.stride }
            total += buffer(node.elements) + buffer(node.children) + buffer(node.childCounts) + buffer(node.childSummaries)
            for child in node.children { total += bytes(child) }
            return total
        }
        return bytes(root)
    }

    /// Verifies counts, summaries, fill bounds and uniform depth; traps on violation.
    /// - Complexity: O(n).
    func _checkInvariants() {
        func check(_ node: _TreeNode<E>, isRoot: Bool) -> Int {
            var s = E.Summary.zero
            if node.isLeaf {
                precondition(node.children.isEmpty && node.childCounts.isEmpty, "leaf with children")
                precondition(node.elements.count <= shape.leafCapacity, "leaf overflow")
                precondition(isRoot || node.elements.count >= shape.leafMinimum, "leaf underflow")
                for e in node.elements { s = s + e.summary }
                precondition(node.count == node.elements.count, "leaf count mismatch")
                precondition(node.summary == s, "leaf summary mismatch")
                return 1
            }
            precondition(node.elements.isEmpty, "internal node with elements")
            precondition(node.children.count == node.childCounts.count && node.children.count == node.childSummaries.count)
            precondition(node.children.count <= shape.fanout, "node overflow")
            precondition(node.children.count >= (isRoot ? 2 : shape.fanoutMinimum), "node underflow")
            var depth = -1
            var n = 0
            for (k, child) in node.children.enumerated() {
                precondition(node.childCounts[k] == child.count, "child count mismatch")
                precondition(node.childSummaries[k] == child.summary, "child summary mismatch")
                let d = check(child, isRoot: false)
                precondition(depth == -1 || depth == d, "leaves at different depths")
                depth = d
                n += child.count
                s = s + child.summary
            }
            precondition(node.count == n && node.summary == s, "node totals mismatch")
            return depth + 1
        }
        _ = check(root, isRoot: true)
    }
}

extension _SummaryTree: Equatable {
    /// Element-wise equality. - Complexity: O(n).
    static func == (lhs: Self, rhs: Self) -> Bool {
        if lhs.root === rhs.root { return true }
        return lhs.count == rhs.count && lhs.summary == rhs.summary && lhs.elements == rhs.elements
    }
}
