import Foundation
import Testing
import RecoKitTesting
import RecoTracking
import RecoVendors

/// Bloomreach and 8digits send through the toolkit's one HTTP client, RecoTracking's `Transport`.
@Suite("Vendor requests over the shared transport")
struct HTTPSendersTests {
    @Test func aSegmentsFetchSendsTheDescribedRequestAndDecodesTheAnswer() async throws {
        let transport = RecordingTransport(body: #"{"discovery":[{"id":"a1","segmentation_id":"s1"}],"merchandising":[],"content":[]}"#)
        let fetcher = HTTPSegmentsFetcher(base: URL(string: "https://api.exponea.com")!, projectToken: "p t", transport: transport)
        let decoded = try await fetcher.fetchSegments(cookie: "c/1")
        #expect(decoded.segments.segments(in: SegmentCategory.discovery) == [Segment(id: "a1", segmentationId: "s1")])
        let request = try #require(transport.requests.first)
        #expect(request.method == "GET")
        #expect(request.url.absoluteString == "https://api.exponea.com/webxp/projects/p%20t/segments?cookie=c%2F1")
        #expect(request.headers.map { $0.name } == ["Accept"])
        #expect(request.body.isEmpty)
    }

    @Test func aSegmentsFetchAnsweredWithAnErrorStatusSaysSo() async {
        let fetcher = HTTPSegmentsFetcher(base: URL(string: "https://api.exponea.com")!, projectToken: "p", transport: RecordingTransport(status: 503))
        await #expect(throws: BloomreachError.httpStatus(503)) { try await fetcher.fetchSegments(cookie: "c") }
    }

    @Test func anEightDigitsRequestGoesAsAFormAndErrorStatusesAreTransportErrors() async throws {
        let api = try EightDigitsAPI(urlPrefix: URL(string: "https://api.8digits.example")!, trackingCode: "TC")
        let request = try api.auth(username: "shop user", password: "p&ss")
        let ok = RecordingTransport(body: #"{"result":{"code":0},"data":{"authToken":"t"}}"#)
        let body = try await HTTPEightDigitsTransport(transport: ok).send(request)
        #expect(try EightDigitsReply.authToken(body) == "t")
        let sent = try #require(ok.requests.first)
        #expect(sent.method == request.method && sent.url == request.url)
        #expect(sent.body == request.body)
        #expect(sent.headers.first { $0.name == "Content-Type" }?.value == request.contentType)

        let failing = HTTPEightDigitsTransport(transport: RecordingTransport(status: 502))
        await #expect(throws: EightDigitsError.transport("HTTP 502")) { try await failing.send(request) }
        // A 200 that is a web page (a wrong address) is no answer either.
        let page = HTTPEightDigitsTransport(transport: RecordingTransport(body: "<html><body>Sign in to continue</body></html>"))
        await #expect(throws: EightDigitsError.transport("HTTP 200: the address answered with a web page, not 8digits' API (is it the right address?)")) {
            try await page.send(request)
        }
    }

    /// A connection that fails (closed, reset, cut short) is said in words, not as a dump of Foundation's
    /// user info, which held the request's address: Bloomreach's project token and the visitor's cookie
    /// in it (`transport("Error Domain=NSURLErrorDomain Code=-1005 \"(null)\"UserInfo={…segments?cookie=…`).
    @Test(arguments: [FaultyVendor.Answer.closeBeforeReply, .resetBeforeWholeRequest, .cutShort])
    func aFailedConnectionIsSaidInWords(_ fault: FaultyVendor.Answer) async throws {
        let vendor = try FaultyVendor(seed: 1, successPercent: 0, faults: [fault])
        defer { vendor.stop() }
        let fetcher = HTTPSegmentsFetcher(base: vendor.baseURL, projectToken: "secret-project", transport: URLSessionTransport())
        let segments = await #expect(throws: BloomreachError.self) { try await fetcher.fetchSegments(cookie: "visitor-cookie") }
        let api = try EightDigitsAPI(urlPrefix: vendor.baseURL, trackingCode: "secret-code")
        let eightDigits = await #expect(throws: EightDigitsError.self) {
            try await HTTPEightDigitsTransport(transport: URLSessionTransport()).send(try api.auth(username: "u", password: "p"))
        }
        for said in [segments.map { "\($0)" } ?? "", eightDigits.map { "\($0)" } ?? ""] {
            #expect(!said.isEmpty)
            for dump in ["Error Domain", "UserInfo", "(null)", "secret-project", "visitor-cookie", "secret-code"] {
                #expect(!said.contains(dump), "\(fault): \(said)")
            }
        }
    }
}
