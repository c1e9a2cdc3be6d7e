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
public struct VisitorCookies: Sendable {
    /// Which cookie a value is for: a value signed for one is refused for the other.
    public enum Kind: String, Sendable {
        /// The long-lived visitor id.
        case visitor
        /// The visit (session) id.
        case session
    }

    private let key: SymmetricKey
    /// The longest cookie value looked at; anything longer is refused unread.
    public static let maxValueBytes = 128
    static let tagBytes = SHA256.byteCount

    /// Values signed with `key` (32 random bytes by default).
    public init(key: [UInt8]? = nil) {
        self.key = key.map { SymmetricKey(data: $0) } ?? SymmetricKey(size: .bits256)
    }

    /// The cookie value for `id` (which should be ``newId()``'s).
    public func value(for id: String, kind: Kind) -> String {
        id + "." + ClickTokens.base64URL(HMAC<SHA256>.authenticationCode(for: message(id, kind: kind), using: key))
    }

    /// The id in a cookie value this server signed for `kind`; nil for anything else.
    public func id(in value: String, kind: Kind) -> String? {
        let bytes = Array(value.utf8)
        guard bytes.count <= Self.maxValueBytes, bytes.count > 33, bytes[32] == UInt8(ascii: "."),
              bytes[..<32].allSatisfy(Self.isLowerHex) else { return nil }
        let id = String(decoding: bytes[..<32], as: UTF8.self)
        guard let given = ClickTokens.bytes(base64URL: value.dropFirst(33)),
              given.count == Self.tagBytes else { return nil }
        return HMAC<SHA256>.isValidAuthenticationCode(given, authenticating: message(id, kind: kind), using: key) ? id : nil
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

    /// What is signed: the kind (so a value is good for one cookie only) and the id.
    private func message(_ id: String, kind: Kind) -> [UInt8] {
        Array("sf-\(kind.rawValue)-v1:".utf8) + Array(id.utf8)
    }

    private static func isLowerHex(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
    }
}
