import Foundation
import RecoDestinations
import RecoKit
import RecoKitTesting
import RecoTracking
import RecoVendors
import Testing

/// A transport that records every request and answers from a fixed reply.
final class RecordingTransport: Transport, @unchecked Sendable {
    private let lock = NSLock()
    private var sent: [VendorRequest] = []
    let reply: VendorReply

    init(status: Int = 200, body: String = #"{"statusCode":"SUCCESS"}"#) { reply = VendorReply(status: status, body: Data(body.utf8)) }

    var requests: [VendorRequest] { lock.withLock { sent } }

    func send(_ request: VendorRequest, timeout: Duration) async throws -> VendorReply {
        lock.withLock { sent.append(request) }
        return reply
    }
}

@Suite("Segmentify events and interactions delivered together")
struct MixedBatchDeliveryTests {
    let destination = SegmentifyDestination(dataCenter: URL(string: "https://gandalf.segmentify.com")!,
                                            apiKey: "8157d334-f8c4-4c09-9a2e-1b7b1d1e6b0a", origin: "segmentify-shop.myshopify.com")
    let common = EventFixtures.common
    let occurred = Date(timeIntervalSince1970: 1_714_566_896)

    func tracker(_ directory: URL?, transport: any Transport, destination: (any TrackingDestination)? = nil) throws -> Tracker {
        var configuration = TrackerConfiguration()
        configuration.flushInterval = .seconds(3600) // only flush() or the drain sends
        configuration.maxConcurrentRequests = 1
        configuration.drainDeadline = .milliseconds(200)
        let store = try directory.map { try JournalStore(directory: $0, durability: .strict) } ?? JournalStore.memory()
        return Tracker(destination: destination ?? self.destination, store: store, configuration: configuration, transport: transport)
    }

    /// A widget of the product page's reply, as shown to the visitor.
    func widget() -> Widget<RawProduct> {
        let products = ["25800400265", "25799809929"].enumerated().map { index, id -> (RawProduct, JSONPath) in
            (try! RawProduct(fields: ["productId": .string(id), "name": .string("Product \(id)")]), JSONPath.root.appending(index: index))
        }
        return Widget(vendor: .segmentify, instanceId: "scn_6186a632e0d76001", interactionId: "act_6185c1e624ab0000",
                      title: "You May Also Like", rawProducts: products)
    }

    func waitUntilDelivered(_ tracker: Tracker) async {
        await tracker.waitUntilIdle(timeout: .seconds(30))
    }

    @Test func oneBatchHoldsPageViewProductViewInteractionsAndACheckoutInOrder() async throws {
        let transport = RecordingTransport()
        let tracker = try self.tracker(nil, transport: transport)
        let widget = widget()
        try await whileRunning(tracker) {
        try tracker.track(SegmentifyPageView(category: .productPage, subCategory: "Womenswear", common: common), occurred: occurred)
        try tracker.track(EventFixtures.dress(), occurred: occurred)
        try tracker.track(Interaction.widgetView(of: widget, context: common.context, occurred: occurred))
        try tracker.track(Interaction.click(productId: "25799809929", in: widget, context: common.context, occurred: occurred))
        try tracker.track(SegmentifyBasketOperation(step: .add, productId: "25799809929", price: 78, quantity: 1, common: common))
        try tracker.track(SegmentifyCheckout(step: .purchase, totalPrice: 78,
                                                   products: [SegmentifyBasketProduct(productId: "25799809929", price: 78, quantity: 1)],
                                                   orderNo: "12313", common: common))
        try await tracker.flush()
        await waitUntilDelivered(tracker)
        }
        #expect(tracker.statistics.delivered == 6 && tracker.statistics.pending == 0 && tracker.statistics.deadLettered == 0)

        #expect(transport.requests.count == 1)
        let request = try #require(transport.requests.first)
        #expect(request.url.absoluteString == "https://gandalf.segmentify.com/add/events/v1.json?apiKey=8157d334-f8c4-4c09-9a2e-1b7b1d1e6b0a")
        let batch = try #require(try JSONValue(parsing: request.body).arrayValue)
        #expect(batch.map { $0["name"]?.stringValue ?? "" }
                == ["PAGE_VIEW", "PRODUCT_VIEW", "INTERACTION", "INTERACTION", "BASKET_OPERATIONS", "CHECKOUT"])
        #expect(batch.map { $0["type"]?.stringValue ?? "" } == ["", "", "widget-view", "click", "", ""])
        // Each event is whole and carries only its own fields plus the common ones and the tracker's id.
        #expect(batch[0]["category"]?.stringValue == "Product Page" && batch[0]["productId"] == nil)
        var dress = try EventFixtures.dress().json().objectValue!
        let sentDress = batch[1].objectValue!
        #expect(sentDress["params"]?["eventId"]?.stringValue != nil)
        dress["params"] = sentDress["params"]
        #expect(JSONValue.object(dress) == batch[1])
        #expect(batch[3]["interactionId"]?.stringValue == "25799809929")
        #expect(batch[5]["orderNo"]?.stringValue == "12313")
        #expect(batch.allSatisfy { $0["userId"]?.stringValue == "-897541074991628287" })
        let ids = batch.compactMap { $0["params"]?["eventId"]?.stringValue }
        #expect(Set(ids).count == 6)
    }

    @Test func journaledEventsSurviveARestartWhole() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("recokit-segmentify-events-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var signUp = SegmentifyUserOperation(step: .signUp, username: "johndoe",
                                             profile: SegmentifyUserProfile(email: "john.doe@exampleshop.com", birthdate: "23.01.1980"),
                                             common: common)
        signUp.common.appVersion = "7.2.1"
        let first = try tracker(directory, transport: RecordingTransport(status: 503))
        try await whileRunning(first) {
            try first.track(signUp, occurred: occurred)
            try first.track(SegmentifyCustomEvent(type: "price_filter", params: ["PRICE": "200-500"], common: common), occurred: occurred)
        }
        #expect(first.statistics.pending == 2)

        let transport = RecordingTransport()
        let second = try tracker(directory, transport: transport)
        #expect((second.store as? JournalStore)?.recoveryReport.pendingEvents == 2)
        try await whileRunning(second) {
            try await second.flush()
            await waitUntilDelivered(second)
        }
        let batch = try transport.requests.flatMap { try JSONValue(parsing: $0.body).arrayValue ?? [] }
        #expect(batch.count == 2)
        var expected = try signUp.json().objectValue!
        expected["params"] = batch.first?["params"]
        #expect(batch.first == .object(expected))
        #expect(batch.last?["params"]?["PRICE"]?.stringValue == "200-500")
    }

    @Test func theTrackerRefusesBadEventsAndOtherVendorsEvents() async throws {
        let transport = RecordingTransport()
        let tracker = try self.tracker(nil, transport: transport)
        #expect(throws: SegmentifyEventError.self) {
            try tracker.track(SegmentifyBasketOperation(step: .add, productId: "", common: self.common))
        }
        let foreign = Interaction.vendorEvent(VendorEvent(vendor: .connectif, name: "purchase"), context: common.context)
        #expect(throws: TrackingError.self) { try tracker.track(foreign) }
        #expect(tracker.statistics.refusedInvalid == 1)

        let reteno = try self.tracker(nil, transport: transport, destination: RetenoDestination(accessKey: "k"))
        #expect(throws: TrackingError.self) {
            try reteno.track(SegmentifyPageView(category: .homePage, common: self.common))
        }
        #expect(transport.requests.isEmpty)
    }
}
