import Foundation
import RecoKit

/// Issues and checks click-through tokens: `base64url(payload).base64url(HMAC-SHA256(payload))` (payload:
/// ``ClickToken/payload``), signed
/// with a key drawn at random when the process starts (so tokens die with the process, as pages do).
///
/// A token is refused (``verify(_:)`` returns nil) when it is malformed, its tag does not match (forged
/// or tampered), it has expired, or its destination is not an http(s) URL or a local path. The redirect
/// target comes only from the signed payload, never from the request, so `/r/…` is no open redirect.
public struct ClickTokens: Sendable {
    private let mac: HMACSHA256
    /// How long an issued token is accepted.
    public let lifetime: Duration
    private let now: @Sendable () -> Date

    /// Tokens signed with `key` (32 random bytes by default), accepted for `lifetime`.
    /// A lifetime is kept between one second and ``maxLifetime``.
    public init(key: [UInt8]? = nil, lifetime: Duration = .seconds(3600), now: @escaping @Sendable () -> Date = Date.init) {
        var generator = SystemRandomNumberGenerator()
        mac = HMACSHA256(key: key ?? (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        self.lifetime = min(max(lifetime, .seconds(1)), Self.maxLifetime)
        self.now = now
    }

    /// The longest lifetime a token can have: a year.
    public static let maxLifetime = Duration.seconds(365 * 86_400)

    /// The longest token text looked at; anything longer is refused unread.
    public static let maxTokenBytes = 4096

    /// A token for a click on `token`'s product; its expiry is set from ``lifetime``.
    public func issue(_ token: ClickToken) -> String {
        var token = token
        token.expires = now().addingTimeInterval(TimeInterval(lifetime.components.seconds))
        let payload = token.payload
        return Self.base64URL(payload) + "." + Self.base64URL(mac.tag(payload))
    }

    /// The token's content when it is genuine, unexpired and points somewhere allowed; nil otherwise.
    public func verify(_ text: String) -> ClickToken? {
        guard text.utf8.count <= Self.maxTokenBytes else { return nil }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2,
              let payload = Self.bytes(base64URL: parts[0]), let tag = Self.bytes(base64URL: parts[1]),
              mac.verify(tag, for: payload), let token = ClickToken(payload: payload),
              token.expires > now(), Self.isAllowedDestination(token.destination) else { return nil }
        return token
    }

    /// A name for the token in `text` (its tag), the same for every spelling the verifier accepts, so
    /// a ``ClickLedger`` can tell one link from another. Call it on a text ``verify(_:)`` accepted.
    public static func tokenId(of text: String) -> String {
        String(text.split(separator: ".", omittingEmptySubsequences: false).last ?? "")
    }

    /// An absolute http(s) URL with a host, or a path on this site (`/…` but not `//…` or `/\…`).
    static func isAllowedDestination(_ destination: String) -> Bool {
        if destination.hasPrefix("/") {
            return !destination.hasPrefix("//") && !destination.hasPrefix("/\\")
                && !destination.unicodeScalars.contains { $0.value < 0x20 || $0 == "\\" }
        }
        guard let url = URL(string: destination), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty else { return false }
        return true
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Base64url without padding (RFC 4648 §5).
    static func base64URL(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= bytes.count {
            let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            for shift in [18, 12, 6, 0] { out.append(alphabet[Int(chunk >> UInt32(shift) & 63)]) }
            index += 3
        }
        let rest = bytes.count - index
        if rest > 0 {
            let chunk = UInt32(bytes[index]) << 16 | (rest == 2 ? UInt32(bytes[index + 1]) << 8 : 0)
            for shift in [18, 12, 6, 0].prefix(rest + 1) { out.append(alphabet[Int(chunk >> UInt32(shift) & 63)]) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of canonical base64url text without padding; nil for any other character, an impossible
    /// length, or unused trailing bits that are not zero.
    static func bytes(base64URL text: Substring) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count * 3 / 4)
        var chunk: UInt32 = 0
        var count = 0
        for unit in text.utf8 {
            let value: UInt32
            switch unit {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = UInt32(unit - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = UInt32(unit - UInt8(ascii: "a")) + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt32(unit - UInt8(ascii: "0")) + 52
            case UInt8(ascii: "-"): value = 62
            case UInt8(ascii: "_"): value = 63
            default: return nil
            }
            chunk = chunk << 6 | value
            count += 1
            if count == 4 {
                bytes.append(UInt8(truncatingIfNeeded: chunk >> 16))
                bytes.append(UInt8(truncatingIfNeeded: chunk >> 8))
                bytes.append(UInt8(truncatingIfNeeded: chunk))
                chunk = 0
                count = 0
            }
        }
        switch count {
        case 0: break
        case 2:
            guard chunk & 0xF == 0 else { return nil }  // only the canonical spelling: no two texts for one token
            bytes.append(UInt8(truncatingIfNeeded: chunk >> 4))
        case 3:
            guard chunk & 0x3 == 0 else { return nil }
            bytes.append(UInt8(truncatingIfNeeded: chunk >> 10))
            bytes.append(UInt8(truncatingIfNeeded: chunk >> 2))
        default: return nil
        }
        return bytes.isEmpty ? nil : bytes
    }
}
