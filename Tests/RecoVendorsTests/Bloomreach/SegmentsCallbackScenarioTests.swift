import Foundation
import Testing
@testable import RecoVendors

/// The callback rules of Bloomreach's guide (and the two the official SDK misses), as a table of
/// scenarios played on a hand-driven clock.
@Suite("Bloomreach segments callbacks")
struct SegmentsCallbackScenarioTests {
    enum Step: Sendable {
        /// What Bloomreach answers from now on for a customer.
        case answer(String, [String: [String]])
        /// Registers a callback on `discovery`.
        case register(String, includeFirstLoad: Bool)
        case unregister(String)
        /// A reload request (an event was tracked).
        case trigger
        case identify(String)
        /// Moves the clock, then lets due reloads and callbacks finish.
        case wait(seconds: Int)
        /// The customers fetched so far.
        case expectFetches([String])
    }

    struct Scenario: Sendable, CustomTestStringConvertible {
        let name: String
        let steps: [Step]
        /// For each callback, the `discovery` segments it received, in order (nil: the category was absent).
        let expected: [String: [[String]?]]
        var testDescription: String { name }
    }

    static let scenarios: [Scenario] = [
        Scenario(
            name: "first load: includeFirstLoad notifies once although nothing changed",
            steps: [
                .answer("A", ["discovery": ["s/1"]]),
                .register("primer", includeFirstLoad: false), .wait(seconds: 5),
                .register("new", includeFirstLoad: true), .wait(seconds: 5),
                .trigger, .wait(seconds: 5),
                .expectFetches(["A", "A", "A"]),
            ],
            expected: ["primer": [["s/1"]], "new": [["s/1"]]]),
        Scenario(
            name: "first load without includeFirstLoad: nothing when nothing changed",
            steps: [
                .answer("A", ["discovery": ["s/1"]]),
                .register("primer", includeFirstLoad: false), .wait(seconds: 5),
                .register("new", includeFirstLoad: false), .wait(seconds: 5),
            ],
            expected: ["primer": [["s/1"]], "new": []]),
        Scenario(
            name: "unchanged: a new order and duplicates are no change",
            steps: [
                .answer("A", ["discovery": ["s/1", "s/2"]]),
                .register("cb", includeFirstLoad: false), .wait(seconds: 5),
                .answer("A", ["discovery": ["s/2", "s/1", "s/1"]]),
                .trigger, .wait(seconds: 5),
                .expectFetches(["A", "A"]),
            ],
            expected: ["cb": [["s/1", "s/2"]]]),
        Scenario(
            name: "changed: a different set notifies",
            steps: [
                .answer("A", ["discovery": ["s/1"]]),
                .register("cb", includeFirstLoad: false), .wait(seconds: 5),
                .answer("A", ["discovery": ["s/1", "t/3"]]),
                .trigger, .wait(seconds: 5),
            ],
            expected: ["cb": [["s/1"], ["s/1", "t/3"]]]),
        Scenario(
            name: "changed elsewhere: another category's change is not this callback's",
            steps: [
                .answer("A", ["discovery": ["s/1"], "content": []]),
                .register("cb", includeFirstLoad: false), .wait(seconds: 5),
                .answer("A", ["discovery": ["s/1"], "content": ["c/9"]]),
                .trigger, .wait(seconds: 5),
            ],
            expected: ["cb": [["s/1"]]]),
        Scenario(
            name: "appeared: a category that appears, even empty, is a change",
            steps: [
                .answer("A", ["content": ["c/1"]]),
                .register("cb", includeFirstLoad: false), .wait(seconds: 5),
                .answer("A", ["content": ["c/1"], "discovery": []]),
                .trigger, .wait(seconds: 5),
            ],
            expected: ["cb": [[]]]),
        Scenario(
            name: "disappeared: a category that disappears is a change",
            steps: [
                .answer("A", ["discovery": ["s/1"]]),
                .register("cb", includeFirstLoad: false), .wait(seconds: 5),
                .answer("A", ["content": []]),
                .trigger, .wait(seconds: 5),
            ],
            expected: ["cb": [["s/1"], nil]]),
        Scenario(
            name: "customer switched mid-debounce: the first customer is never fetched",
            steps: [
                .answer("A", ["discovery": ["a/1"]]), .answer("B", ["discovery": ["b/2"]]),
                .identify("A"),
                .register("cb", includeFirstLoad: false), .wait(seconds: 3),
                .identify("B"), .wait(seconds: 3),
                .expectFetches([]),
                .wait(seconds: 2),
                .expectFetches(["B"]),
            ],
            expected: ["cb": [["b/2"]]]),
        Scenario(
            name: "debounce is trailing: each request restarts the 5 s wait",
            steps: [
                .answer("A", ["discovery": ["s/1"]]),
                .register("cb", includeFirstLoad: false), .wait(seconds: 4),
                .trigger, .wait(seconds: 4),
                .trigger, .wait(seconds: 4),
                .expectFetches([]),
                .wait(seconds: 1),
                .expectFetches(["A"]),
            ],
            expected: ["cb": [["s/1"]]]),
        Scenario(
            name: "unregister: a removed callback hears nothing more",
            steps: [
                .answer("A", ["discovery": ["s/1"]]),
                .register("gone", includeFirstLoad: false), .register("stays", includeFirstLoad: false), .wait(seconds: 5),
                .unregister("gone"),
                .answer("A", ["discovery": ["s/2"]]),
                .trigger, .wait(seconds: 5),
            ],
            expected: ["gone": [["s/1"]], "stays": [["s/1"], ["s/2"]]]),
    ]

