import Foundation
import Testing
import RecoKit
import RecoTracking

/// Values nobody planned for, from a vendor or a caller: a `Retry-After` that no clock reaches, a time in
/// nanoseconds taken for milliseconds, a NaN. Each is refused with a message or bounded; none traps (a
/// `Retry-After: 9223372036854775807` and a relay line with `"occurred": 9223372036854775807` each
/// crashed the process that met them, in the conversion of a `Double` to an `Int64`).
@Suite("Values outside every range: refused or bounded, never a crash")
struct OutOfRangeValueTests {
    static let start = Date(timeIntervalSince1970: 1_714_566_896)

    func tracker(transport: ScriptedTransport, clock: TestClock, longestRetryAfter: Duration) throws -> Tracker {
        var configuration = TrackerSetup(journal: nil, durability: .memory)
        configuration.maxConcurrentRequests = 1
        configuration.flushInterval = .milliseconds(1)
        configuration.idlePollInterval = .milliseconds(1)
        configuration.retryPolicy.longestRetryAfter = longestRetryAfter
        return try Tracker(destination: CountingDestination(), configuration: configuration, transport: transport, clock: clock)
    }

    static func unavailable(retryAfter: String) -> ScriptedTransport.Step {
        .reply(VendorReply(status: 503, headers: ["Retry-After": retryAfter]))
    }

    /// `Retry-After` values beyond any sensible wait: the largest Int64 of seconds, a hundred million
    /// years of them, an HTTP date in the year 9999.
    static let hugeRetryAfters = ["9223372036854775807", "3155760000000000", "Fri, 31 Dec 9999 23:59:59 GMT"]

    /// Each is honoured for ``RetryPolicy/longestRetryAfter`` (90 s here), then the destination is probed
    /// again; every event is delivered.
    /// (Without the bound the sender sleeps a day at a time for ages, on a clock that never waits: the test
    /// waits for delivery as long as ``Tracker/waitUntilDelivered(limit:)`` does, then counts the sleeps.)
    @Test(arguments: hugeRetryAfters)
    func aRetryAfterBeyondTheLongestIsHonouredForTheLongest(header: String) async throws {
        let clock = TestClock(start: Self.start, jitter: 0.5)
        let transport = ScriptedTransport([Self.unavailable(retryAfter: header), Self.unavailable(retryAfter: header)])
        let tracker = try tracker(transport: transport, clock: clock, longestRetryAfter: .seconds(90))
        for number in 1...3 { try tracker.track(Fixtures.click("P-\(number)")) }
        await tracker.waitUntilDelivered()
        _ = await tracker.shutdown(deadline: .zero)
        #expect(clock.sleeps.count == 2)
        #expect(Array(clock.sleeps.prefix(3)) == [.seconds(90), .seconds(90)])
        #expect(tracker.statistics.delivered == 3)
    }

    /// A wait longer than a day (a policy that allows it) is slept a day at a time, to the probe's time.
    @Test func aWaitOfDaysIsSleptADayAtATime() async throws {
        let clock = TestClock(start: Self.start, jitter: 0.5)
        let transport = ScriptedTransport([Self.unavailable(retryAfter: "9223372036854775807")])
        let tracker = try tracker(transport: transport, clock: clock, longestRetryAfter: .seconds(2 * 86_400 + 5))
        try tracker.track(Fixtures.click("P-1"))
        await tracker.waitUntilDelivered()
        _ = await tracker.shutdown(deadline: .zero)
        #expect(clock.sleeps.count == 3)
        #expect(Array(clock.sleeps.prefix(4)) == [.seconds(86_400), .seconds(86_400), .seconds(5)])
        #expect(clock.now() == Self.start.addingTimeInterval(2 * 86_400 + 5))
        #expect(tracker.statistics.delivered == 1)
    }

    @Test func theDefaultPolicyHonoursRetryAfterForTenMinutesAtMost() throws {
        let policy = RetryPolicy()
        #expect(policy.longestRetryAfter == .seconds(600))
        #expect(policy.delay(attempt: 1, retryAfter: .seconds(Int64.max), jitter: 0.5) == .seconds(600))
        #expect(policy.delay(attempt: 1, retryAfter: .seconds(599), jitter: 0.5) == .seconds(599))
        let reply = VendorReply(status: 503, headers: ["Retry-After": "Fri, 31 Dec 9999 23:59:59 GMT"])
        #expect(try #require(reply.retryAfter(now: Self.start)) > .seconds(250_000_000_000))
    }

