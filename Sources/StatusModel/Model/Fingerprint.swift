// Content fingerprints: a 64-bit FNV-1a hash over every field that changes a status's layout.
//
// Swift's `Hasher` is seeded per process, so it cannot key a cache that outlives a run or is
// shared between machines. FNV-1a over a fixed byte serialization is identical everywhere:
// integers are fed little-endian, strings as their UTF-8 bytes followed by their length (so
// ("ab","c") and ("a","bc") differ), optionals with a presence byte, arrays with their count.
// Fields that never reach the screen (ids, avatar URLs, page URLs) are left out on purpose, so
// two statuses that look the same share a fingerprint.

/// A 64-bit FNV-1a hasher with a fixed seed; the same input gives the same value on every run.
package struct FNV1a64: Sendable {
    package private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325
    private static let prime: UInt64 = 0x0000_0100_0000_01b3

    package init() {}

    package mutating func combine(byte: UInt8) {
        value = (value ^ UInt64(byte)) &* Self.prime
    }

    package mutating func combine(_ v: UInt64) {
        var x = v
        for _ in 0..<8 {
            combine(byte: UInt8(truncatingIfNeeded: x))
            x >>= 8
        }
    }

    package mutating func combine(_ v: Int) { combine(UInt64(bitPattern: Int64(v))) }
    package mutating func combine(_ v: Bool) { combine(byte: v ? 1 : 0) }

    package mutating func combine(_ s: String) {
        var n = 0
        for b in s.utf8 {
            combine(byte: b)
            n += 1
        }
        combine(n)
    }
}

extension Status {
    /// A hash of every field that affects this status's layout, stable across runs and machines.
    ///
    /// Two statuses with the same fingerprint lay out identically at any width (barring a 2⁻⁶⁴
    /// collision); a changed text, count, picture, tag, card or retweet changes it.
    /// - Complexity: O(size of the status, its retweet included).
    public var contentFingerprint: UInt64 {
        var h = FNV1a64()
        feedFingerprint(into: &h)
        return h.value
    }

    private func feedFingerprint(into h: inout FNV1a64) {
        h.combine(text)
        h.combine(createdAtText ?? "")
        h.combine(createdAt.map { Int($0.timeIntervalSince1970) } ?? Int.min)
        h.combine(source)
        h.combine(user.name)
        h.combine(user.screenName)
        h.combine(user.remark)
        h.combine(user.verifiedType)
        h.combine(user.mbrank)
        h.combine(user.mbtype)
        h.combine(isDeleted)
        h.combine(memberBadge ?? "\u{0}none")
        h.combine(repostsCount)
        h.combine(commentsCount)
        h.combine(attitudesCount)
        h.combine(liked)
        h.combine(pictures.count)
        for p in pictures { p.fingerprint(into: &h) }
        h.combine(urlEntities.count)
        for u in urlEntities {
            h.combine(u.shortURL)
            h.combine(u.title)
            h.combine(u.type)
            h.combine(u.pageID)
            h.combine(u.pictures.count)
            for p in u.pictures { p.fingerprint(into: &h) }
        }
        h.combine(topics.count)
        for t in topics { h.combine(t.title) }
        h.combine(tag != nil)
        if let tag {
            h.combine(tag.name)
            h.combine(tag.type)
            h.combine(tag.iconURL.isEmpty)
        }
        h.combine(pageInfo != nil)
        if let c = pageInfo {
            h.combine(c.title)
            h.combine(c.desc)
            h.combine(c.tips)
            h.combine(c.type)
            h.combine(c.objectType)
            h.combine(c.pictureURL.isEmpty)
            h.combine(c.typeIconURL.isEmpty)
            h.combine(c.hasButton)
            h.combine(c.pageID)
        }
        h.combine(titleBar != nil)
        if let t = titleBar {
            h.combine(t.text)
            h.combine(t.iconURL.isEmpty)
        }
        if let r = retweetedStatus {
            h.combine(byte: 1)
            h.combine(r.contentFingerprint)
        } else {
            h.combine(byte: 0)
        }
    }
}

extension Picture {
    fileprivate func fingerprint(into h: inout FNV1a64) {
        h.combine(width)
        h.combine(height)
        h.combine(kind.rawValue)
        h.combine(keepSize)
    }
}
