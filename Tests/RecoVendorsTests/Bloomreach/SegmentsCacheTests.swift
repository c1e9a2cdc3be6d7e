import Foundation
import Testing
@testable import RecoVendors

@Suite("Bloomreach segments cache")
struct SegmentsCacheTests {
    let clock = SegmentsTestClock()
    let fetcher = ScriptedFetcher([
        "A": segmentsAnswerJSON(["discovery": ["a/1"]]),
        "B": segmentsAnswerJSON(["discovery": ["b/2"]]),
    ])

    @Test func servesFromTheCacheForFiveSeconds() async throws {
        let realtime = RealtimeSegments(fetcher: fetcher, clock: clock, cookie: "A")
        #expect(try await realtime.segments(in: .discovery) == compactSegments(["a/1"]))
        await fetcher.answer("A", with: segmentsAnswerJSON(["discovery": ["a/9"]]))
        clock.advance(by: .milliseconds(4_999))
        #expect(try await realtime.segments(in: .discovery) == compactSegments(["a/1"]), "still cached")
        #expect(await fetcher.fetchedCookies == ["A"])
        clock.advance(by: .milliseconds(1))
        #expect(try await realtime.segments(in: .discovery) == compactSegments(["a/9"]), "expired at 5 s")
        #expect(await fetcher.fetchedCookies == ["A", "A"])
    }

    @Test func forceBypassesTheCache() async throws {
        let realtime = RealtimeSegments(fetcher: fetcher, clock: clock, cookie: "A")
        _ = try await realtime.segments(in: .discovery)
        await fetcher.answer("A", with: segmentsAnswerJSON(["discovery": ["a/9"]]))
        #expect(try await realtime.segments(in: .discovery, force: true) == compactSegments(["a/9"]))
        #expect(try await realtime.segments(in: .discovery) == compactSegments(["a/9"]), "the forced answer is cached")
        #expect(await fetcher.fetchedCookies == ["A", "A"])
    }

    @Test func neverServesAnotherCustomersCache() async throws {
        let realtime = RealtimeSegments(fetcher: fetcher, clock: clock, cookie: "A")
        _ = try await realtime.segments(in: .discovery)
        await realtime.identify(cookie: "B")
        #expect(try await realtime.segments(in: .discovery) == compactSegments(["b/2"]))
        await realtime.identify(cookie: "A")
        #expect(try await realtime.segments(in: .discovery) == compactSegments(["a/1"]))
        #expect(await fetcher.fetchedCookies == ["A", "B", "A"])
    }

    @Test func anAbsentCategoryIsNil() async throws {
        let realtime = RealtimeSegments(fetcher: fetcher, clock: clock, cookie: "A")
        #expect(try await realtime.segments(in: .content) == nil)
    }

    @Test func withoutACustomerThereIsNothingToFetch() async {
        let realtime = RealtimeSegments(fetcher: fetcher, clock: clock)
        await #expect {
            try await realtime.segments(in: .discovery)
        } throws: { error in
            (error as? BloomreachError)?.parameter == "cookie"
        }
        #expect(await fetcher.fetchedCookies.isEmpty)
    }

    @Test func fetchFailuresReachTheCaller() async {
        await fetcher.fail("A", with: .httpStatus(502))
        let realtime = RealtimeSegments(fetcher: fetcher, clock: clock, cookie: "A")
        await #expect {
            try await realtime.segments(in: .discovery)
        } throws: { error in
            (error as? BloomreachError)?.status == 502
        }
    }

    @Test func reloadsRefreshTheCacheAndReportNotices() async throws {
        await fetcher.answer("A", with: #"{"discovery":[{"id":7,"segmentation_id":"s"}],"shop":[]}"#)
        let realtime = RealtimeSegments(fetcher: fetcher, clock: clock, cookie: "A")
        await realtime.register(category: .discovery, includeFirstLoad: true) { _ in }
        clock.advance(by: .seconds(5))
        await realtime.settled()
        #expect(try await realtime.segments(in: "shop") == [])
        #expect(await fetcher.fetchedCookies == ["A"], "the reload filled the cache")
        #expect(await realtime.lastNotices.map(\.path.description) == ["$.discovery[0].id", "$.shop"])
    }
}
