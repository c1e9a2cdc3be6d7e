import Foundation
import Hummingbird

/// Who is browsing: a visitor id kept in a long-lived cookie and a visit id in a session cookie, each
/// 128 random bits drawn by the server and signed by it (``VisitorCookies``), so one visitor cannot
/// guess another's, and a client cannot choose its own: a missing, malformed or forged cookie gets a
/// fresh id (and the response sets the new cookie).
public struct Visitor: Sendable, Hashable {
    /// The visitor's id (Segmentify `userId`); the key under which rendered widgets are remembered.
    public var id: String
    /// The visit's id (Segmentify `sessionId`).
    public var session: String
    /// Whether the visitor id was just made (no valid visitor cookie came with the request).
    public var isNew: Bool
    /// Whether the visit id was just made.
    var isNewSession: Bool

    /// The cookie holding ``id``.
    public static let idCookie = "sf_visitor"
    /// The cookie holding ``session``.
    public static let sessionCookie = "sf_session"

    /// The visitor named by the request's signed cookies, or a new one.
    public init(request: Request, cookies: VisitorCookies) {
        let id = (request.cookies[Self.idCookie]?.value).flatMap { cookies.id(in: $0, kind: .visitor) }
        let session = (request.cookies[Self.sessionCookie]?.value).flatMap { cookies.id(in: $0, kind: .session) }
        self.id = id ?? VisitorCookies.newId()
        self.session = session ?? VisitorCookies.newId()
        isNew = id == nil
        isNewSession = session == nil
    }

    /// The visitor named by the request's signed cookies; nil when it has none (or malformed or forged ones).
    public static func existing(in request: Request, cookies: VisitorCookies) -> Visitor? {
        guard let id = (request.cookies[idCookie]?.value).flatMap({ cookies.id(in: $0, kind: .visitor) }),
              let session = (request.cookies[sessionCookie]?.value).flatMap({ cookies.id(in: $0, kind: .session) }) else { return nil }
        return Visitor(id: id, session: session)
    }

    init(id: String, session: String) {
        self.id = id
        self.session = session
        isNew = false
        isNewSession = false
    }

    /// Sets the signed cookies on a response when they are new.
    public func remember(on response: inout Response, cookies: VisitorCookies) {
        if isNew {
            response.setCookie(Cookie(name: Self.idCookie, value: cookies.value(for: id, kind: .visitor), maxAge: 365 * 86_400, path: "/",
                                      httpOnly: true, sameSite: .lax))
        }
        if isNewSession {
            response.setCookie(Cookie(name: Self.sessionCookie, value: cookies.value(for: session, kind: .session), path: "/",
                                      httpOnly: true, sameSite: .lax))
        }
    }
}
