import UnicodeText
/// Fitting prepared clusters into lines: arithmetic only, no shaping and no font access.
///
/// Design. One greedy pass over the clusters keeps the current line's start, its width up to the
/// last cluster that does not hang (`content`), its width including hanging spaces (`total`) and
/// the last break opportunity seen on the line. When a cluster would make the line overflow:
/// - if the line has a break opportunity, the line ends there and the clusters after it are carried
///   to the next line (each cluster is carried at most once per line it lands on);
/// - otherwise the run does not fit on a line of its own, and the line is broken before the
///   cluster (a grapheme boundary): word wrapping falls back to character wrapping.
/// Hanging clusters (spaces, line separators) never cause an overflow and are not counted in a
/// line's width. A break, though, is taken only where the line fits with its trailing white space
/// but the last cluster before the break, as Pango tests a break (it leaves out the last
/// character's width when that character is white space): one space before a break hangs, a
/// second one counts, and so do the spaces before a hard break (the separator is the last
/// character) or before the end of the text but the last. A tab is placed whole, as Pango places
/// a tab item, even past the width; the width left after it is clamped at 0, so one space may
/// still hang after it and a second one, or text, wraps (to the last opportunity before the tab:
/// there is none right before a tab). Every line holds at least one cluster, so a width of 0
/// still terminates.
/// Tabs: a tab's advance is found from the pen position on its line (`TabAdvances`), so every sum
/// of advances here runs from a line start; texts without tabs take the stored advances
/// (`StoredAdvances`, the same code specialized).

extension PreparedText {
    /// Lays the text out at `options.width`.
    ///
    /// MUST give exactly the lines a fresh prepare followed by layout gives (it reads only the
    /// prepared values). MAY run concurrently on the same value.
    /// - Complexity: O(clusters + entities), no shaping.
    public func layout(_ options: LayoutOptions, truncationToken: PreparedText? = nil) -> TextLayout {
        if clusterCount == 0 { return .empty }
        var arena = LineArena(capacity: estimatedLineCount(maxWidth: Self.lineWidth(options.width)))
        return layout(options, truncationToken: truncationToken, into: &arena)
    }

    /// `layout(options, truncationToken:)` with the lines written into `arena` (with the lines
    /// of the other texts laid out into it), instead of storage of their own.
    package func layout(_ options: LayoutOptions, truncationToken: PreparedText? = nil, into arena: inout LineArena) -> TextLayout {
        if clusterCount == 0 { return .empty }
        let maxWidth = Self.lineWidth(options.width)
        arena.begin()
        let fullHeight = withUnsafeMutablePointer(to: &arena) { a in
            runFonts.withUnsafeBufferPointer { fonts in
                var acc = LineAccumulator(a, lineHeight: options.lineHeight.sanitized, fonts: fonts)
                clusters.withUnsafeBufferPointer { cl in
                    if tabInterval == 0 {
                        fitLines(cl, maxWidth: maxWidth, charWrap: options.wrap == .character, StoredAdvances(), into: &acc)
                    } else {
                        fitLines(cl, maxWidth: maxWidth, charWrap: options.wrap == .character, advances, into: &acc)
                    }
                }
                return acc.fullHeight
            }
        }
        return assemble(&arena, fullHeight: fullHeight, options: options, maxWidth: maxWidth, truncationToken: truncationToken)
    }

    /// The line width of a layout at `width`: non-finite or negative widths as `LayoutOptions`
    /// documents.
    private static func lineWidth(_ width: Double) -> Double {
        width.isFinite ? max(0, width) : (width > 0 ? .greatestFiniteMagnitude : 0)
    }

    /// A line count to reserve room for when the text is laid out at `width` (as `layout` does
    /// for its own lines), for callers laying several texts out into one `LineArena`.
    package func estimatedLineCount(width: Double) -> Int {
        clusterCount == 0 ? 0 : estimatedLineCount(maxWidth: Self.lineWidth(width))
    }

    /// The number of lines `layout(options)` gives and its heights, without building the lines.
    ///
    /// MUST equal `layout(options)`'s `lines.count`, `size.height` and `fullHeight` (any token:
    /// on a line grid a token changes no height). With the natural line-height policy it is
    /// computed through `layout`; on a grid it is the same greedy pass counting lines, with no
    /// allocation: what a row height needs when a feed changes width.
    /// - Complexity: O(clusters), no shaping.
    public func lineMetrics(_ options: LayoutOptions) -> (lineCount: Int, height: Double, fullHeight: Double) {
        guard case .grid(let pitch, let ascent, let descent) = options.lineHeight.sanitized else {
            let l = layout(options)
            return (l.lines.count, l.size.height, l.fullHeight)
        }
        if clusterCount == 0 { return (0, 0, 0) }
        let maxWidth = Self.lineWidth(options.width)
        var counter = LineCounter()
        clusters.withUnsafeBufferPointer { cl in
            if tabInterval == 0 {
                fitLines(cl, maxWidth: maxWidth, charWrap: options.wrap == .character, StoredAdvances(), into: &counter)
            } else {
                fitLines(cl, maxWidth: maxWidth, charWrap: options.wrap == .character, advances, into: &counter)
            }
        }
        // As `LineAccumulator` and `assemble` compute them: line k's baseline is ascent + k·pitch.
        func bottom(_ count: Int) -> Double { count == 0 ? 0 : ascent + Double(count - 1) * pitch + descent }
        let full = counter.count
        let visible = options.maxLines > 0 ? min(full, options.maxLines) : full
        var height = bottom(visible), fullHeight = bottom(full)
        if let grid = options.grid {
            height = grid.ceil(height)
            fullHeight = grid.ceil(fullHeight)
        }
        return (visible, height, visible < full ? fullHeight : height)
    }

