import UnicodeText

/// Where the itemizer's scans around characters without a face of their own (`isFontless`)
/// stopped, kept for the rest of one `prepare`. Every character of a run of spaces, tabs or
/// format characters asks the same questions of its neighbourhood (the next character that
/// chooses a face, the last one with a script); answered from scratch, a run of n such
/// characters took time in n² (an Arabic letter and 100 000 spaces took 7 s, 100 000 tabs
/// 3.5 s). Each scan here resumes from the last one: `prepare` asks at growing offsets, so the
/// scans of a text take time linear in its length. An offset lower than the last one asked
/// (never the case in `prepare`) scans from scratch. The text's bidi levels are resolved once,
/// at the first question that needs them (`levels(_:)`).
struct FontlessScans {
    /// A backward scan: the units in `stop + 1 ..< query` all satisfy the scan's test, and the
    /// unit at `stop` does not (−1: none does, back to the text's start).
    struct Back {
        var query = 0
        var stop = -1

        /// The last offset before `offset` where `skip` is false (−1 when there is none).
        @inline(__always)
        mutating func last(before offset: Int, skip: (Int) -> Bool) -> Int {
            let floor = query <= offset ? query : 0
            var k = offset - 1
            while k >= floor && skip(k) { k -= 1 }
            // Reached the last scan's offset: what was before it still holds.
            let found = k >= floor ? k : (floor > 0 ? stop : -1)
            query = offset
            stop = found
            return found
        }
    }

    /// A forward scan: from any offset in `from ... to`, the scan ends at `to`, with `value`
    /// (the scan's result there, for the same `limit` and face).
    struct Forward<Value> {
        var from = -1
        var to = -1
        var limit = -1
        var bold = false
        var value: Value

        @inline(__always)
        func answer(from offset: Int, limit: Int, bold: Bool) -> Value? {
            offset >= from && offset <= to && limit == self.limit && bold == self.bold ? value : nil
        }

        @inline(__always)
        mutating func keep(from offset: Int, to end: Int, limit: Int, bold: Bool, _ value: Value) {
            from = offset
            to = end
            self.limit = limit
            self.bold = bold
            self.value = value
        }
    }

    /// Back over characters without a script to the last one with one or a paragraph delimiter.
    var scripted = Back()
    /// Whether the last cluster drawn from the emoji face ended an emoji run (an emoji
    /// presentation), rather than being a character of an ordinary run (✔).
    var emojiRun = false
    /// Whether the item of the last cluster that chose a face was started by a hex box (a
    /// character no face maps), ranked after every face: spaces after it move to the next item.
    var afterBox = false
    /// The script of the run that item is in, while `afterBox` holds (nil while only weak
    /// characters are in it).
    var boxScript: UnicodeScript?
    /// The script of the paragraph's first character with one, once a closing bracket asked
    /// for it (nil until then, and at each paragraph's start).
    var paragraphScript: UnicodeScript?
    /// The end of the last tab or line separator, or of the characters without a face right
    /// after one (−1 before any): a character without a face that starts here keeps their face
    /// (`fontlessSlot`).
    var forcedBreakEnd = -1
    /// Forward over spaces and default-ignorable characters: the offset of the next other one.
    var nextChosen = Forward<Int>(value: 0)
    /// Forward over characters without a face (`nextItemFace`): its answer.
    var nextItemFace = Forward<FontSlot?>(value: nil)
    /// The text's bidi levels once asked for (`levels(_:)`): nil when every level is 0.
    private var bidi: BidiLevels?
    private var bidiResolved = false

    /// The bidi levels of `u` (the text of this `prepare`), resolved at the first question;
    /// nil when every level is 0.
    mutating func levels(_ u: UnsafeBufferPointer<UInt16>) -> BidiLevels? {
        if !bidiResolved {
            bidiResolved = true
            bidi = BidiLevels.resolve(u)
        }
        return bidi
    }

    /// The bidi level of the unit at `offset` of `u`.
    mutating func level(_ u: UnsafeBufferPointer<UInt16>, at offset: Int) -> UInt8 {
        levels(u)?[offset] ?? 0
    }

    /// Whether the bidi level changes between the unit before `offset` and the unit at it (an
    /// item ends there).
    mutating func levelChanges(_ u: UnsafeBufferPointer<UInt16>, at offset: Int) -> Bool {
        offset > 0 && level(u, at: offset - 1) != level(u, at: offset)
    }

    /// The offset after the run of units of `u` at the level of the unit at `offset` (the text's
    /// end when every level is 0).
    mutating func levelRunEnd(_ u: UnsafeBufferPointer<UInt16>, at offset: Int) -> Int {
        levels(u)?.levelRunEnd(at: offset) ?? u.count
    }
}

extension FontlessScans.Forward where Value == Int {
    /// Where a forward scan from `offset` stops: `skip` gives the width of the character at an
    /// offset to pass over, nil where the scan stops (or the text's end, `count`). Kept, so
    /// that a question from within the range scanned is answered without scanning again.
    @inline(__always)
    mutating func stop(from offset: Int, count: Int, skipping skip: (Int) -> Int?) -> Int {
        if let known = answer(from: offset, limit: 0, bold: false) { return known }
        var i = offset
        while i < count, let width = skip(i) { i += width }
        keep(from: offset, to: i, limit: 0, bold: false, i)
        return i
    }
}
