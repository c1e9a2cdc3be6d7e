/// A small deterministic random number generator (SplitMix64) for randomised tests: the same seed gives
/// the same values on every machine, so a test that prints its seed replays a failure exactly.
///
/// ```swift
/// let seed = UInt64.random(in: 1...UInt64.max)
/// print("seed \(seed)")
/// var random = SeededRandom(seed: seed)
/// let count = Int.random(in: 1...100, using: &random)
/// ```
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator starting from `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