    /// Times outside 1970-01-01T00:00:00Z…9999-12-31T23:59:59.999Z: just before and after the edges, the
    /// year 1 (`Date.distantPast`), nanoseconds since 1970 taken for seconds, the largest Int64 of
    /// milliseconds, infinities and NaN.
    static let untrackableSeconds: [Double] = [-0.001, 253_402_300_800, Date.distantPast.timeIntervalSince1970, 1.7e18,
                                               9_223_372_036_854_775.807, 1e300, .infinity, -.infinity, .nan]

    @Test(arguments: untrackableSeconds)
    func aTimeOutsideTheTrackableYearsIsRefusedBeforeItIsJournaled(seconds: Double) throws {
        let tracker = try Tracker(destination: CountingDestination(), configuration: TrackerSetup(journal: nil, durability: .memory),
                                  transport: ScriptedTransport([]))
        defer { Task { _ = await tracker.shutdown(deadline: .zero) } }
        let occurred = Date(timeIntervalSince1970: seconds)
        do {
            try tracker.track(Fixtures.click("P-1", occurred: occurred))
            Issue.record("a click at \(seconds) s since 1970 was tracked")
        } catch {
            #expect(error.interactionError?.kind == .occurredOutOfRange, "\(error)")
            #expect(error.description.contains("its time must lie from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z"), "\(error)")
        }
        let page = PageImpressions(context: Fixtures.context, occurred: occurred,
                                   impressions: [.init(instanceId: "rec_cat_1", interactionId: "act_1", productId: "P-1", position: 1)])
        #expect(throws: TrackingError.self) { try tracker.track(page) }
        #expect(tracker.statistics.refusedInvalid == 2)
        #expect(tracker.statistics.pending == 0)
    }

    /// The edges themselves are tracked, and delivered with their times.
    @Test func theEdgesOfTheTrackableYearsAreTracked() async throws {
        let transport = ScriptedTransport([])
        let tracker = try Tracker(destination: CountingDestination(), configuration: TrackerSetup(journal: nil, durability: .memory),
                                  transport: transport)
        try tracker.track(Fixtures.click("P-1", occurred: InteractionTime.trackable.lowerBound))
        try tracker.track(Fixtures.click("P-2", occurred: InteractionTime.trackable.upperBound))
        try await tracker.flush()
        await tracker.waitUntilDelivered()
        _ = await tracker.shutdown(deadline: .zero)
        #expect(tracker.statistics.delivered == 2)
        #expect(InteractionTime.iso8601(InteractionTime.trackable.upperBound) == "9999-12-31T23:59:59Z")
    }

    /// A JSON line (what `recokit relay` reads) with such a time is refused naming the field and the value.
    @Test(arguments: ["9223372036854775807", "-9223372036854775808", "253402300800000", "-1", #""0000-01-01T00:00:00Z""#])
    func aJSONLineWithATimeOutsideIsRefusedNamingTheField(occurred: String) throws {
        let line = try JSONValue(parsing: #"{"type":"click","instanceId":"rec_pdp_1","productId":"P-1","userId":"u","sessionId":"s","occurred":\#(occurred)}"#)
        #expect {
            _ = try Interaction(jsonLine: line)
        } throws: { error in
            "\(error)".hasPrefix("\"occurred\" \(occurred.replacingOccurrences(of: "\"", with: "")) lies outside 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z")
        }
    }

    /// Writing a time no calendar places gives its seconds, not a trap.
    @Test func aTimeNoCalendarPlacesIsWrittenAsSeconds() {
        #expect(InteractionTime.iso8601(Date(timeIntervalSince1970: 1e300)) == "1e+300 seconds since 1970")
        #expect(InteractionTime.iso8601(Date(timeIntervalSince1970: .nan)) == "nan seconds since 1970")
        #expect(InteractionTime.iso8601(Date(timeIntervalSince1970: -1.7e18)) == "-1.7e+18 seconds since 1970")
    }
}

