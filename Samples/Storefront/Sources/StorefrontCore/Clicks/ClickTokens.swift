import Foundation
import Crypto
import RecoKit

/// Issues and checks click-through tokens: `base64url(payload).base64url(HMAC-SHA256(payload))` (payload:
/// ``ClickToken/payload``), signed with swift-crypto's `HMAC<SHA256>` and a key drawn at random when the process starts (so tokens die with the process, as pages do).
///
/// A token is refused (``verify(_:)`` returns nil) when it is malformed, its tag does not match (forged
/// or tampered), it has expired, or its destination is not an http(s) URL or a local path. The redirect
/// target comes only from the signed payload, never from the request, so `/r/…` is no open redirect.
public struct ClickTokens: Sendable {
    private let key: SymmetricKey
    /// How long an issued token is accepted.
    public let lifetime: Duration
    private let now: @Sendable () -> Date

    /// Tokens signed with `key` (32 random bytes by default), accepted for `lifetime`.
    /// A lifetime is kept between one second and ``maxLifetime``.
    public init(key: [UInt8]? = nil, lifetime: Duration = .seconds(3600), now: @escaping @Sendable () -> Date = Date.init) {
        self.key = key.map { SymmetricKey(data: $0) } ?? SymmetricKey(size: .bits256)
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
        return Self.base64URL(payload) + "." + Self.base64URL(HMAC<SHA256>.authenticationCode(for: payload, using: key))
    }

    /// The token's content when it is genuine, unexpired and points somewhere allowed; nil otherwise.
    public func verify(_ text: String) -> ClickToken? {
        guard text.utf8.count <= Self.maxTokenBytes else { return nil }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2,
              let payload = Self.bytes(base64URL: parts[0]), let tag = Self.bytes(base64URL: parts[1]),
              HMAC<SHA256>.isValidAuthenticationCode(tag, authenticating: payload, using: key), let token = ClickToken(payload: payload),
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

    /// Base64url without padding (RFC 4648 §5), from Foundation's base64.
    static func base64URL<Bytes: ContiguousBytes>(_ bytes: Bytes) -> String {
        let standard = bytes.withUnsafeBytes { Data($0) }.base64EncodedString()
        var out = ""
        out.reserveCapacity(standard.utf8.count)
        for character in standard.unicodeScalars {
            switch character {
            case "+": out.append("-")
            case "/": out.append("_")
            case "=": continue
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    /// The bytes of canonical base64url text without padding; nil for any other character, an impossible
    /// length, or unused trailing bits that are not zero (so one token has exactly one spelling).
    static func bytes(base64URL text: Substring) -> [UInt8]? {
        guard !text.isEmpty, text.utf8.count % 4 != 1,
              text.utf8.allSatisfy({ $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "=") }) else { return nil }
        var standard = String(text).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
        guard let data = Data(base64Encoded: standard) else { return nil }
        let bytes = [UInt8](data)
        // Foundation ignores unused trailing bits: only the spelling the encoder writes is accepted.
        return base64URL(bytes) == text ? bytes : nil
    }
}
