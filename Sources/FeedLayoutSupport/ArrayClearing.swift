extension Array {
    /// Removes every element and keeps the storage, doing nothing when the array is empty.
    ///
    /// `removeAll(keepingCapacity: true)` is a generic range replacement: about a hundred
    /// instructions even when there is nothing to remove. Reused buffers that are usually empty
    /// already (a parse's spare arrays, a builder's returned buffer) are emptied with this.
    @inlinable
    package mutating func removeAllKeepingCapacity() {
        if !isEmpty { removeAll(keepingCapacity: true) }
    }
}