    /// The widest line the greedy pass measures when nothing wraps: the largest width of a line
    /// start through a cluster that does not hang (hanging clusters before it included), or up to
    /// a hanging one (the test of a break after it; not in a run of white space with a tab), lines
    /// split at hard breaks only. `layout` at any width `w >= unwrappedWidth` breaks no line for
    /// width, so its result is the same at every such `w` (the line limit and the token aside).
    /// - Complexity: O(clusters).
    public var unwrappedWidth: Double {
        var widest = 0.0
        let rule = advances
        clusters.withUnsafeBufferPointer { cl in
            var total = 0.0
            for c in cl {
                let before = total
                total += rule.advance(c, at: total)
                if c.flags & ClusterFlags.hanging == 0 {
                    // The pass's overflow test, `total + a > maxWidth`, for every cluster of a line.
                    widest = max(widest, total)
                    continue
                }
                // Its test at white space (a tab's too): the width before the cluster.
                widest = max(widest, before)
                if c.flags & ClusterFlags.mandatoryAfter != 0 { total = 0 }
            }
        }
        return widest
    }

    /// How far past the width a line may reach and still fit: sums of advances differ from the
    /// width they equal by rounding.
    private static var fitSlack: Double { 1e-7 }

    /// The greedy pass (see the file's comment): appends every line to `acc`.
    private func fitLines<Sink: LineSink, Rule: AdvanceRule>(
        _ cl: UnsafeBufferPointer<Cluster>, maxWidth: Double, charWrap: Bool, _ rule: Rule, into acc: inout Sink
    ) {
        let n = cl.count
        let limit = Self.fitSlack
        var start = 0
        var total = 0.0  // width of clusters start..<i, hanging ones included
        var content = 0.0  // width up to the last non-hanging cluster
        var lastBreak = -1  // last cluster (>= start) after which the line may break
        var contentAtBreak = 0.0
        var lastHard = false  // the last line ended at a hard break
        let overflowWidth = maxWidth + limit
        let breakAll = charWrap ? ClusterFlags.breakAfter : 0
        var i = 0
        // The width left on the line, as the fit tests of a text with tabs see it: Pango places
        // a tab whole and clamps the width left at 0, so what follows a tab, or a line's first
        // cluster, that took the line past the width is tested against a full line, not an
        // overfull one. Positions (tab stops) still run from the line start, in `total`. Kept
        // as what is left, not as the width used or `total` less an excess: at extreme sizes a
        // small advance added to a huge sum is lost (10^6 pt after a 1e300 pt first cluster),
        // subtracted from a clamped 0 it is not.
        var left = maxWidth
        var clamped = false
        /// Starts a line at cluster `s`, with nothing on it.
        @inline(__always) func startLine(at s: Int) {
            start = s
            total = 0; content = 0
            lastBreak = -1
            left = maxWidth; clamped = false
        }
        /// Ends the line at `end` (exclusive), `width` wide, and starts the next there: its
        /// clusters are measured again from the new start. (A hard break ends its line after
        /// the cluster at hand, which is not measured again: it calls `startLine` itself; as a
        /// jump back here, the loop compiled to 3.7 % more instructions.)
        @inline(__always) func endLine(at end: Int, width: Double) {
            let width = hasNoBreakSpaces
                ? Self.widthWithNoBreakSpaces(cl, start: start, end: end, content: width, wraps: true, rule) : width
            acc.add(start, end, width: width, cl)
            startLine(at: end)
            i = start
        }
        while i < n {
            // The common run: clusters that neither hang nor end a line by force, and fit. The
            // steps below do the same for them; as a loop of its own they keep the line's few
            // values in registers (~22 → ~15 instructions a cluster, −0.8 M of a 5-pass cold
            // profile's 112 M).
            while i < n {
                let c = cl[i]
                if c.flags & (ClusterFlags.hanging | ClusterFlags.mandatoryAfter) != 0 { break }
                let a = rule.advance(c, at: total)
                let t = total + a
                if Rule.mayHaveTabs ? left - a < -limit : t > overflowWidth { break }
                total = t
                content = t
                if Rule.mayHaveTabs { left -= a }
                if (c.flags | breakAll) & ClusterFlags.breakAfter != 0 && !(Rule.mayHaveTabs && beforeTab(cl, i)) {
                    lastBreak = i
                    contentAtBreak = t
                }
                i += 1
            }
            if i == n { break }
            let a = rule.advance(cl[i], at: total)
            let f = cl[i].flags
            if f & ClusterFlags.hanging == 0 {
                if (Rule.mayHaveTabs ? left - a < -limit : total + a > maxWidth + limit) && i > start {
                    let (end, w) = overflowEnd(
                        cl, i, start: start, total: total, content: content, left: left, advance: a, lastBreak: lastBreak,
                        contentAtBreak: contentAtBreak, maxWidth: maxWidth, charWrap: charWrap, clamped: clamped, rule)
                    // (Else a zero-width item after white space: it stays on the line.)
                    if end >= 0 {
                        endLine(at: end, width: w)
                        continue
                    }
                }
                total += a
                content = total
                if Rule.mayHaveTabs {
                    left -= a
                    if i == start && left < 0 { left = 0; clamped = true }
                }
            } else {
                // `total` is the test of a break after this cluster (the white space before it
                // counts, it does not), and of every later one on the line: when it overflows, the
                // line ends before this cluster, at the last opportunity that fits, else (no word
                // fits) right before it, or before the white space when it is a hard break (no
                // line starts with one).
                // A tab is not tested when a break may come right before it: the white space before
                // it was tested without its last character, as Pango tests an item that ends in
                // white space; without one (an en space before it), that white space counts whole.
                let tested = !Rule.mayHaveTabs || f & ClusterFlags.tab == 0 || i == start || cl[i - 1].flags & ClusterFlags.breakAfter == 0
                if tested && (Rule.mayHaveTabs ? left < -limit : total > overflowWidth) && i > start
                    && (Rule.mayHaveTabs || !Self.fitsAfterZeroWidthItem(cl, i, content: content, maxWidth: overflowWidth))
                {
                    var found: (Int, Double)?
                    if lastBreak >= start {
                        found = fittingBreak(
                            cl, start: start, lastBreak: lastBreak, contentAtBreak: contentAtBreak,
                            maxWidth: overflowWidth, charWrap: charWrap, clamped: clamped, rule)
                    }
                    if found == nil {
                        if Rule.mayHaveTabs && f & ClusterFlags.tab != 0 {
                            // A tab no break may come before, after white space that took the
                            // line past the width, with no opportunity before that fits: Pango
                            // keeps the overfull item and puts the tab after it (`)A1\u{3000}\t`
                            // at 40 pt is one line); a line may end after the tab.
                        } else if f & ClusterFlags.mandatoryAfter == 0 {
                            found = (i, content)
                        } else if i - 1 > start {
                            found = (i - 1, content)
                        }
                        // (Else the line is one cluster and its hard break: it ends there.)
                    }
                    if let (end, w) = found {
                        endLine(at: end, width: w)
                        continue
                    }
                }
                if Rule.mayHaveTabs && f & ClusterFlags.tab != 0 {
                    // The width left is clamped at 0 before the tab and after it.
                    if left < 0 { left = 0; clamped = true }
                    total += a
                    left -= a
                    if left < 0 { left = 0; clamped = true }
                } else {
                    total += a
                    if Rule.mayHaveTabs { left -= a }
                }
            }
            if f & ClusterFlags.mandatoryAfter != 0 && !lineSeparatorEndsParagraph(cl, i) {
                let width = hasNoBreakSpaces
                    ? Self.widthWithNoBreakSpaces(cl, start: start, end: i + 1, content: content, wraps: false, rule) : content
                acc.add(start, i + 1, width: width, cl)
                lastHard = i + 1 == n
                startLine(at: i + 1)
            } else if (charWrap || f & ClusterFlags.breakAfter != 0) && !(Rule.mayHaveTabs && beforeTab(cl, i)) {
                lastBreak = i
                contentAtBreak = content
            }
            i += 1
        }
        if start < n {
            let width = hasNoBreakSpaces
                ? Self.widthWithNoBreakSpaces(cl, start: start, end: n, content: content, wraps: false, rule) : content
            acc.add(start, n, width: width, cl)
        } else if lastHard {
            // A hard break at the very end leaves an empty last line.
            acc.add(n, n, width: 0, cl)
        }
    }

