import RecoDestinations
import Foundation
import Testing
import RecoKit
import RecoTracking
import RecoVendors

/// A clock moved by hand.
final class ManualClock: TrackingClock, @unchecked Sendable {
    private let lock = NSLock()
    private var current = Date(timeIntervalSince1970: 1_714_566_896)
    func now() -> Date { lock.withLock { current } }
    func advance(seconds: TimeInterval) { lock.withLock { current = current.addingTimeInterval(seconds) } }
    func sleep(for duration: Duration) async throws {}
}

/// A clock whose wall time can be set apart from the time that passes (an NTP step, a hardware clock
/// kept in local time corrected to UTC): `set` moves the wall clock only, `pass` both.
final class SteppedClock: TrackingClock, @unchecked Sendable {
    private let lock = NSLock()
    private var wall = Date(timeIntervalSince1970: 1_714_566_896)
    private var passed = Duration.seconds(5_000)
    func now() -> Date { lock.withLock { wall } }
    func continuousTime() -> Duration { lock.withLock { passed } }
    func set(bySeconds step: TimeInterval) { lock.withLock { wall = wall.addingTimeInterval(step) } }
    func pass(seconds: Int) { lock.withLock { wall = wall.addingTimeInterval(TimeInterval(seconds)); passed += .seconds(seconds) } }
    func sleep(for duration: Duration) async throws {}
}

/// A `get/key` endpoint that hands out numbered keys and counts the requests.
final class KeyCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 1_000
    private(set) var requests: [Int] = []
    var replyWithOneKeyOnly = false

    func fetch(_ count: Int) throws -> SegmentifyKeys {
        try lock.withLock {
            requests.append(count)
            let keys = (0..<(replyWithOneKeyOnly ? 1 : count)).map { _ in next += 1; return "\"-89754107499\(next)\"" }
            // Decoded from the reply's bytes, as a real response is.
            return try SegmentifyKeys.decode(Data("[\(keys.joined(separator: ","))]".utf8))
        }
    }
}

@Suite("Segmentify visitors: ids from get/key and the session lifetime")
struct SegmentifyVisitorsTests {
    let clock = ManualClock()
    let keys = KeyCounter()

    func visitors(lifetime: Duration = .seconds(86_400)) -> SegmentifyVisitors {
        let keys = keys
        return SegmentifyVisitors(lifetime: lifetime, clock: clock) { count in try keys.fetch(count) }
    }

    @Test func aNewVisitorGetsAUserAndASessionFromOneKeyRequest() async throws {
        let visitors = visitors()
        let ids = try await visitors.ids(for: "cookie-a")
        #expect(ids == SegmentifyVisitorIds(userId: "-897541074991001", sessionId: "-897541074991002", isNewSession: true))
        #expect(keys.requests == [2])
        let again = try await visitors.ids(for: "cookie-a")
        #expect(again == SegmentifyVisitorIds(userId: "-897541074991001", sessionId: "-897541074991002", isNewSession: false))
        let other = try await visitors.ids(for: "cookie-b")
        #expect(other.userId != ids.userId && other.sessionId != ids.sessionId)
        #expect(keys.requests == [2, 2])
    }

    @Test func theSessionLivesADayOfIdlenessThenOnlyTheSessionIsRenewed() async throws {
        let visitors = visitors()
        let first = try await visitors.ids(for: "cookie-a")
        clock.advance(seconds: 86_000)
        #expect(try await visitors.ids(for: "cookie-a").sessionId == first.sessionId)
        // Activity keeps it alive: a day after the first event but only 500 s after the last.
        clock.advance(seconds: 500)
        #expect(try await visitors.ids(for: "cookie-a").sessionId == first.sessionId)
        clock.advance(seconds: 86_400)
        #expect(try await visitors.ids(for: "cookie-a").sessionId == first.sessionId) // exactly the lifetime: still alive
        clock.advance(seconds: 86_401)
        let renewed = try await visitors.ids(for: "cookie-a")
        #expect(renewed.userId == first.userId)
        #expect(renewed.sessionId != first.sessionId)
        #expect(renewed.isNewSession)
        #expect(keys.requests == [2, 1])
    }

    /// Idle time is the time that passed, not the wall clock's difference: set forward a day or a year,
    /// no session ends (each would cost a `get/key` request and count a new session per visitor at once);
    /// set back a month, sessions still end after the lifetime, and ``SegmentifyVisitors/removeExpired()``
    /// frees them (it freed nothing for the month).
    @Test(arguments: [86_400, 3 * 3600, 365 * 86_400, -3 * 3600, -30 * 86_400, -20 * 365 * 86_400] as [TimeInterval])
    func aWallClockSetForwardOrBackDoesNotMoveIdleTime(step: TimeInterval) async throws {
        let clock = SteppedClock()
        let keys = keys
        let visitors = SegmentifyVisitors(lifetime: .seconds(1800), clock: clock) { count in try keys.fetch(count) }
        let first = try await visitors.ids(for: "cookie-a")
        _ = try await visitors.ids(for: "cookie-b")
        clock.pass(seconds: 60)
        clock.set(bySeconds: step)
        clock.pass(seconds: 60)
        let after = try await visitors.ids(for: "cookie-a")
        #expect(after.sessionId == first.sessionId && !after.isNewSession, "two minutes idle, the wall clock set by \(step) s")
        #expect(await visitors.removeExpired() == 0)
        #expect(keys.requests == [2, 2])
        clock.pass(seconds: 1700)
        #expect(await visitors.removeExpired() == 1, "cookie-b idle 1,820 s of a 1,800 s lifetime, cookie-a 1,700 s")
        clock.pass(seconds: 101)
        let renewed = try await visitors.ids(for: "cookie-a")
        #expect(renewed.userId == first.userId && renewed.sessionId != first.sessionId && renewed.isNewSession)
        #expect(keys.requests == [2, 2, 1])
    }

