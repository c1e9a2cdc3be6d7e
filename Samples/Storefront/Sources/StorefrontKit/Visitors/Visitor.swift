import Foundation
import Hummingbird

/// Who is browsing: a random visitor id kept in a long-lived cookie and a visit id in a session cookie.
/// Both are 128 random bits in hex, so one visitor cannot guess another's.
public struct Visitor: Sendable, Hashable {
    /// The visitor's id (Segmentify `userId`); the key under which rendered widgets are remembered.
    public var id: String
    /// The visit's id (Segmentify `sessionId`).
    public var session: String
    /// Whether the cookies were just made (the response must set them).
    public var isNew: Bool

    /// The cookie holding ``id``.
    public static let idCookie = "sf_visitor"
    /// The cookie holding ``session``.
    public static let sessionCookie = "sf_session"

    /// The visitor named by the request's cookies, or a new one.
    public init(request: Request) {
        let id = request.cookies[Self.idCookie]?.value
        let session = request.cookies[Self.sessionCookie]?.value
        self.id = id.flatMap(Self.valid) ?? Self.randomId()
        self.session = session.flatMap(Self.valid) ?? Self.randomId()
        isNew = id.flatMap(Self.valid) == nil || session.flatMap(Self.valid) == nil
    }

    /// The visitor named by the request's cookies; nil when it has none (or malformed ones).
    public static func existing(in request: Request) -> Visitor? {
        guard let id = (request.cookies[idCookie]?.value).flatMap(valid),
              let session = (request.cookies[sessionCookie]?.value).flatMap(valid) else { return nil }
        return Visitor(id: id, session: session)
    }

    init(id: String, session: String) {
        self.id = id
        self.session = session
        isNew = false
    }

    /// Sets the cookies on a response when they are new.
    public func remember(on response: inout Response) {
        guard isNew else { return }
        response.setCookie(Cookie(name: Self.idCookie, value: id, maxAge: 365 * 86_400, path: "/", httpOnly: true, sameSite: .lax))
        response.setCookie(Cookie(name: Self.sessionCookie, value: session, path: "/", httpOnly: true, sameSite: .lax))
    }

    private static func valid(_ text: String) -> String? {
        text.utf8.count == 32 && text.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) } ? text : nil
    }

    static func randomId() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64
        let low = generator.next() as UInt64
        return hex(high) + hex(low)
    }

    private static func hex(_ value: UInt64) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: 16 - text.count) + text
    }
}