    /// The width of the line `start..<end` whose width up to its last cluster that does not hang
    /// is `content`, with the no-break spaces after that cluster that Pango counts
    /// (`ClusterFlags.white`): the hanging clusters up to the last no-break space among them,
    /// but for one that ends a line that wraps (`wraps`: not at a paragraph's end), which Pango
    /// leaves out as it leaves out a space there. (`x\u{A0}` is as wide as both where the text
    /// ends; `x\u{A0} ` wraps as wide as both; `x \u{A0}` wraps as wide as `x `.)
    @inline(never)
    private static func widthWithNoBreakSpaces<Rule: AdvanceRule>(
        _ cl: UnsafeBufferPointer<Cluster>, start: Int, end: Int, content: Double, wraps: Bool, _ rule: Rule
    ) -> Double {
        var r = end, lastWhite = -1
        while r > start && cl[r - 1].flags & ClusterFlags.hanging != 0 {
            r -= 1
            if lastWhite < 0 && cl[r].flags & ClusterFlags.white != 0 { lastWhite = r }
        }
        guard lastWhite >= 0 else { return content }
        let through = wraps && lastWhite == end - 1 ? end - 2 : lastWhite
        // Summed in text order from `content`, as the pass sums its total.
        var width = content
        var k = r
        while k <= through {
            width += rule.advance(cl[k], at: width)
            k += 1
        }
        return width
    }

