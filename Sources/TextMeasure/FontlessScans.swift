import UnicodeText

/// Where the itemizer's scans around characters without a face of their own (`isFontless`)
/// stopped, kept for the rest of one `prepare`. Every character of a run of spaces, tabs or
/// format characters asks the same questions of its neighbourhood (the character before the
/// run, the next one that chooses a face, the paragraph's first strong character); answered from
/// scratch, a run of n such characters took time in n² (an Arabic letter and 100 000 spaces
/// took 7 s, 100 000 tabs 3.5 s). Each scan here resumes from the last one: `prepare` asks at
/// growing offsets, so the scans of a text take time linear in its length. An offset lower
/// than the last one asked (never the case in `prepare`) scans from scratch.
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

    /// Back over space separators and white space controls (the character before a run of
    /// spaces).
    var spaces = Back()
    /// Back over characters without a face, hard breaks excepted (before a tab or U+2028).
    var fontless = Back()
    /// Back to the paragraph's start (the last LF, CR or U+2029).
    var paragraph = Back()
    /// Back over weak characters to the last strong one or paragraph delimiter (UAX #9 W2).
    var strong = Back()
    /// The same, from a run of characters without a face (`spacesBelowRightToLeft`).
    var strongBeforeFontless = Back()
    /// The same, from a directional mark (`markItemFace`).
    var strongBeforeMark = Back()
    /// The same, from the spaces before a left-to-right letter (`nextIsInTextFace`).
    var strongBeforeSpaces = Back()
    /// The same, from a European number that white space follows (`spacesLeaveNumberLevel`).
    var strongBeforeNumber = Back()
    /// The same, from a number that white space precedes (`raisedNumberStarts`).
    var strongBeforeNextNumber = Back()
    /// Back over marks to the character that carries them (`baseIsRightToLeft`).
    var markBase = Back()
    /// Back over characters without a script to the last one with one or a paragraph delimiter.
    var scripted = Back()
    /// Whether the last cluster drawn from the emoji face ended an emoji run (an emoji
    /// presentation), rather than being a character of an ordinary run (✔).
    var emojiRun = false
    /// Whether the last cluster that chose a face was a hex box (a character no face maps).
    var afterBox = false
    /// The end of the last tab or line separator, or of the characters without a face right
    /// after one (−1 before any): a character without a face that starts here keeps their face
    /// (`fontlessSlot`).
    var forcedBreakEnd = -1
    /// The paragraph start whose direction `paragraphRightToLeft` is, −1 before any.
    var directionParagraph = -1
    var paragraphRightToLeft = false
    /// The paragraphs before `directionRead` were read for their first strong characters:
    /// `carriedDirection` is that of the last one with one (nil: none had one), the direction a
    /// paragraph without one takes.
    var directionRead = 0
    var carriedDirection: StrongDirection?
    /// Whether the first strong character's direction in the whole text was found (`textDirection`:
    /// nil when it has none), the direction before the first paragraph with one.
    var textDirectionKnown = false
    var textDirection: StrongDirection?
    /// Forward over spaces and default-ignorable characters: the offset of the next other one.
    var nextChosen = Forward<Int>(value: 0)
    /// Forward over neutral characters to the next strong one, number or paragraph end
    /// (`neutralsLeaveLevel`): its offset.
    var nextStrong = Forward<Int>(value: 0)
    /// Forward over characters without a face (`nextItemFace`): its answer.
    var nextItemFace = Forward<FontSlot?>(value: nil)
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
