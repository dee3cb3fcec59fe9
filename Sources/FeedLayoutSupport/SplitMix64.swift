/// SplitMix64: a tiny, fast generator whose sequence is fixed by its seed on every platform.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in 0..<n (n > 0), by multiply-shift (platform-independent, no Double).
    package mutating func below(_ n: Int) -> Int {
        precondition(n > 0)
        return Int(next().multipliedFullWidth(by: UInt64(n)).high)
    }

    /// True with probability percent / 100.
    package mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

    package mutating func pick<T>(_ a: [T]) -> T { a[below(a.count)] }
}