    @Test func aShorterLifetimeIsHonoured() async throws {
        let visitors = visitors(lifetime: .seconds(1800))
        let first = try await visitors.ids(for: "cookie-a")
        clock.advance(seconds: 1801)
        #expect(try await visitors.ids(for: "cookie-a").sessionId != first.sessionId)
    }

    @Test func concurrentFirstCallsShareOneKeyRequest() async throws {
        let visitors = visitors()
        async let one = visitors.ids(for: "cookie-a")
        async let two = visitors.ids(for: "cookie-a")
        let (a, b) = try await (one, two)
        #expect(a.userId == b.userId && a.sessionId == b.sessionId)
        #expect(keys.requests == [2])
    }

    @Test func changeUserRememberForgetAndExpiry() async throws {
        let visitors = visitors()
        let first = try await visitors.ids(for: "cookie-a")
        await visitors.changeUser(of: "cookie-a", to: "CRM_1048576")
        let changed = try await visitors.ids(for: "cookie-a")
        #expect(changed.userId == "CRM_1048576" && changed.sessionId == first.sessionId)

        await visitors.remember(SegmentifyVisitorIds(userId: "U-stored", sessionId: "S-stored"), for: "cookie-b")
        #expect(try await visitors.ids(for: "cookie-b").sessionId == "S-stored")
        #expect(await visitors.count == 2)

        await visitors.forget("cookie-b")
        #expect(try await visitors.ids(for: "cookie-b").userId != "U-stored")
        clock.advance(seconds: 90_000)
        #expect(await visitors.removeExpired() == 2)
        #expect(await visitors.count == 0)
    }

    @Test func aShortKeyReplyIsAnError() async throws {
        keys.replyWithOneKeyOnly = true
        let visitors = visitors()
        await #expect(throws: PayloadError.self) { try await visitors.ids(for: "cookie-a") }
        #expect(await visitors.count == 0)
    }

    @Test func theKeyRequestURLAndTheCommonFieldsFromIds() async throws {
        let url = SegmentifyVisitors.keysURL(dataCenter: URL(string: "https://gandalf.segmentify.com")!, apiKey: "8157d334", count: 2)
        #expect(url.absoluteString == "https://gandalf.segmentify.com/get/key?count=2&apiKey=8157d334")
        let ids = try await visitors().ids(for: "cookie-a")
        let common = SegmentifyCommonFields(ids: ids, lang: "TR")
        let json = try SegmentifyPageView(category: .homePage, common: common).json()
        #expect(json["userId"]?.stringValue == ids.userId && json["sessionId"]?.stringValue == ids.sessionId)
    }

    @Test func idsComeFromTheGetKeyEndpointOverATransport() async throws {
        let transport = RecordingTransport(body: #"["-897541074991628287","-2066154474596835328"]"#)
        let visitors = SegmentifyVisitors(dataCenter: URL(string: "https://gandalf.segmentify.com")!, apiKey: "8157d334",
                                          origin: "segmentify-shop.myshopify.com", transport: transport, clock: clock)
        let ids = try await visitors.ids(for: "cookie-a")
        #expect(ids == SegmentifyVisitorIds(userId: "-897541074991628287", sessionId: "-2066154474596835328", isNewSession: true))
        let request = try #require(transport.requests.first)
        #expect(request.method == "GET")
        #expect(request.url.absoluteString == "https://gandalf.segmentify.com/get/key?count=2&apiKey=8157d334")
        #expect(request.header("Origin") == "segmentify-shop.myshopify.com")
        #expect(request.body.isEmpty)
    }

    /// A key reply is two ids: one over its kind's cap (1 MiB) is refused before any of it is made.
    @Test func aKeyReplyOverItsCapIsRefusedAndTheVisitorStaysUnknown() async throws {
        let body = #"["-897541074991628287","-2066154474596835328"]"# + String(repeating: " ", count: 1 << 20)
        let visitors = SegmentifyVisitors(dataCenter: URL(string: "https://gandalf.segmentify.com")!, apiKey: "8157d334",
                                          origin: "segmentify-shop.myshopify.com", transport: RecordingTransport(body: body), clock: clock)
        await #expect { try await visitors.ids(for: "cookie-a") } throws: { error in
            (error as? PayloadError)?.kind == .limitExceeded
        }
        #expect(await visitors.count == 0)
    }

    @Test func aRefusedKeyRequestIsAVendorErrorAndTheVisitorStaysUnknown() async throws {
        for (status, body, code) in [(200, #"{"statusCode":"NO_ACCOUNT"}"#, "NO_ACCOUNT"), (503, "busy", "HTTP 503")] {
            let visitors = SegmentifyVisitors(dataCenter: URL(string: "https://gandalf.segmentify.com")!, apiKey: "8157d334",
                                              origin: "segmentify-shop.myshopify.com",
                                              transport: RecordingTransport(status: status, body: body), clock: clock)
            await #expect { try await visitors.ids(for: "cookie-a") } throws: { error in
                (error as? PayloadError)?.kind == .vendorError && (error as? PayloadError)?.vendorCode == code
            }
            #expect(await visitors.count == 0)
        }
    }
}