    /// Whether zero-width cluster `i`, after hanging cluster `i - 1`, starts an item of its own in
    /// Pango: in another face (a mark the text face lacks: `中 \u{308}`), with a script of its
    /// own (U+180E), or at another bidi level (U+200F, U+061C). Pango clamps the width left on a
    /// line at 0 after each item it places, and an item of no width still fits: after white space
    /// that took the line past the width (a break after it is tested without it), such an item
    /// stays on the line, and the white space before it counts in the line's width. (In the item
    /// of the white space, a break after the cluster would be tested with the white space, and
    /// the line ends before the cluster.) Out of line: asked where a line ends so, rarely.
    @inline(never)
    private func startsItem(_ cl: UnsafeBufferPointer<Cluster>, _ i: Int) -> Bool {
        if cl[i].fontRef != cl[i - 1].fontRef { return true }
        let units = UnsafeBufferPointer(start: storage.textUnits, count: utf16Count)
        let at = Int(cl[i - 1].end)
        let script = UnicodeScript.of(TextMeasurer.scalar(startingAt: at, units))
        if !script.isWeak {
            // The run's script: that of the last character with one before it in the paragraph
            // (none: the run takes this one's).
            var k = at
            while k > 0 {
                let v = TextMeasurer.scalar(endingAt: k - 1, units)
                if TextMeasurer.isParagraphDelimiter(v) { break }
                let before = UnicodeScript.of(v)
                if !before.isWeak { return before != script }
                k -= v > 0xFFFF ? 2 : 1
            }
            return false
        }
        // (Resolved once per text and thread: a text may ask at each of its lines.)
        let state = ThreadState.current
        if state.levelsText !== storage {
            state.levels = BidiLevels.resolve(units)
            state.levelsText = storage
        }
        guard let resolved = state.levels else { return false }
        return resolved[at] != resolved[at - 1]
    }

    /// Whether hanging cluster `i` fits on an overfull line right after a zero-width item that
    /// stayed on it (`startsItem`: the line's `content` is past the width): Pango's width left
    /// is 0 there, and white space with a break after it is tested without its own width, so it
    /// fits too (`门 \u{200F} \u{AD}`: both spaces stay on the line). Out of line: asked where
    /// white space takes a line past the width.
    @inline(never)
    private static func fitsAfterZeroWidthItem(
        _ cl: UnsafeBufferPointer<Cluster>, _ i: Int, content: Double, maxWidth: Double
    ) -> Bool {
        cl[i].flags & ClusterFlags.breakAfter != 0 && content > maxWidth && cl[i - 1].advance == 0
            && cl[i - 1].flags & ClusterFlags.hanging == 0
    }

    /// Width of clusters `start..<end` without the trailing hanging ones.
    private static func contentWidth<Rule: AdvanceRule>(
        _ cl: UnsafeBufferPointer<Cluster>, _ start: Int, _ end: Int, _ rule: Rule
    ) -> Double {
        var total = 0.0, content = 0.0
        for j in start..<end {
            total += rule.advance(cl[j], at: total)
            if cl[j].flags & ClusterFlags.hanging == 0 { content = total }
        }
        return content
    }

    /// The line end at the last break opportunity `lastBreak`, unless the kerning its final
    /// cluster loses is what makes that line overflow: then the latest earlier opportunity that
    /// fits, or nil when none does (the caller then breaks between clusters).
    /// With `clamped` (a tab or the line's first cluster took the line past the width), every
    /// opportunity is tested against the width left after it, clamped at 0 as Pango does.
    /// - Returns: the end cluster (exclusive) and the line's width.
    private func fittingBreak<Rule: AdvanceRule>(
        _ cl: UnsafeBufferPointer<Cluster>, start: Int, lastBreak: Int, contentAtBreak: Double, maxWidth: Double,
        charWrap: Bool, clamped: Bool = false, _ rule: Rule
    ) -> (Int, Double)? {
        let w = contentAtBreak + lineEndCorrection(after: lastBreak)
        var last = lastBreak
        if !(Rule.mayHaveTabs && clamped) {
            let fit = breakFit(cl, start: start, at: lastBreak, content: contentAtBreak, rule)
            if fit == contentAtBreak {
                if w <= maxWidth || contentAtBreak > maxWidth || !hasLineEndCorrections { return (lastBreak + 1, w) }
            } else if fit + (w - contentAtBreak) <= maxWidth {
                return (lastBreak + 1, w)
            }
            last = lastBreak - 1
        }
        var best: (Int, Double)?
        // `total` places tabs; `left` is the width left as a text with tabs tests it, clamped
        // at 0 as in `fitLines`.
        var total = 0.0, content = 0.0
        var left = maxWidth
        var j = start
        while j <= last {
            let isTab = Rule.mayHaveTabs && cl[j].flags & ClusterFlags.tab != 0
            if isTab && left < 0 { left = 0 }
            let before = total, leftBefore = left
            let a = rule.advance(cl[j], at: total)
            total += a
            if Rule.mayHaveTabs { left -= a }
            let hangs = cl[j].flags & ClusterFlags.hanging != 0
            if !hangs { content = total }
            if Rule.mayHaveTabs && (isTab || (j == start && !hangs)) && left < 0 { left = 0 }
            if (charWrap || cl[j].flags & ClusterFlags.breakAfter != 0) && !(Rule.mayHaveTabs && beforeTab(cl, j)) {
                let correction = lineEndCorrection(after: j)
                // A hanging cluster's break is tested without it; any other's with it (it is
                // the line's last non-hanging cluster).
                let fits =
                    Rule.mayHaveTabs
                    ? (hangs ? leftBefore : left) - correction >= 0 : (hangs ? before : content) + correction <= maxWidth
                if fits { best = (j + 1, content + correction) }
            }
            j += 1
        }
        return best
    }

