/// HMAC-SHA256 (RFC 2104) over ``SHA256``, with a constant-time comparison for checking tags.
struct HMACSHA256: Sendable {
    /// The hash states after absorbing the padded key, worked out once per key.
    private let inner: SHA256
    private let outer: SHA256

    /// A keyed hash; a key longer than 64 bytes is hashed first, as the RFC says.
    init(key: [UInt8]) {
        var block = key.count > 64 ? SHA256.hash(key) : key
        block += [UInt8](repeating: 0, count: 64 - block.count)
        var inner = SHA256()
        inner.update(buffer: block.map { $0 ^ 0x36 })
        var outer = SHA256()
        outer.update(buffer: block.map { $0 ^ 0x5c })
        self.inner = inner
        self.outer = outer
    }

    /// The 32-byte tag of `message`.
    func tag<Bytes: Sequence>(_ message: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        var inner = self.inner
        inner.update(message)
        var outer = self.outer
        outer.update(buffer: inner.finalize())
        return outer.finalize()
    }

    /// Whether `tag` is the tag of `message`, compared in time that does not depend on where they differ.
    func verify<Bytes: Sequence>(_ tag: [UInt8], for message: Bytes) -> Bool where Bytes.Element == UInt8 {
        let expected = self.tag(message)
        guard tag.count == expected.count else { return false }
        var difference: UInt8 = 0
        for index in expected.indices { difference |= expected[index] ^ tag[index] }
        return difference == 0
    }
}
