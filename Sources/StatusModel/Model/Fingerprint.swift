// Content fingerprints: a 64-bit keyed hash over every field that changes a status's layout.
//
// They key the caches of one process (prepared cells, cell layouts), so they need no stability
// across runs, but must not collide on content built to collide: a fixed hash's collisions can be
// computed (two statuses with one id and different texts, made to share a fixed fingerprint, were
// shown one for the other). The fields go through Swift's `Hasher` (SipHash with a random key per
// process), in a fixed serialization: integers as one word, strings as their UTF-8 bytes followed
// by their length (so ("ab","c") and ("a","bc") differ), optionals with a presence word, arrays
// with their count. Values differ between runs; no output depends on them (the same input gives
// byte-identical output). Fields that never reach the screen (ids, avatar URLs, page URLs) are
// left out on purpose, so two statuses that look the same share a fingerprint.

import FeedLayoutSupport

/// The hasher of content fingerprints: `Hasher` (keyed per process) with the serialization above.
package struct ContentHasher {
    private var hasher = Hasher()

    package init() {}

    /// The hash of everything combined so far.
    package var value: UInt64 {
        let copy = hasher
        return UInt64(bitPattern: Int64(copy.finalize()))
    }

    package mutating func combine(_ v: UInt64) { hasher.combine(v) }
    package mutating func combine(byte: UInt8) { hasher.combine(UInt64(byte)) }
    package mutating func combine(_ v: Int) { hasher.combine(UInt64(bitPattern: Int64(v))) }
    package mutating func combine(_ v: Bool) { hasher.combine(UInt64(v ? 1 : 0)) }

    /// The string's UTF-8 bytes, read in place (`StringBytes.withUTF8`), then its length.
    package mutating func combine(_ s: String) {
        StringBytes.withUTF8(s) { bytes in
            hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
            hasher.combine(UInt64(bytes.count))
        }
    }
}

extension Status {
    /// The value of `contentFingerprint`, computed from the fields (the retweet's own stored
    /// fingerprint stands for the retweet).
    /// - Complexity: O(size of the status without its retweet).
    func computeFingerprint() -> UInt64 {
        var h = ContentHasher()
        feedFingerprint(into: &h)
        return h.value
    }

    private func feedFingerprint(into h: inout ContentHasher) {
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
    fileprivate static func fingerprint(_ pictures: [Picture], into h: inout ContentHasher) {
        pictures.withUnsafeBufferPointer { ps in
            for i in ps.indices { ps[i].fingerprint(into: &h) }
        }
    }

    fileprivate func fingerprint(into h: inout ContentHasher) {
        h.combine(width)
        h.combine(height)
        h.combine(kind.rawValue)
        h.combine(keepSize)
    }
}