    /// Where the line from `start` ends when non-hanging cluster `i` takes it past the width
    /// (`total`, `content` and `left`: the line before `i`; `advance`: `i`'s), and its width; an
    /// end of -1 when `i` is a zero-width item that stays on the line (`startsItem`).
    /// Once a line, so out of the loop over clusters: inside it the steps took registers from
    /// the loop.
    @inline(never)
    private func overflowEnd<Rule: AdvanceRule>(
        _ cl: UnsafeBufferPointer<Cluster>, _ i: Int, start: Int, total: Double, content: Double, left: Double,
        advance a: Double, lastBreak: Int, contentAtBreak: Double, maxWidth: Double, charWrap: Bool, clamped: Bool,
        _ rule: Rule
    ) -> (Int, Double) {
        let limit = Self.fitSlack
        if a == 0 && !Rule.mayHaveTabs && content <= maxWidth + limit && cl[i - 1].flags & ClusterFlags.hanging != 0
            && startsItem(cl, i)
        {
            return (-1, 0)
        }
        let unkerned = fitsWithoutKerning(cl, i, total: total, left: left, advance: a, maxWidth: maxWidth, rule)
        if let w = unkerned, charWrap || cl[i].flags & ClusterFlags.breakAfter != 0 {
            return (i + 1, w)
        }
        if lastBreak >= start,
            let found = fittingBreak(
                cl, start: start, lastBreak: lastBreak, contentAtBreak: contentAtBreak,
                maxWidth: maxWidth + limit, charWrap: charWrap, clamped: clamped, rule)
        {
            // (The carried clusters hold break opportunities when the kerning loss moved the
            // break back.)
            return found
        }
        // Broken between clusters: if the cluster at hand overflows only by its kerning, it
        // fits; else the last one before it loses its kerning with it, and if that makes the
        // line overflow, one fewer cluster fits. (Widths exclude trailing hanging clusters, as
        // everywhere.)
        if let w = unkerned { return (i + 1, w) }
        var end = i
        var w = content + lineEndCorrection(after: end - 1)
        while w > maxWidth + limit && end - 1 > start {
            end -= 1
            w = Self.contentWidth(cl, start, end, rule) + lineEndCorrection(after: end - 1)
        }
        return (end, w)
    }

    /// The line's width when it ends after non-hanging cluster `i`, where a break may come, and
    /// `i` takes the line past the width only by its kerning with the next cluster: a line end
    /// drops that kerning (Pango tests a break near the end of the line by shaping the line's
    /// part of the run again), so the line ends after `i`. Nil when that is not so. (`total`
    /// and `left`: the line before `i`; `advance`: `i`'s.)
    @inline(never)
    private func fitsWithoutKerning<Rule: AdvanceRule>(
        _ cl: UnsafeBufferPointer<Cluster>, _ i: Int, total: Double, left: Double, advance a: Double, maxWidth: Double,
        _ rule: Rule
    ) -> Double? {
        guard hasLineEndCorrections, i + 1 < cl.count, cl[i + 1].flags & ClusterFlags.hanging == 0,
            !(Rule.mayHaveTabs && beforeTab(cl, i))
        else { return nil }
        let correction = lineEndCorrection(after: i)
        guard correction < 0 else { return nil }
        let limit = Self.fitSlack
        let fits = Rule.mayHaveTabs ? left - a - correction >= -limit : total + a + correction <= maxWidth + limit
        return fits ? total + a + correction : nil
    }

    /// Whether cluster `i + 1` is a tab: Pango never breaks right before a tab (it takes a break
    /// opportunity only inside an item or at the start of one that does not fit, and a tab item
    /// always fits).
    @inline(__always)
    private func beforeTab(_ cl: UnsafeBufferPointer<Cluster>, _ i: Int) -> Bool {
        i + 1 < cl.count && cl[i + 1].flags & ClusterFlags.tab != 0
    }

    /// Whether hard-break cluster `i` is a line separator (U+2028) that ends a paragraph (the text
    /// ends after it, or `\n`, `\r` or U+2029 follows): it then starts no line of its own, as in
    /// Pango, and its line ends with the paragraph. Out of line: only hard breaks ask.
    @inline(never)
    private func lineSeparatorEndsParagraph(_ cl: UnsafeBufferPointer<Cluster>, _ i: Int) -> Bool {
        let start = i == 0 ? 0 : Int(cl[i - 1].end)
        let end = Int(cl[i].end)
        let units = storage.textUnits
        guard start < end, units[start] == 0x2028 else { return false }
        if end >= utf16Count { return true }
        let next = units[end]
        return next == 0x0A || next == 0x0D || next == 0x2029
    }

