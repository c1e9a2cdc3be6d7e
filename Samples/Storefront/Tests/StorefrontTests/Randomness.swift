import Foundation

/// Seeds for randomized tests: `STOREFRONT_TEST_SEED` when set (to replay a failure), else a fresh one.
enum Seed {
    static func fromEnvironmentOrRandom() -> UInt64 {
        if let text = ProcessInfo.processInfo.environment["STOREFRONT_TEST_SEED"], let seed = UInt64(text) { return seed }
        var generator = SystemRandomNumberGenerator()
        return generator.next()
    }
}

/// A small seeded generator (SplitMix64), so a randomized test replays exactly from its printed seed.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func hex(_ count: Int) -> String {
        String((0..<count).map { _ in "0123456789abcdef".randomElement(using: &self)! })
    }

    mutating func base64URL(_ count: Int) -> String {
        String((0..<count).map { _ in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".randomElement(using: &self)! })
    }

    /// Printable ASCII a cookie header can carry (no `;`, no spaces).
    mutating func garbage(maxLength: Int) -> String {
        let alphabet = Array("!#$%&'()*+-./0123456789:<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[]^_`abcdefghijklmnopqrstuvwxyz{|}~")
        return String((0..<Int.random(in: 1...maxLength, using: &self)).map { _ in alphabet.randomElement(using: &self)! })
    }

    mutating func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8.random(in: 0...255, using: &self) } }
}
