// Content fingerprints: a stable 64-bit hash over every field that changes a status's layout.
//
// Swift's `Hasher` is seeded per process, so it cannot key a cache that outlives a run or is
// shared between machines. `StableHasher` over a fixed serialization is identical everywhere:
// integers are fed as one 64-bit word, strings as their UTF-8 bytes in little-endian 8-byte words
// followed by their length (so ("ab","c") and ("a","bc") differ), optionals with a presence word,
// arrays with their count. Fields that never reach the screen (ids, avatar URLs, page URLs) are
// left out on purpose, so two statuses that look the same share a fingerprint.

import FeedLayoutSupport

/// A 64-bit hasher with fixed constants: the same input gives the same value on every run and
/// machine. Each word is absorbed by xor, multiply by an odd constant and xor-shift (every step is
/// a bijection of the state, so two inputs that differ in one word never collide), then the state
/// is finalized with MurmurHash3's avalanche. Strings are absorbed 8 bytes at a time.
package struct StableHasher: Sendable {
    private var state: UInt64 = 0xcbf2_9ce4_8422_2325
    private static let multiplier: UInt64 = 0x9e37_79b9_7f4a_7c15

    package init() {}

    /// The hash of everything combined so far.
    package var value: UInt64 {
        var x = state
        x ^= x >> 33
        x &*= 0xff51_afd7_ed55_8ccd
        x ^= x >> 33
        x &*= 0xc4ce_b9fe_1a85_ec53
        x ^= x >> 33
        return x
    }

    package mutating func combine(_ v: UInt64) {
        var x = (state ^ v) &* Self.multiplier
        x ^= x >> 29
        state = x
    }

    package mutating func combine(byte: UInt8) { combine(UInt64(byte)) }
    package mutating func combine(_ v: Int) { combine(UInt64(bitPattern: Int64(v))) }
    package mutating func combine(_ v: Bool) { combine(UInt64(v ? 1 : 0)) }

    /// The string's UTF-8 bytes, read in place (`StringBytes.withUTF8`).
    package mutating func combine(_ s: String) {
        StringBytes.withUTF8(s) { combine(utf8: $0) }
    }

    /// The bytes of a string, as `combine(_: String)` absorbs them.
    @inline(__always)
    private mutating func combine(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        let n = bytes.count
        guard let p = bytes.baseAddress else {
            combine(0)
            return
        }
        let raw = UnsafeRawPointer(p)
        var i = 0
        while i + 8 <= n {
            combine(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)))
            i += 8
        }
        if i < n {
            // The last one to seven bytes, little-endian, as at most three loads.
            var tail: UInt64 = 0
            var k = i
            if n - k >= 4 {
                tail = UInt64(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: k, as: UInt32.self)))
                k += 4
            }
            if n - k >= 2 {
                tail |= UInt64(UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: k, as: UInt16.self))) << UInt64((k - i) * 8)
                k += 2
            }
            if k < n { tail |= UInt64(p[k]) << UInt64((k - i) * 8) }
            combine(tail)
        }
        combine(n)
    }
}

extension Status {
    /// The value of `contentFingerprint`, computed from the fields (the retweet's own stored
    /// fingerprint stands for the retweet).
    /// - Complexity: O(size of the status without its retweet).
    func computeFingerprint() -> UInt64 {
        var h = StableHasher()
        feedFingerprint(into: &h)
        return h.value
    }

    private func feedFingerprint(into h: inout StableHasher) {
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
        // Pictures and URL entities are read in place: iterating an array copies each element
        // (a retain and a release of its strings: about 80 instructions a picture).
        h.combine(pictures.count)
        Picture.fingerprint(pictures, into: &h)
        h.combine(urlEntities.count)
        urlEntities.withUnsafeBufferPointer { us in
            for i in us.indices {
                h.combine(us[i].shortURL)
                h.combine(us[i].title)
                h.combine(us[i].type)
                h.combine(us[i].pageID)
                h.combine(us[i].pictures.count)
                Picture.fingerprint(us[i].pictures, into: &h)
            }
        }
        h.combine(topics.count)
        for t in topics { h.combine(t.title) }
        h.combine(tag.isSome)
        if let tag {
            h.combine(tag.name)
            h.combine(tag.type)
            h.combine(tag.iconURL.isEmpty)
        }
        h.combine(pageInfo.isSome)
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
        h.combine(titleBar.isSome)
        if let t = titleBar {
            h.combine(t.text)
            h.combine(t.iconURL.isEmpty)
        }
        if let r = retweetFingerprint {
            h.combine(byte: 1)
            h.combine(r)
        } else {
            h.combine(byte: 0)
        }
    }
}

extension Picture {
    /// Each picture's `fingerprint(into:)`, in order.
    fileprivate static func fingerprint(_ pictures: [Picture], into h: inout StableHasher) {
        pictures.withUnsafeBufferPointer { ps in
            for i in ps.indices { ps[i].fingerprint(into: &h) }
        }
    }

    fileprivate func fingerprint(into h: inout StableHasher) {
        h.combine(width)
        h.combine(height)
        h.combine(kind.rawValue)
        h.combine(keepSize)
    }
}