    /// The width a break after cluster `at` is tested with, on the line from `start` whose width
    /// up to its last cluster that does not hang is `content`: `content`, plus, when cluster `at`
    /// hangs, the white space before it on the line (Pango leaves out only the last character's
    /// width; a tab counts whole).
    private func breakFit<Rule: AdvanceRule>(
        _ cl: UnsafeBufferPointer<Cluster>, start: Int, at j: Int, content: Double, _ rule: Rule
    ) -> Double {
        guard cl[j].flags & ClusterFlags.hanging != 0 else { return content }
        var r = j
        while r > start && cl[r - 1].flags & ClusterFlags.hanging != 0 { r -= 1 }
        // Summed in text order from `content`, as the pass sums its total.
        var fit = content
        for k in r..<j { fit += rule.advance(cl[k], at: fit) }
        return fit
    }

    /// Applies the line limit and the token to the laid-out lines and computes the bounding size.
    private func assemble(
        _ arena: inout LineArena, fullHeight: Double, options: LayoutOptions, maxWidth: Double,
        truncationToken: PreparedText?
    ) -> TextLayout {
        let fullCount = arena.count
        let limited = options.maxLines > 0 && fullCount > options.maxLines
        var fullHeight = fullHeight
        var token: TokenPlacement?
        if limited {
            let visibleCount = options.maxLines
            arena.removeLast(fullCount - visibleCount)
            let lines = arena.current
            let index = visibleCount - 1
            var line = lines[index]
            let span = LineSpan(start: line.clusters.lowerBound, end: line.clusters.upperBound, width: line.width, hard: false)
            let tokenWidth = truncationToken.map(\.naturalWidth) ?? 0
            let (keep, keptWidth) = truncate(span, toFit: maxWidth - tokenWidth)
            line.clusters = span.start..<keep
            line.range = line.range.lowerBound..<utf16Offset(ofCluster: keep)
            line.width = keptWidth
            if let tokenText = truncationToken, options.lineHeight == .natural {
                for f in tokenText.runFonts {
                    line.ascent = max(line.ascent, f.ascent)
                    line.descent = max(line.descent, f.descent)
                }
                line.baseline = (index > 0 ? lines[index - 1].bottom : 0) + line.ascent
            }
            token = TokenPlacement(line: index, x: keptWidth, width: tokenWidth)
            lines[index] = line
        }
        let lines = arena.current
        var width = 0.0
        if let token {
            for (k, line) in lines.enumerated() { width = max(width, line.width + (token.line == k ? token.width : 0)) }
        } else {
            for line in lines { width = max(width, line.width) }
        }
        var height = lines.last?.bottom ?? 0
        if let grid = options.grid {
            width = grid.ceil(width)
            height = grid.ceil(height)
            fullHeight = grid.ceil(fullHeight)
        }
        if !limited { fullHeight = height }
        return TextLayout(
            lines: arena.finish(), size: Size(width: width, height: height), fullLineCount: fullCount,
            fullHeight: fullHeight, token: token)
    }

    /// A line count to reserve room for: the total advance over the width, plus the hard breaks.
    private func estimatedLineCount(maxWidth: Double) -> Int {
        let ratio = maxWidth > 0 ? totalAdvance / maxWidth : Double(clusterCount)
        // Extreme sizes can make the total infinite or NaN: then no estimate, the array grows.
        let byWidth = ratio.isFinite && ratio > 0 ? min(Double(clusterCount), ratio) : 0
        return Int(byWidth) + Int(hardBreakCount) + 1
    }

    /// The largest prefix of the span whose width (without hanging clusters) fits in `room`.
    /// - Returns: the end cluster of the kept prefix and its width.
    private func truncate(_ span: LineSpan, toFit room: Double) -> (Int, Double) {
        var total = 0.0, content = 0.0
        var keep = span.start, keptWidth = 0.0
        var i = span.start
        let rule = advances
        while i < span.end {
            let c = cluster(i)
            let hangs = c.flags & ClusterFlags.hanging != 0
            total += rule.advance(c, at: total)
            if !hangs {
                if total > room + Self.fitSlack { break }
                content = total
                keep = i + 1
                keptWidth = content
            }
            i += 1
        }
        return (keep, keptWidth)
    }

    /// UTF-16 offset where cluster `i` starts (`utf16Count` past the end).
    func utf16Offset(ofCluster i: Int) -> Int { i == 0 ? 0 : Int(cluster(i - 1).end) }

    /// Width of the whole text on one line, without trailing hanging clusters (but for no-break
    /// spaces, which a paragraph's end keeps: `ClusterFlags.white`).
    public var naturalWidth: Double {
        var total = 0.0, content = 0.0
        let rule = advances
        clusters.withUnsafeBufferPointer { cl in
            for c in cl {
                total += rule.advance(c, at: total)
                if c.flags & (ClusterFlags.hanging | ClusterFlags.white) != ClusterFlags.hanging { content = total }
            }
        }
        return content
    }
}

