import Foundation
import RecoKit

/// Issues and checks click-through tokens: `base64url(payload).base64url(HMAC-SHA256(payload))`, signed
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
    public init(key: [UInt8]? = nil, lifetime: Duration = .seconds(3600), now: @escaping @Sendable () -> Date = Date.init) {
        var generator = SystemRandomNumberGenerator()
        mac = HMACSHA256(key: key ?? (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        self.lifetime = lifetime
        self.now = now
    }

    /// A token for a click on `token`'s product; its expiry is set from ``lifetime``.
    public func issue(_ token: ClickToken) -> String {
        var token = token
        token.expires = now().addingTimeInterval(TimeInterval(lifetime.components.seconds))
        let payload = Array(token.json.utf8)
        return Self.base64URL(payload) + "." + Self.base64URL(mac.tag(payload))
    }

    /// The token's content when it is genuine, unexpired and points somewhere allowed; nil otherwise.
    public func verify(_ text: String) -> ClickToken? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard text.utf8.count <= 4096, parts.count == 2,
              let payload = Self.bytes(base64URL: parts[0]), let tag = Self.bytes(base64URL: parts[1]),
              mac.verify(tag, for: payload),
              let json = try? JSONValue(parsing: Data(payload)), let token = ClickToken(json: json),
              token.expires > now(), Self.isAllowedDestination(token.destination) else { return nil }
        return token
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

    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func bytes(base64URL text: Substring) -> [UInt8]? {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64).map(Array.init)
    }
}
