import Crypto
import Foundation

/// Signs and checks the values of the visitor's cookies, so that a client cannot choose its own visitor
/// or visit id: a value is `{id}.{tag}`, where `id` is 32 lowercase hex digits (128 random bits drawn by
/// the server) and `tag` is base64url of HMAC-SHA256 (swift-crypto) over the cookie's kind and the id,
/// with the server's key. A value that is malformed, over-long, or whose tag does not match
/// (forged, tampered, another key's, an id of the client's choosing such as 32 zeros) is refused, and the
/// request is treated as a new visitor's.
///
/// The key is drawn at random when the process starts unless one is given (`--secret`): with a random
/// key every visitor is new after a restart.
///
/// Every page signs or checks two values (every page of a new visitor signs them), so the HMAC is kept
/// ready: its key's two padded blocks (RFC 2104) are hashed once, here, and each value costs the two
/// SHA-256 compressions of its own message and of the inner digest. `HMAC<SHA256>` would make the key
/// schedule and four compressions every time (12% of a cached page's CPU, in `perf record`).
public struct VisitorCookies: Sendable {
    /// Which cookie a value is for: a value signed for one is refused for the other.
    public enum Kind: String, Sendable {
        /// The long-lived visitor id.
        case visitor
        /// The visit (session) id.
        case session

        /// What the signed message starts with: `sf-visitor-v1:` or `sf-session-v1:`.
        var signedPrefix: [UInt8] { self == .visitor ? Self.visitorPrefix : Self.sessionPrefix }
        private static let visitorPrefix = Array("sf-visitor-v1:".utf8)
        private static let sessionPrefix = Array("sf-session-v1:".utf8)
    }

    /// SHA-256 after the key's inner and outer padded blocks (the key xor 0x36, and xor 0x5C, each 64 bytes).
    private let inner: SHA256
    private let outer: SHA256
    /// The longest cookie value looked at; anything longer is refused unread.
    public static let maxValueBytes = 128
    static let tagBytes = SHA256.byteCount

    /// Values signed with `key` (32 random bytes by default).
    public init(key: [UInt8]? = nil) {
        let key = key ?? SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }
        // A key longer than a block is hashed first; a shorter one is padded with zeros (RFC 2104).
        var block = key.count > SHA256.blockByteCount ? Array(SHA256.hash(data: key)) : key
        block += [UInt8](repeating: 0, count: SHA256.blockByteCount - block.count)
        var inner = SHA256(), outer = SHA256()
        inner.update(data: block.map { $0 ^ 0x36 })
        outer.update(data: block.map { $0 ^ 0x5C })
        self.inner = inner
        self.outer = outer
    }

    /// The cookie value for `id` (which should be ``newId()``'s).
    public func value(for id: String, kind: Kind) -> String {
        id + "." + ClickTokens.base64URL(tag(id, kind: kind))
    }

    /// HMAC-SHA256 of what is signed for `id` as a `kind` cookie: the kind (so a value is good for one
    /// cookie only) and the id.
    func tag(_ id: String, kind: Kind) -> SHA256Digest {
        var message = inner
        message.update(data: kind.signedPrefix)
        message.update(data: Array(id.utf8))
        var digest = outer
        message.finalize().withUnsafeBytes { digest.update(bufferPointer: $0) }
        return digest.finalize()
    }

    /// The id in a cookie value this server signed for `kind`; nil for anything else.
    public func id(in value: String, kind: Kind) -> String? {
        let bytes = Array(value.utf8)
        guard bytes.count <= Self.maxValueBytes, bytes.count > 33, bytes[32] == UInt8(ascii: "."),
              bytes[..<32].allSatisfy(Self.isLowerHex) else { return nil }
        let id = String(decoding: bytes[..<32], as: UTF8.self)
        guard let given = ClickTokens.bytes(base64URL: value.dropFirst(33)),
              given.count == Self.tagBytes else { return nil }
        // Compared in constant time: every byte, whatever the first difference.
        let difference = tag(id, kind: kind).withUnsafeBytes { expected in
            zip(expected, given).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) }
        }
        return difference == 0 ? id : nil
    }

    /// A new id: 128 random bits as 32 lowercase hex digits.
    public static func newId() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(32)
        for _ in 0..<2 {
            let word: UInt64 = generator.next()
            for shift in stride(from: 60, through: 0, by: -4) { out.append(digits[Int(word >> UInt64(shift) & 0xF)]) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func isLowerHex(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
    }
}
