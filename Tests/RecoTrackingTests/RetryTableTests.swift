import Foundation
import Testing
import RecoKitTesting
import RecoKit
import RecoTracking

@Suite("Retry table: status codes × Retry-After × attempts, on an injected clock")
struct RetryTableTests {
    static let now = Date(timeIntervalSince1970: 1_714_566_896)

    /// What the shared HTTP rules make of each status.
    static let statuses: [(Int, String)] = [
        (200, "delivered"), (202, "delivered"), (204, "delivered"),
        (408, "retry"), (429, "retry"), (500, "retry"), (502, "retry"), (503, "retry"), (504, "retry"), (599, "retry"),
        (501, "misconfigured"), (505, "misconfigured"), (401, "misconfigured"), (403, "misconfigured"), (404, "misconfigured"),
        (405, "misconfigured"), (407, "misconfigured"),
        (400, "rejected"), (422, "rejected"), (409, "rejected"), (410, "rejected"), (415, "rejected"), (413, "too large"),
        (300, "misconfigured"), (301, "misconfigured"), (302, "misconfigured"), (303, "misconfigured"), (304, "misconfigured"),
        (307, "misconfigured"), (308, "misconfigured"),
    ]

    /// 2xx bodies: an API's (JSON, nothing, anything else) is an answer; a web page (markup, after white
    /// space or a byte order mark) is not.
    static let bodies: [(String, String)] = [
        (#"{"statusCode":"SUCCESS"}"#, "delivered"), ("", "delivered"), ("ok", "delivered"), ("[]", "delivered"), ("GIF89a", "delivered"),
        ("<!DOCTYPE html><html></html>", "misconfigured"), ("\r\n  <html lang=\"en\">", "misconfigured"),
        ("\u{FEFF}<?xml version=\"1.0\"?><html/>", "misconfigured"), ("\t<HTML>", "misconfigured"),
    ]

    @Test(arguments: bodies)
    func aWebPageIsNoAnswer(body: String, expected: String) {
        let verdict = DeliveryVerdict.standard(for: VendorReply(status: 200, body: Data(body.utf8)), now: Self.now)
        #expect(verdict.description.hasPrefix(expected), "\(verdict)")
    }

    @Test func aRedirectSaysWhereTheVendorPoints() {
        let reply = VendorReply(status: 308, headers: ["Location": "https://api.vendor.example/events?apiKey=secret"])
        let said = DeliveryVerdict.standard(for: reply, now: Self.now).description
        #expect(said.contains("the vendor redirects to https://api.vendor.example/events;"), "\(said)")
        #expect(!said.contains("secret"), "a key in the Location's query is not logged: \(said)")
        // Whatever a vendor puts there.
        for location in ["", "?", "?apiKey=secret", "//", String(repeating: "/a", count: 10_000)] {
            let verdict = DeliveryVerdict.standard(for: VendorReply(status: 301, headers: ["Location": location]), now: Self.now)
            #expect(verdict.description.hasPrefix("misconfigured: HTTP 301: the vendor redirects to "))
            #expect(!verdict.description.contains("secret") && verdict.description.count < 600)
        }
    }

    @Test(arguments: statuses)
    func statusMeansVerdict(status: Int, expected: String) {
        let verdict = DeliveryVerdict.standard(for: VendorReply(status: status), now: Self.now)
        #expect(verdict.description.hasPrefix(expected))
    }

    /// Retry-After forms: none, delay-seconds, an HTTP date 30 s ahead, garbage.
    static let retryAfters: [(String?, Duration?)] = [
        (nil, nil), ("7", .seconds(7)), ("0", .seconds(0)), ("Wed, 01 May 2024 12:35:26 GMT", .seconds(30)), ("soon", nil),
    ]

    @Test(arguments: retryAfters)
    func retryAfterIsReadInBothForms(header: String?, expected: Duration?) {
        let reply = VendorReply(status: 429, headers: header.map { ["Retry-After": $0] } ?? [:])
        #expect(reply.retryAfter(now: Self.now) == expected)
        #expect(DeliveryVerdict.standard(for: reply, now: Self.now) == .retry(after: expected))
    }

    /// An HTTP date is read by hand (Foundation's `DateFormatter` leaked memory at every date on Linux):
    /// seeded dates from 1970 to 9999, written as a server writes them (a `DateFormatter` of the test's
    /// own), read back to the second; and texts that are no IMF-fixdate are no date.
    @Test func anHTTPDateIsReadToTheSecond() {
        let seed = ProcessInfo.processInfo.environment["RECOKIT_HTTP_DATE_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 0...UInt64.max)
        print("anHTTPDateIsReadToTheSecond seed: \(seed) (RECOKIT_HTTP_DATE_SEED=\(seed) replays it)")
        var random = SeededRandom(seed: seed)
        let writer = DateFormatter()
        writer.locale = Locale(identifier: "en_US_POSIX")
        writer.timeZone = TimeZone(identifier: "GMT")
        writer.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let epoch = Date(timeIntervalSince1970: 0)
        var wrong: [String] = []
        for round in 0..<400 {
            // Whole seconds; the first rounds at the edges of years, months and leap days.
            let seconds = round < 4 ? [0, 951_782_400, 4_107_542_399, 253_402_300_799][round] : Int64.random(in: 0...253_402_300_799, using: &random)
            let text = writer.string(from: Date(timeIntervalSince1970: Double(seconds)))
            let read = VendorReply(status: 503, headers: ["Retry-After": text]).retryAfter(now: epoch)
            if read != .seconds(seconds) { wrong.append("\(text) → \(String(describing: read)), not \(seconds) s") }
        }
        #expect(wrong.isEmpty, "seed \(seed): \(wrong.prefix(5))")
        for text in ["Wed, 1 May 2024 12:35:26 GMT", "Wed, 01 may 2024 12:35:26 GMT", "Wed 01 May 2024 12:35:26 GMT",
                     "Wed, 01 May 2024 12:35:26 UTC", "Wed, 01 May +024 12:35:26 GMT", "Wed, 01 May 2024 24:00:00 GMT",
                     "Wed, 32 May 2024 12:35:26 GMT", "Wed, 01 May 2024 12:35 GMT", "Wed, 01 May 2024  12:35:26 GMT",
                     "Wednesday, 01-May-24 12:35:26 GMT", "Wed, ٠١ May 2024 12:35:26 GMT"] {
            #expect(VendorReply(status: 503, headers: ["Retry-After": text]).retryAfter(now: epoch) == nil, "\(text)")
        }
    }

    /// attempt → ceiling with 0.5 s initial and 60 s maximum (the default maximum is 2 s).
    static let ceilings: [(Int, Duration)] = [(1, .milliseconds(500)), (2, .seconds(1)), (3, .seconds(2)), (4, .seconds(4)),
                                              (5, .seconds(8)), (7, .seconds(32)), (8, .seconds(60)), (30, .seconds(60))]

    @Test(arguments: ceilings)
    func backoffDoublesUpToTheMaximum(attempt: Int, ceiling: Duration) {
        let policy = RetryPolicy(maximumDelay: .seconds(60))
        #expect(policy.ceiling(attempt: attempt) == ceiling)
        #expect(policy.delay(attempt: attempt, retryAfter: nil, jitter: 0) == ceiling / 2)
        #expect(policy.delay(attempt: attempt, retryAfter: nil, jitter: 0.5) == ceiling * 0.75)
        #expect(policy.delay(attempt: attempt, retryAfter: nil, jitter: 1) == ceiling)
        #expect(policy.delay(attempt: attempt, retryAfter: .seconds(90), jitter: 0.5) == .seconds(90))
        #expect(policy.delay(attempt: attempt, retryAfter: .milliseconds(1), jitter: 0.999) >= .milliseconds(1))
    }

    func run(_ replies: [ScriptedTransport.Step], events: Int = 1) async throws -> (TestClock, ScriptedTransport, Tracker) {
        let clock = TestClock(jitter: 0.5)
        let transport = ScriptedTransport(replies)
        var configuration = TrackerSetup(journal: nil, durability: .memory)
        configuration.maxConcurrentRequests = 1
        configuration.flushInterval = .milliseconds(1)
        configuration.idlePollInterval = .milliseconds(1)
        let tracker = try Tracker(destination: CountingDestination(), configuration: configuration, transport: transport, clock: clock)
        for number in 1...events { try tracker.track(Fixtures.click("P-\(number)")) }
        await tracker.waitUntilDelivered()
        return (clock, transport, tracker)
    }

    static func reply(_ status: Int, retryAfter: String? = nil) -> ScriptedTransport.Step {
        .reply(VendorReply(status: status, headers: retryAfter.map { ["Retry-After": $0] } ?? [:]))
    }

    @Test func theEngineSleepsTheScheduleOnTheInjectedClock() async throws {
        let (clock, transport, tracker) = try await run([Self.reply(503), .networkError, Self.reply(429, retryAfter: "7"),
                                                         Self.reply(502), Self.reply(408), Self.reply(200)])
        // Jitter fixed at 0.5: three quarters of 0.5, 1, 2, 2, 2 s (the ceiling stops at the 2 s maximum);
        // the third floored by Retry-After 7 s.
        #expect(clock.sleeps.map { $0.components.seconds * 1000 + $0.components.attoseconds / 1_000_000_000_000_000 }
                == [375, 750, 7000, 1500, 1500])
        #expect(transport.requests.count == 6)
        let statistics = tracker.statistics
        #expect(statistics.delivered == 1)
        #expect(statistics.retried == 5)
        #expect(statistics.deadLettered == 0)
        _ = await tracker.shutdown(deadline: .zero)
    }

    @Test(arguments: [(400, "dead"), (422, "dead"), (413, "dead"), (401, "kept"), (404, "kept"), (501, "kept"), (505, "kept"),
                      (500, "retried"), (429, "retried"), (408, "retried")])
    func aSingleEventIsDeadLetteredKeptOrRetried(status: Int, outcome: String) async throws {
        let (clock, transport, tracker) = try await run([Self.reply(status), Self.reply(200)])
        let statistics = tracker.statistics
        switch outcome {
        case "dead":
            #expect(statistics.deadLettered == 1)
            #expect(statistics.delivered == 0)
            #expect(transport.requests.count == 1)
        case "kept":
            // Configuration faults keep the event and pause for the configuration delay, then succeed.
            #expect(statistics.configurationFaults == 1)
            #expect(statistics.delivered == 1)
            #expect(clock.sleeps == [.seconds(60)])
        default:
            #expect(statistics.retried == 1)
            #expect(statistics.delivered == 1)
            #expect(clock.sleeps == [.milliseconds(375)])
        }
        _ = await tracker.shutdown(deadline: .zero)
    }

    /// Every dead letter of a vendor's refusal keeps what the vendor said.
    @Test(arguments: [(400, "HTTP 400: product P-1 is retired"),
                      (413, "HTTP 413: the event alone is larger than counting accepts (counting said: product P-1 is retired)")])
    func aDeadLetterKeepsTheVendorsOwnReply(status: Int, reason: String) async throws {
        let (_, _, tracker) = try await run([.reply(VendorReply(status: status, body: Data("product P-1 is retired".utf8)))])
        #expect(try await tracker.deadLetters().map(\.reason) == [reason])
        _ = await tracker.shutdown(deadline: .zero)
    }

    @Test func aRejectedBatchIsBisectedDownToTheBadEvent() async throws {
        // 8 events in one batch; the vendor refuses any batch holding P-6.
        let transport = RefusingTransport(badProduct: "P-6")
        var configuration = TrackerSetup(journal: nil, durability: .memory)
        configuration.maxConcurrentRequests = 1
        configuration.flushInterval = .milliseconds(1)
        let tracker = try Tracker(destination: CountingDestination(), configuration: configuration, transport: transport, clock: TestClock())
        var ids: [EventID] = []
        for number in 1...8 { ids.append(try tracker.track(Fixtures.click("P-\(number)"))) }
        try await tracker.flush()
        await tracker.waitUntilDelivered()
        #expect(tracker.statistics.delivered == 7)
        #expect(try await tracker.deadLetters().map(\.event.id) == [ids[5]])
        #expect(try await tracker.deadLetters().first?.reason == "HTTP 400: P-6 is unknown")
        #expect(transport.delivered.sorted() == (ids[0..<5] + ids[6...]).map(\.description).sorted())
        _ = await tracker.shutdown(deadline: .zero)
    }
}

/// Refuses (400) any batch that holds the bad product's event; stores the others.
final class RefusingTransport: Transport, @unchecked Sendable {
    let badId: String
    private let lock = NSLock()
    private var stored: [String] = []
    init(badProduct: String) { badId = badProduct }
    var delivered: [String] { lock.withLock { stored } }

    func send(_ request: VendorRequest, timeout: Duration) async throws -> VendorReply {
        let ids = String(decoding: request.body, as: UTF8.self).split(separator: "\n").map(String.init)
        // CountingDestination sends ids; the sixth event of the run is the bad one.
        if ids.contains(where: { $0.hasSuffix("-6") }) { return VendorReply(status: 400, body: Data("\(badId) is unknown".utf8)) }
        lock.withLock { stored += ids }
        return VendorReply(status: 200)
    }
}
