import Foundation
import Testing
@testable import RecoVendors

@Suite("8digits tracking")
struct EightDigitsTrackerTests {
    let transport = ScriptedEightDigitsTransport()
    let tracker: EightDigitsTracker<SegmentsTestClock>

    init() throws {
        let api = try EightDigitsAPI(urlPrefix: URL(string: "http://tr-api.8digits.com")!, trackingCode: "Xk3sP0q9")
        tracker = EightDigitsTracker(api: api, transport: transport, visitorCode: "a1b2c3d4", clock: SegmentsTestClock())
    }

    @Test func aWholeVisit() async throws {
        await transport.reply(EightDigitsReplies.token, EightDigitsReplies.visit("74164c40", hit: "35103347"), EightDigitsReplies.hit("3281359"),
                              EightDigitsReplies.ok, EightDigitsReplies.ok, EightDigitsReplies.ok, EightDigitsReplies.ok,
                              #"{"result":{"code":0},"data":{"badges":["4f0a9e450364c808e94bfd32"],"count":1}}"#,
                              #"{"result":{"code":0},"data":{"score":30}}"#)
        try await tracker.authenticate(username: "acme", password: "s3cret")
        let started = try await tracker.startVisit(title: "Splash", path: "/splash")
        #expect(started == EightDigitsVisitStarted(sessionCode: "74164c40", hitCode: "35103347"))
        let basket = try await tracker.startScreen(title: "Basket", path: "/basket")
        #expect(basket == "3281359")
        try await tracker.event(key: "AddToShoppingCart", value: "120.99", hitCode: basket)
        try await tracker.updateLocation(latitude: Decimal(string: "41.0082")!, longitude: Decimal(string: "28.9784")!)
        try await tracker.endScreen(hitCode: basket)
        try await tracker.endVisit()
        #expect(try await tracker.badges() == EightDigitsBadges(ids: ["4f0a9e450364c808e94bfd32"], count: 1))
        #expect(try await tracker.score() == 30)

        #expect(await transport.paths == ["/api/auth", "/api/visit/create", "/api/hit/create", "/api/event/create", "/api/visit/location",
                                          "/api/hit/end", "/api/visit/end", "/api/visitor/badges", "/api/visitor/score"])
        let requests = await transport.requests
        #expect(requests[2].fields == ["authToken": "7b3f0c9e", "trackingCode": "Xk3sP0q9", "visitorCode": "a1b2c3d4",
                                       "sessionCode": "74164c40", "pageTitle": "Basket", "path": "/basket"])
        #expect(requests[3][field: "hitCode"] == "3281359")
        #expect(requests[3][field: "sessionCode"] == "74164c40")
        #expect(requests[5][field: "hitCode"] == "3281359")
        let visit = try #require(await tracker.visit)
        #expect(visit.isEnded)
        #expect(visit.hits.map(\.code) == ["35103347", "3281359"])
        #expect(visit.hit("3281359")?.isEnded == true)
    }

    @Test func theCallersOwnCodesAreUsedAndKeptUnique() async throws {
        await transport.reply(EightDigitsReplies.token, EightDigitsReplies.visit("own-session", hit: "own-1"), EightDigitsReplies.hit("own-2"))
        try await tracker.authenticate(username: "acme", password: "s3cret")
        try await tracker.startVisit(title: "Home", path: "/", sessionCode: "own-session", hitCode: "own-1")
        #expect(try await tracker.startScreen(title: "List", path: "/list", hitCode: "own-2") == "own-2")
        await #expect {
            try await tracker.startScreen(title: "Again", path: "/again", hitCode: "own-1")
        } throws: { error in
            (error as? EightDigitsError)?.kind == .duplicateHit
        }
        let requests = await transport.requests
        #expect(requests.count == 3, "the duplicate was refused before sending")
        #expect(requests[1][field: "sessionCode"] == "own-session")
        #expect(requests[1][field: "hitCode"] == "own-1")
    }

    @Test func aScreenAfterTheVisitEndedRevivesIt() async throws {
        await transport.reply(EightDigitsReplies.token, EightDigitsReplies.visit("s1", hit: "h1"), EightDigitsReplies.ok, EightDigitsReplies.hit("h2"))
        try await tracker.authenticate(username: "acme", password: "s3cret")
        try await tracker.startVisit(title: "Home", path: "/")
        try await tracker.endVisit()
        #expect(await tracker.visit?.isEnded == true)
        try await tracker.startScreen(title: "Back", path: "/back")
        #expect(await tracker.visit?.isEnded == false)
        #expect(await tracker.visit?.revivals == 1)
        #expect(await transport.requests.last?[field: "sessionCode"] == "s1", "the same session code comes back")
    }

    @Test func eventsAreCheckedBeforeSending() async throws {
        await transport.reply(EightDigitsReplies.token, EightDigitsReplies.visit("s1", hit: "h1"), EightDigitsReplies.ok)
        try await tracker.authenticate(username: "acme", password: "s3cret")
        try await tracker.startVisit(title: "Home", path: "/")
        await #expect {
            try await tracker.event(key: "Tap", hitCode: "h9")
        } throws: { error in
            (error as? EightDigitsError)?.kind == .unknownHit
        }
        await #expect {
            try await tracker.event(key: "", hitCode: "h1")
        } throws: { error in
            (error as? EightDigitsError)?.argument == "key"
        }
        try await tracker.serverEvent(key: "ReportBatchFinished", value: "1")
        let last = try #require(await transport.requests.last)
        #expect(last.url.path == "/api/event/create")
        #expect(last[field: "sessionCode"] == nil && last[field: "hitCode"] == nil, "a server-side event is bound to nothing")
        #expect(await transport.requests.count == 3)
    }

    @Test func callsInTheWrongOrderAreRefused() async throws {
        await #expect {
            try await tracker.startVisit(title: "Home", path: "/")
        } throws: { error in
            (error as? EightDigitsError)?.kind == .notAuthenticated
        }
        await transport.reply(EightDigitsReplies.token)
        try await tracker.authenticate(username: "acme", password: "s3cret")
        await #expect {
            try await tracker.startScreen(title: "List", path: "/list")
        } throws: { error in
            (error as? EightDigitsError)?.kind == .noVisit
        }
        #expect(await transport.requests.count == 1)
    }

    @Test func aServerErrorCarriesItsMessage() async throws {
        await transport.reply(EightDigitsReplies.token, #"{"result":{"code":12,"message":"Invalid tracking code"}}"#)
        try await tracker.authenticate(username: "acme", password: "s3cret")
        do {
            try await tracker.startVisit(title: "Home", path: "/")
            Issue.record("an error reply was taken for success")
        } catch {
            #expect(error.kind == .server)
            #expect(error.serverCode == 12)
            #expect(error.serverMessage == "Invalid tracking code")
            #expect(error.description == "8digits answered error 12: Invalid tracking code")
        }
        #expect(await tracker.visit == nil)
    }

    @Test func anUnreadableReplyIsAPayloadError() async throws {
        await transport.reply(#"{"result":{"code":0},"data":{"token":"x"}}"#)
        do {
            try await tracker.authenticate(username: "acme", password: "s3cret")
            Issue.record("no token, yet authenticated")
        } catch {
            #expect(error.kind == .payload)
            #expect(error.payloadError?.path.description == "$.data")
        }
    }
}
