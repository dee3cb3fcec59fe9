/// Row heights in integer pixel units with O(log n) prefix sums, offset search and edits.
///
/// Heights are `Int32` pixels (points × scale, rounded by the caller's pixel grid) and every sum is
/// an exact `Int64`, so offsets never drift and results are identical on every run and platform.
/// Storage is a counted B+tree (see SummaryTree.swift): about 4 bytes per row plus ~1 % of node
/// overhead.
///
/// Thread safety: a value type (copy-on-write); copies MAY be read and mutated on different threads.
package struct RowHeightSequence: Sendable, Equatable {
    var tree: _SummaryTree<Int32>

    /// An empty sequence.
    package init() { tree = _SummaryTree() }

    /// Builds the sequence from pixel heights (each MUST be ≥ 0).
    /// - Complexity: O(n).
    package init(pixelHeights: [Int32]) {
        self.init(pixelHeights: pixelHeights, shape: .standard)
    }

    package init(pixelHeights: [Int32], shape: TreeShape) {
        precondition(pixelHeights.allSatisfy { $0 >= 0 }, "RowHeightSequence: negative height")
        tree = _SummaryTree(pixelHeights, shape: shape)
    }

    /// Number of rows. - Complexity: O(1).
    package var count: Int { tree.count }

    /// Sum of all heights in pixels. - Complexity: O(1).
    package var totalPixels: Int64 { tree.summary }

    /// Height of row `i` in pixels. - Complexity: O(log n).
    package subscript(i: Int) -> Int32 { tree[i] }

    /// Sum of the heights of the rows before `i` (0 ≤ i ≤ count). - Complexity: O(log n).
    package func pixelOffset(before i: Int) -> Int64 { tree.prefixSummary(upTo: i) }

    /// Sum of the heights of the rows in `range`. - Complexity: O(log n).
    package func pixelSum(of range: Range<Int>) -> Int64 {
        tree.prefixSummary(upTo: range.upperBound) - tree.prefixSummary(upTo: range.lowerBound)
    }

    /// The row whose pixel span `[top, top + height)` contains `offset`, with its top; `nil` when
    /// `offset` is negative or at or past the end. Zero-height rows are never returned.
    /// - Complexity: O(log n).
    package func row(atPixelOffset offset: Int64) -> (index: Int, top: Int64)? {
        guard offset >= 0, offset < tree.summary else { return nil }
        let (i, top) = tree.find(extent: offset)
        return (i, top)
    }

    /// Replaces the height of row `i`, returning the old one. - Complexity: O(log n).
    @discardableResult
    package mutating func replace(at i: Int, with height: Int32) -> Int32 {
        precondition(height >= 0, "RowHeightSequence: negative height")
        return tree.replace(at: i, with: height)
    }

    /// Replaces the heights of the rows from `i` on with `heights` (e.g. estimates corrected by
    /// real layouts arriving in order). - Complexity: O(k + log n).
    package mutating func replace(from i: Int, with heights: [Int32]) {
        precondition(heights.allSatisfy { $0 >= 0 }, "RowHeightSequence: negative height")
        tree.overwrite(from: i, with: heights[...])
    }

    /// Inserts one row at `i`. - Complexity: O(log n).
    package mutating func insert(_ height: Int32, at i: Int) {
        insert(contentsOf: [height], at: i)
    }

    /// Inserts a contiguous batch of rows at `i`. - Complexity: O(k + log n).
    package mutating func insert(contentsOf heights: [Int32], at i: Int) {
        precondition(heights.allSatisfy { $0 >= 0 }, "RowHeightSequence: negative height")
        tree.insert(contentsOf: heights[...], at: i)
    }

    /// Appends a page of rows; costs only the new rows. - Complexity: O(k + log n).
    package mutating func append(contentsOf heights: [Int32]) {
        insert(contentsOf: heights, at: count)
    }

    /// Removes row `i`, returning its height. - Complexity: O(log n).
    @discardableResult
    package mutating func remove(at i: Int) -> Int32 { tree.remove(at: i) }

    /// Removes a contiguous batch of rows, returning the sum of their heights.
    /// - Complexity: O((k / 64 + 1) · log n).
    @discardableResult
    package mutating func removeSubrange(_ range: Range<Int>) -> Int64 { tree.removeSubrange(range) }

    /// Heights of the rows in `range`. - Complexity: O(log n + k).
    package func pixelHeights(in range: Range<Int>) -> [Int32] { tree.elements(in: range) }

    /// Bytes of storage held by the sequence (node objects and buffers). - Complexity: O(n / 256).
    package var residentBytes: Int { tree.residentBytes }

    /// Traps if the tree's structural invariants do not hold. - Complexity: O(n).
    package func _checkInvariants() { tree._checkInvariants() }
}
