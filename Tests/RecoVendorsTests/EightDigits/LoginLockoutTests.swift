import Foundation
import Testing
@testable import RecoVendors

/// The login lockouts of 8digits' guide, on a hand-driven clock, through the tracker.
@Suite("8digits login lockouts")
struct LoginLockoutTests {
    let clock = SegmentsTestClock()
    let transport = ScriptedEightDigitsTransport()
    let api = try! EightDigitsAPI(urlPrefix: URL(string: "http://tr-api.8digits.com")!, trackingCode: "Xk3sP0q9")

    func tracker() -> EightDigitsTracker<SegmentsTestClock> {
        EightDigitsTracker(api: api, transport: transport, visitorCode: "a1b2c3d4", clock: clock)
    }

    func kind(of attempt: () async throws -> Void) async -> EightDigitsError.Kind? {
        do {
            try await attempt()
            return nil
        } catch {
            return (error as? EightDigitsError)?.kind
        }
    }

    @Test func threeFailuresInAMinuteBlockTheUsernameForTenMinutes() async {
        let tracker = tracker()
        await transport.reply(EightDigitsReplies.refused, EightDigitsReplies.refused, EightDigitsReplies.refused, EightDigitsReplies.token)
        for _ in 0..<3 {
            #expect(await kind { try await tracker.authenticate(username: "acme", password: "wrong") } == .server)
            clock.advance(by: .seconds(20))
        }
        // 20 s after the third failure (at 40 s): blocked until 640 s, and nothing is sent.
        do {
            try await tracker.authenticate(username: "acme", password: "right")
            Issue.record("a blocked username logged in")
        } catch {
            #expect(error.kind == .usernameBlocked)
            #expect(error.retryAfter == .seconds(580))
            #expect(error.description == #"login refused: username "acme" is blocked for 9 min 40 s more after 3 failed logins within 60 seconds"#)
        }
        #expect(await transport.requests.count == 3)
        clock.advance(by: .seconds(579))
        #expect(await kind { try await tracker.authenticate(username: "acme", password: "right") } == .usernameBlocked)
        clock.advance(by: .seconds(1))
        #expect(await kind { try await tracker.authenticate(username: "acme", password: "right") } == nil, "free after 10 minutes")
        #expect(await tracker.authToken == "7b3f0c9e")
    }

    @Test func failuresSpreadOverMoreThanAMinuteDoNotBlock() async {
        let tracker = tracker()
        await transport.reply(EightDigitsReplies.refused, EightDigitsReplies.refused, EightDigitsReplies.refused, EightDigitsReplies.token)
        for _ in 0..<3 {
            _ = await kind { try await tracker.authenticate(username: "acme", password: "wrong") }
            clock.advance(by: .seconds(31))
        }
        #expect(await kind { try await tracker.authenticate(username: "acme", password: "right") } == nil)
    }

    @Test func anotherUsernameIsNotBlockedByTheFirstOnesFailures() async {
        let tracker = tracker()
        await transport.reply(EightDigitsReplies.refused, EightDigitsReplies.refused, EightDigitsReplies.refused, EightDigitsReplies.token)
        for _ in 0..<3 { _ = await kind { try await tracker.authenticate(username: "acme", password: "wrong") } }
        #expect(await kind { try await tracker.authenticate(username: "acme-reports", password: "right") } == nil)
    }

    @Test func fiveFailuresBlockTheAddress() async {
        let tracker = tracker()
        for _ in 0..<5 { await transport.reply(EightDigitsReplies.refused) }
        await transport.reply(EightDigitsReplies.token)
        for index in 0..<5 {
            // Different usernames, and a minute apart, so that only the address rule applies.
            #expect(await kind { try await tracker.authenticate(username: "user\(index)", password: "wrong") } == .server)
            clock.advance(by: .seconds(61))
        }
        do {
            try await tracker.authenticate(username: "fresh", password: "right")
            Issue.record("a blocked address logged in")
        } catch {
            #expect(error.kind == .ipBlocked)
            #expect(error.description == "login refused: 8digits blocks this IP address after 5 failed logins; no login is attempted")
        }
        #expect(await transport.requests.count == 5, "the sixth login was not sent")
        await tracker.clearIPBlock()
        #expect(await kind { try await tracker.authenticate(username: "fresh", password: "right") } == nil)
    }

    @Test func aSuccessResetsTheCounts() async {
        let tracker = tracker()
        let replies = [EightDigitsReplies.refused, EightDigitsReplies.refused, EightDigitsReplies.token,
                       EightDigitsReplies.refused, EightDigitsReplies.refused, EightDigitsReplies.token]
        for reply in replies { await transport.reply(reply) }
        for expected: EightDigitsError.Kind? in [.server, .server, nil, .server, .server, nil] {
            #expect(await kind { try await tracker.authenticate(username: "acme", password: "pw") } == expected)
        }
    }

    @Test func transportFailuresAreNotLoginFailures() async {
        let tracker = tracker()
        for _ in 0..<4 {
            #expect(await kind { try await tracker.authenticate(username: "acme", password: "pw") } == .transport)
        }
        await transport.reply(EightDigitsReplies.token)
        #expect(await kind { try await tracker.authenticate(username: "acme", password: "pw") } == nil)
    }
}
