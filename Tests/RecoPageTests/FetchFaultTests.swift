import Foundation
import Testing
import RecoKitTesting
import RecoPage

/// The fetch side of a page against a vendor on 127.0.0.1 that fails the way networks and servers do
/// (`FaultyVendor`: the connection closed before a reply or reset before the request is whole, a 503, a
/// reply cut short, a web page instead of JSON, no reply, a reply that trickles without end). Each costs
/// the page that vendor's blocks, never the page: the other vendor's blocks are there, the failure has
/// the kind a caller can act on (try later, look at the address, give up on this page) and words that
/// say what happened (and not the request's address, which holds the API key), and no fault holds the
/// page past its budget. An attempt during which the process's tasks waited long for a thread (other
/// tests computing) is run again: see `attemptKeptOnTime`.
@Suite("Recommendations client: a vendor that fails as networks do")
struct FetchFaultTests {
    /// The kind each fault must be reported as.
    static let expected: [FaultyVendor.Answer: NoWidgets.Kind] = [
        .closeBeforeReply: .network, .resetBeforeWholeRequest: .network, .unavailable: .httpStatus, .cutShort: .network,
        .webPage: .decodingFailed, .noReply: .outOfBudget, .endlessTrickle: .outOfBudget,
    ]

    @Test(arguments: FaultyVendor.Answer.faults)
    func aFaultCostsThePageOnlyThatVendorsBlocks(_ fault: FaultyVendor.Answer) async throws {
        let segmentify = try FaultyVendor(seed: 1, successPercent: 0, faults: [fault])
        defer { segmentify.stop() }
        let reteno = try FaultyVendor(seed: 2, successPercent: 100, reply: Fixtures.retenoReply(prefix: "r"))
        defer { reteno.stop() }
        let requests = [RecommendationsRequest.segmentify(try Fixtures.segmentify(segmentify.baseURL)),
                        RecommendationsRequest.reteno(try Fixtures.reteno(reteno.baseURL), title: "Similar")]
        let budget = Duration.seconds(2)
        // The budget is kept by a timer on the cooperative threads, which CPU-bound tests beside this one
        // can hold for seconds: the other vendor's reply is then in, and the timer runs first.
        let page = await attemptKeptOnTime(allowedWait: budget / 4, label: "FetchFaultTests: \(fault)") {
            await RecommendationsClient().widgets(for: requests, as: Product.self, budget: budget)
        }
        #expect(page.map(\.vendor) == [.segmentify, .reteno])
        #expect(page[0].widgets.isEmpty)
        let failure = try #require(page[0].failure, "\(fault): no failure reported")
        #expect(failure.kind == Self.expected[fault], "\(fault): \(failure.kind): \(failure)")
        // Words, not a dump of Foundation's user info, which held the address and the API key in it:
        // `unreachable: Error Domain=NSURLErrorDomain Code=-1005 "(null)"UserInfo={…?apiKey=test-key…`.
        for dump in ["Error Domain", "(null)", "UserInfo", "apiKey", "test-key", "error 1.)"] {
            #expect(!"\(failure)".contains(dump), "\(fault): \(failure)")
        }
        print("FetchFaultTests: \(fault) → \(failure.kind): \(failure)")
        #expect(page[1].failure == nil, "\(fault): the other vendor's blocks went too: \(page[1].failure.map { "\($0)" } ?? "")")
        #expect(page.allWidgets().flatMap { $0.items.map(\.product.productId) } == ["r-1", "r-2", "r-3"])
    }

    /// The same vendor answering well, for contrast: its reply is decoded into blocks.
    @Test func aVendorThatAnswersWellGivesItsBlocks() async throws {
        let vendor = try FaultyVendor(seed: 3, successPercent: 100, reply: Fixtures.payload("segmentify-product-page"))
        defer { vendor.stop() }
        let page = await RecommendationsClient().widgets(for: [.segmentify(try Fixtures.segmentify(vendor.baseURL))], as: Product.self,
                                                         budget: Fixtures.patience)
        #expect(page[0].failure == nil)
        #expect(!page[0].widgets.isEmpty)
    }
}