/// Where the greedy pass delivers each line it finds.
private protocol LineSink {
    mutating func add(_ start: Int, _ end: Int, width: Double, _ cl: UnsafeBufferPointer<Cluster>)
}

/// Counts lines (`lineMetrics`).
private struct LineCounter: LineSink {
    var count = 0
    mutating func add(_ start: Int, _ end: Int, width: Double, _ cl: UnsafeBufferPointer<Cluster>) {
        count += 1
    }
}

/// The lines of a layout as the greedy pass finds them, with their vertical metrics (every line,
/// even past `maxLines`: `assemble` drops those after the full height is known).
private struct LineAccumulator: LineSink {
    /// Where the lines go (the caller's arena, borrowed for the pass).
    let arena: UnsafeMutablePointer<LineArena>
    var count = 0
    var y = 0.0  // natural: bottom of the previous line
    var fullHeight = 0.0
    let lineHeight: LineHeightPolicy
    /// The text's run fonts, borrowed for the pass (read through a pointer, a line costs no
    /// retain of their array).
    let fonts: UnsafeBufferPointer<RunFont>
    /// Every cluster uses the base font (`fonts` has one entry).
    let singleFont: Bool
    let baseAscent: Double
    let baseDescent: Double

    init(_ arena: UnsafeMutablePointer<LineArena>, lineHeight: LineHeightPolicy, fonts: UnsafeBufferPointer<RunFont>) {
        self.arena = arena
        self.lineHeight = lineHeight
        self.fonts = fonts
        singleFont = fonts.count == 1
        baseAscent = fonts[0].ascent
        baseDescent = fonts[0].descent
    }

    /// Appends the line of clusters `start..<end`, `width` wide. (Not inlined: it runs once per line,
    /// and inlined it costs the per-cluster loop registers.)
    @inline(never)
    mutating func add(_ start: Int, _ end: Int, width: Double, _ cl: UnsafeBufferPointer<Cluster>) {
        let ascent: Double, descent: Double, baseline: Double
        switch lineHeight {
        case .natural:
            if singleFont || start == end {
                (ascent, descent) = (baseAscent, baseDescent)
            } else {
                (ascent, descent) = Self.verticalExtent(start, end, cl, fonts)
            }
            baseline = y + ascent
        case .grid(let pitch, let a, let d):
            baseline = a + Double(count) * pitch
            ascent = a
            descent = d
        }
        fullHeight = baseline + descent
        y = fullHeight
        let lower = start == 0 ? 0 : Int(cl[start - 1].end)
        let upper = end == 0 ? 0 : Int(cl[end - 1].end)
        arena.pointee.append(
            TextLine(
                range: lower..<upper, clusters: start..<end, width: width,
                baseline: baseline, ascent: ascent, descent: descent))
        count += 1
    }

    /// Ascent and descent of the fonts and objects of clusters `start..<end` (not empty).
    private static func verticalExtent(
        _ start: Int, _ end: Int, _ cl: UnsafeBufferPointer<Cluster>, _ runFonts: UnsafeBufferPointer<RunFont>
    ) -> (Double, Double) {
        var ascent = 0.0, descent = 0.0
        var lastRef = -1
        for i in start..<end {
            let r = Int(cl[i].fontRef)
            if r == lastRef { continue }
            lastRef = r
            let f = runFonts[r]
            ascent = max(ascent, f.ascent)
            descent = max(descent, f.descent)
        }
        return (ascent, descent)
    }
}

/// A line before vertical metrics: clusters `start..<end`, its width without hanging clusters,
/// and whether a hard break ended it.
struct LineSpan: Equatable {
    var start: Int
    var end: Int
    var width: Double
    var hard: Bool
}

extension TextLayout {
    /// The x position of each cluster on a line, computed from the prepared advances.
    /// - Returns: `line.clusters.count + 1` positions (the last is the line's full advance).
    package func clusterPositions(onLine index: Int, of prepared: PreparedText) -> [Double] {
        let line = lines[index]
        var xs: [Double] = [0]
        xs.reserveCapacity(line.clusters.count + 1)
        var x = 0.0
        let rule = prepared.advances
        for c in line.clusters {
            x += rule.advance(prepared.cluster(c), at: x)
            xs.append(x)
        }
        return xs
    }

    /// The rects of every entity of the text, one per line fragment (empty for an entity that is
    /// cut away by truncation). Rects span the line box vertically.
    /// - Complexity: as `forEachEntityRect`, plus one array per entity.
    public func entityRects(of prepared: PreparedText) -> [EntityRects] {
        let count = prepared.entities.count
        guard count > 0 else { return [] }
        var result = (0..<count).map { EntityRects(entity: $0, rects: []) }
        forEachEntityRect(of: prepared) { e, rect in result[e].rects.append(rect) }
        return result
    }

