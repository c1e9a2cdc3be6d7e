import Foundation
import RecoHTTP
import RecoKit
import RecoTracking

/// Segmentify's user and session ids per visitor, for a server that sends events on behalf of many.
///
/// A visitor is known by your own key (a cookie, an account id). The first time, two keys are asked
/// from Segmentify's `get/key` endpoint (user and session); afterwards the same ids are returned until
/// the visitor has been idle longer than the session lifetime (86 400 s by default), when one new key
/// becomes the new session id and the user id stays. Idle time is measured on the clock's
/// ``TrackingClock/continuousTime()``, which a wall clock set forward or back does not move: a step forward
/// of a day does not end every visitor's session at once (a burst of `get/key` requests, a new session
/// per visitor in the vendor's reports), and a step back does not keep sessions, and the memory
/// ``removeExpired()`` should free, for the length of the step. Time comes from an injectable clock.
///
/// ```swift
/// #if canImport(FoundationNetworking)
/// import FoundationNetworking   // URLSession on Linux
/// #endif
/// let visitors = SegmentifyVisitors { count in
///     let (body, _) = try await URLSession.shared.data(from: SegmentifyVisitors.keysURL(dataCenter: dataCenter, apiKey: apiKey, count: count))
///     return try SegmentifyKeys.decode(body)
/// }
/// let ids = try await visitors.ids(for: visitorCookie)   // your own long-lived cookie's value
/// ```
///
/// Concurrent calls for the same visitor share one key request.
public actor SegmentifyVisitors {
    private struct Visitor {
        var userId: String
        var sessionId: String
        /// The clock's ``TrackingClock/continuousTime()`` when last seen.
        var lastSeen: Duration
    }

    /// How long a session lives without events.
    public let lifetime: Duration
    private let clock: any TrackingClock
    private let fetchKeys: @Sendable (Int) async throws -> SegmentifyKeys
    private var visitors: [String: Visitor] = [:]
    private var pending: [String: Task<SegmentifyVisitorIds, any Error>] = [:]

    /// Visitors whose ids come from `fetchKeys(count)` (a `get/key?count=N` request).
    public init(lifetime: Duration = .seconds(86_400), clock: any TrackingClock = SystemTrackingClock(),
                fetchKeys: @escaping @Sendable (Int) async throws -> SegmentifyKeys) {
        self.lifetime = lifetime
        self.clock = clock
        self.fetchKeys = fetchKeys
    }

    /// Visitors whose ids come from Segmentify's `get/key` endpoint over `transport` (the tracker's HTTP
    /// client by default), with the headers Segmentify expects (`Accept`, `Origin`).
    ///
    /// A reply other than 2xx, a `statusCode` error (`NO_ACCOUNT`…), or one that is not a key array is a
    /// ``PayloadError`` of ``ids(for:)``; the visitor
    /// stays unknown and the next call asks again.
    public init(dataCenter: URL, apiKey: String, origin: String, transport: any Transport = URLSessionTransport.shared,
                lifetime: Duration = .seconds(86_400), clock: any TrackingClock = SystemTrackingClock()) {
        self.init(lifetime: lifetime, clock: clock) { count in
            let request = VendorRequest(method: "GET", url: SegmentifyVisitors.keysURL(dataCenter: dataCenter, apiKey: apiKey, count: count),
                                          headers: [("Accept", "application/json"), ("Origin", origin)], body: Data())
            let reply = try await transport.send(request, timeout: .seconds(10))
            guard (200..<300).contains(reply.status) else {
                throw PayloadError.vendorError(code: "HTTP \(reply.status)", meaning: "get/key failed: \(reply.bodyText())", at: .root)
            }
            let json = try JSONValue(parsing: reply.body, limits: VendorPayloadKind.segmentifyKeys.defaultLimits)
            if let code = json["statusCode"]?.stringValue {
                let meaning = SegmentifyReplyCode.setupFaults[code] ?? SegmentifyReplyCode.eventFaults[code] ?? "get/key refused the request"
                throw PayloadError.vendorError(code: code, meaning: meaning, at: .root)
            }
            return try SegmentifyKeys.decode(json)
        }
    }

    /// `GET {dataCenter}/get/key?count={count}&apiKey={apiKey}`: the request for `count` new ids.
    public static func keysURL(dataCenter: URL, apiKey: String, count: Int) -> URL {
        var components = URLComponents(url: dataCenter.appendingPathComponent("get/key"), resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "count", value: String(count)), URLQueryItem(name: "apiKey", value: apiKey)]
        return components.url!
    }

    /// The visitor's ids now: the known ones (their session kept alive), a new session after the
    /// lifetime, or new ids for a new visitor.
    /// - Throws: what `fetchKeys` throws, or ``PayloadError`` when the reply holds too few keys.
    public func ids(for visitor: String) async throws -> SegmentifyVisitorIds {
        if let task = pending[visitor] { return try await task.value }
        let now = clock.continuousTime()
        if var known = visitors[visitor], !expired(known, now: now) {
            known.lastSeen = now
            visitors[visitor] = known
            return SegmentifyVisitorIds(userId: known.userId, sessionId: known.sessionId)
        }
        let userId = visitors[visitor]?.userId
        let fetchKeys = fetchKeys
        let task = Task<SegmentifyVisitorIds, any Error> {
            let keys = try await fetchKeys(userId == nil ? 2 : 1)
            if let userId {
                guard let sessionId = keys.userId else { throw PayloadError.invalidValue("the key reply holds no key", at: .root) }
                return SegmentifyVisitorIds(userId: userId, sessionId: sessionId, isNewSession: true)
            }
            guard let newUser = keys.userId, let sessionId = keys.sessionId else {
                throw PayloadError.invalidValue("the key reply holds \(keys.keys.count) key, 2 were asked for", at: .root)
            }
            return SegmentifyVisitorIds(userId: newUser, sessionId: sessionId, isNewSession: true)
        }
        pending[visitor] = task
        defer { pending[visitor] = nil }
        let ids = try await task.value
        visitors[visitor] = Visitor(userId: ids.userId, sessionId: ids.sessionId, lastSeen: clock.continuousTime())
        return ids
    }

    /// Remembers ids you stored elsewhere (for example in the visitor's cookie), seen now.
    public func remember(_ ids: SegmentifyVisitorIds, for visitor: String) {
        visitors[visitor] = Visitor(userId: ids.userId, sessionId: ids.sessionId, lastSeen: clock.continuousTime())
    }

    /// Gives the visitor a new user id (after a ``SegmentifyUserChange``); the session stays.
    public func changeUser(of visitor: String, to userId: String) {
        visitors[visitor]?.userId = userId
    }

    /// Forgets the visitor: the next ``ids(for:)`` asks for new ids.
    public func forget(_ visitor: String) { visitors[visitor] = nil }

    /// Forgets every visitor whose session has expired; returns how many. Call it now and then to bound memory.
    @discardableResult
    public func removeExpired() -> Int {
        let now = clock.continuousTime()
        let before = visitors.count
        visitors = visitors.filter { !expired($0.value, now: now) }
        return before - visitors.count
    }

    /// How many visitors are known.
    public var count: Int { visitors.count }

    private func expired(_ visitor: Visitor, now: Duration) -> Bool {
        now - visitor.lastSeen > lifetime
    }
}