    @Test(arguments: scenarios)
    func scenario(_ scenario: Scenario) async throws {
        let clock = SegmentsTestClock()
        let fetcher = ScriptedFetcher()
        let realtime = RealtimeSegments(fetcher: fetcher, clock: clock, cookie: "A")
        let log = UpdateLog()
        var callbacks: [String: SegmentsCallback] = [:]
        for step in scenario.steps {
            switch step {
            case .answer(let cookie, let categories):
                await fetcher.answer(cookie, with: segmentsAnswerJSON(categories))
            case .register(let name, let includeFirstLoad):
                callbacks[name] = await realtime.register(category: .discovery, includeFirstLoad: includeFirstLoad) { update in
                    await log.record(name, update)
                }
            case .unregister(let name):
                await realtime.unregister(try #require(callbacks[name]))
            case .trigger:
                await realtime.requestReload()
            case .identify(let cookie):
                await realtime.identify(cookie: cookie)
            case .wait(let seconds):
                clock.advance(by: .seconds(seconds))
                await realtime.settled()
            case .expectFetches(let cookies):
                #expect(await fetcher.fetchedCookies == cookies, "fetches in \(scenario.name)")
            }
        }
        for (name, expected) in scenario.expected {
            let received = await log.received(by: name)
            #expect(received.map { $0.segments } == expected.map { $0.map(compactSegments) }, "\(name) in \(scenario.name)")
        }
    }

    @Test func firstLoadUpdatesSayWhichTheyAre() async {
        let clock = SegmentsTestClock()
        let fetcher = ScriptedFetcher(["A": segmentsAnswerJSON(["discovery": ["s/1"]])])
        let realtime = RealtimeSegments(fetcher: fetcher, clock: clock, cookie: "A")
        let log = UpdateLog()
        await realtime.register(category: .discovery, includeFirstLoad: true) { await log.record("cb", $0) }
        clock.advance(by: .seconds(5))
        await realtime.settled()
        await fetcher.answer("A", with: segmentsAnswerJSON(["discovery": ["s/2"]]))
        await realtime.requestReload()
        clock.advance(by: .seconds(5))
        await realtime.settled()
        let received = await log.received(by: "cb")
        #expect(received.map(\.isFirstLoad) == [true, false])
        #expect(received.map(\.cookie) == ["A", "A"])
        #expect(received.map(\.category) == [.discovery, .discovery])
    }

    @TaskLocal static var caller: String?

    @Test func callbacksRunOffTheCallersTask() async {
        let clock = SegmentsTestClock()
        let fetcher = ScriptedFetcher(["A": segmentsAnswerJSON(["discovery": ["s/1"]])])
        let realtime = RealtimeSegments(fetcher: fetcher, clock: clock, cookie: "A")
        let seen = UpdateLog()
        await Self.$caller.withValue("test task") {
            await realtime.register(category: .discovery, includeFirstLoad: true) { update in
                // A task-local of the registering task is visible only on that task or its children.
                await seen.record(Self.caller ?? "another task", update)
            }
            clock.advance(by: .seconds(5))
            await realtime.settled()
        }
        #expect(await seen.updates.map(\.name) == ["another task"])
    }

    @Test func anAnswerForAPreviousCustomerIsIgnored() async {
        let clock = SegmentsTestClock()
        let fetcher = GatedFetcher(answer: segmentsAnswerJSON(["discovery": ["s/1"]]))
        let realtime = RealtimeSegments(fetcher: fetcher, clock: clock, cookie: "A")
        let log = UpdateLog()
        await realtime.register(category: .discovery, includeFirstLoad: true) { await log.record("cb", $0) }
        clock.advance(by: .seconds(5))
        while await fetcher.waitingCount < 1 { await Task.yield() }
        await realtime.identify(cookie: "B")
        await fetcher.release()
        await realtime.settled()
        #expect(await log.updates.isEmpty)

        clock.advance(by: .seconds(5))
        while await fetcher.waitingCount < 1 { await Task.yield() }
        await fetcher.release()
        await realtime.settled()
        #expect(await fetcher.started == ["A", "B"])
        #expect(await log.received(by: "cb").map(\.cookie) == ["B"])
    }

    @Test func aFailedReloadNotifiesNobodyAndIsReported() async {
        let clock = SegmentsTestClock()
        let fetcher = ScriptedFetcher()
        await fetcher.fail("A", with: .httpStatus(503))
        let realtime = RealtimeSegments(fetcher: fetcher, clock: clock, cookie: "A")
        let log = UpdateLog()
        await realtime.register(category: .discovery, includeFirstLoad: true) { await log.record("cb", $0) }
        clock.advance(by: .seconds(5))
        await realtime.settled()
        #expect(await log.updates.isEmpty)
        #expect(await realtime.lastReloadError?.status == 503)

        // The first load is still owed and is delivered by the next successful reload.
        await fetcher.answer("A", with: segmentsAnswerJSON(["discovery": []]))
        await realtime.requestReload()
        clock.advance(by: .seconds(5))
        await realtime.settled()
        #expect(await log.received(by: "cb").map(\.isFirstLoad) == [true])
        #expect(await realtime.lastReloadError == nil)
    }

    @Test func nothingIsFetchedWithoutCallbacksOrCustomer() async {
        let clock = SegmentsTestClock()
        let fetcher = ScriptedFetcher(["A": "{}"])
        let anonymous = RealtimeSegments(fetcher: fetcher, clock: clock)
        await anonymous.register(category: .content, includeFirstLoad: true) { _ in }
        let nobodyListens = RealtimeSegments(fetcher: fetcher, clock: clock, cookie: "A")
        await nobodyListens.requestReload()
        clock.advance(by: .seconds(10))
        await anonymous.settled()
        await nobodyListens.settled()
        #expect(await fetcher.fetchedCookies.isEmpty)
    }
}