    /// Calls `body` with each line fragment of each entity: the entity's index and its rect
    /// (relative to the text's origin, spanning the line box vertically), in entity order and, for
    /// one entity, top to bottom. Entities cut away by truncation give no call. `entityRects` as a
    /// visitor, for callers that transform the rects anyway (no intermediate arrays).
    /// - Complexity: O(entities × log lines + clusters scanned): entities in text order scan the
    ///   clusters of their lines once in all; an entity that starts before the previous one's end
    ///   scans its first line again from the line's start.
    package func forEachEntityRect(of prepared: PreparedText, _ body: (_ entity: Int, _ rect: Rect) -> Void) {
        let entities = prepared.entities
        guard !entities.isEmpty else { return }
        let rule = prepared.advances
        prepared.clusters.withUnsafeBufferPointer { cl in
            // Where the last scan of a line stopped (line, next cluster, its x and UTF-16 start):
            // an entity that starts on that line at or after that point continues from there, so
            // entities in text order (a parsed status) scan each line once in all.
            var resumeLine = -1, resumeCluster = 0, resumeX = 0.0, resumeStart = 0
            for e in entities.indices {
                let range = entities[e].range
                var li = firstLine(endingAfter: range.lowerBound)
                while li < lines.count && lines[li].range.lowerBound < range.upperBound {
                    let line = lines[li]
                    guard line.range.overlaps(range) else {
                        li += 1
                        continue
                    }
                    var x = 0.0
                    var c = line.clusters.lowerBound
                    var start = line.range.lowerBound  // the UTF-16 offset of cluster `c`
                    if li == resumeLine && resumeStart <= range.lowerBound {
                        (c, x, start) = (resumeCluster, resumeX, resumeStart)
                    }
                    // The clusters before the entity: only their advances.
                    while c < line.clusters.upperBound && Int(cl[c].end) <= range.lowerBound {
                        x += rule.advance(cl[c], at: x)
                        start = Int(cl[c].end)
                        c += 1
                    }
                    // Its clusters (clusters are in text order and never empty: each overlaps it),
                    // from the first one's start to the last one's end that does not hang.
                    let x0 = x
                    var x1 = x0
                    while c < line.clusters.upperBound && start < range.upperBound {
                        let cluster = cl[c]
                        x += rule.advance(cluster, at: x)
                        if cluster.flags & ClusterFlags.hanging == 0 { x1 = x }
                        start = Int(cluster.end)
                        c += 1
                    }
                    (resumeLine, resumeCluster, resumeX, resumeStart) = (li, c, x, start)
                    if x1 > x0 {
                        body(e, Rect(x: x0, y: line.top, width: x1 - x0, height: line.ascent + line.descent))
                    }
                    li += 1
                }
            }
        }
    }

    /// The index of the first line whose range ends after `offset` (`lines.count` when none).
    private func firstLine(endingAfter offset: Int) -> Int {
        var lo = 0, hi = lines.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if lines[mid].range.upperBound <= offset { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The frame of each visible inline object, relative to the text's origin.
    /// - Complexity: O(lines + clusters of the lines holding objects, up to the last object).
    public func attachmentRects(of prepared: PreparedText) -> [(object: InlineObject, rect: Rect)] {
        var result: [(object: InlineObject, rect: Rect)] = []
        forEachAttachmentRect(of: prepared) { result.append(($0, $1)) }
        return result
    }

    /// Calls `body` with each visible inline object and its frame (relative to the text's
    /// origin), in text order: `attachmentRects` as a visitor.
    /// - Complexity: O(lines + clusters of the lines holding objects, up to the last object).
    package func forEachAttachmentRect(of prepared: PreparedText, _ body: (_ object: InlineObject, _ rect: Rect) -> Void) {
        let objects = prepared.attachments
        guard !objects.isEmpty else { return }
        let rule = prepared.advances
        prepared.clusters.withUnsafeBufferPointer { cl in
            var next = 0
            for line in lines {
                // Objects before this line were cut away (truncation) or are not clusters of their own.
                while next < objects.count && objects[next].offset < line.range.lowerBound { next += 1 }
                if next == objects.count { break }
                if objects[next].offset >= line.range.upperBound { continue }
                var x = 0.0
                var start = line.range.lowerBound  // the UTF-16 offset of cluster `c`
                var c = line.clusters.lowerBound
                let upper = line.clusters.upperBound
                while c < upper {
                    while next < objects.count && objects[next].offset < start { next += 1 }
                    if next == objects.count { break }
                    let target = objects[next].offset
                    if target >= line.range.upperBound { break }
                    // The clusters before the object: only their advances.
                    while c < upper && start < target {
                        x += rule.advance(cl[c], at: x)
                        start = Int(cl[c].end)
                        c += 1
                    }
                    // (An object inside a cluster is none of its own: the next one is read again.)
                    if c == upper || start != target { continue }
                    if cl[c].flags & ClusterFlags.attachment != 0 {
                        let o = objects[next]
                        // The cluster's advance is the object's width as measured; its extents
                        // are in range (`InlineObject`).
                        body(o, Rect(x: x, y: line.baseline - o.ascent, width: cl[c].advance, height: o.ascent + o.descent))
                        next += 1
                    }
                    x += rule.advance(cl[c], at: x)
                    start = Int(cl[c].end)
                    c += 1
                }
            }
        }
    }
}

