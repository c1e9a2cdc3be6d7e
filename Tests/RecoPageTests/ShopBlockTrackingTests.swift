import Foundation
import Testing
import RecoPage
import RecoTemplates
import RecoKitTesting

/// A block the shop filled from its own list is never tracked to a vendor as the vendor's: every
/// interaction built from it, however it travels (a builder, a page's impressions, ids read back from
/// the rendered HTML), is refused by Segmentify's and Reteno's destinations, and taken by one of the
/// shop's own.
@Suite("The shop's blocks are not a vendor's")
struct ShopBlockTrackingTests {
    static let context = InteractionContext(userId: "u-1", sessionId: "s-1")

    /// A destination of the shop's own: it takes every interaction, and posts each event's id and block as
    /// JSON to the shop's own events address.
    struct ShopDestination: TrackingDestination {
        var events: URL
        var name: String { "shop" }
        var limits: DestinationLimits { DestinationLimits(maxEvents: 10, maxBytes: 1 << 20) }
        func validate(_ interaction: Interaction) throws(InteractionError) {}
        func validate(_ page: PageImpressions) throws(InteractionError) {}
        func request(for records: [EventRecord]) -> VendorRequest {
            let items = records.map { ["eventId": $0.id.description, "instanceId": $0.string(.instanceId) ?? ""] }
            let body = (try? JSONSerialization.data(withJSONObject: items)) ?? Data()
            return VendorRequest(url: events, headers: [("Content-Type", "application/json")], body: body)
        }
    }

    static let vendors: [any TrackingDestination] = [
        SegmentifyDestination(dataCenter: URL(string: "http://127.0.0.1:9")!, apiKey: "k", origin: "shop.example"),
        RetenoDestination(base: URL(string: "http://127.0.0.1:9")!, accessKey: "k"),
    ]

    /// The shop's block as a page shows it: the list decoded into the page's model.
    static func shopWidget(name: String = "best-sellers") throws -> Widget<Product> {
        let list = ShopList(name: name, title: "Best", products: [try RawProduct(fields: ["productId": "p-1", "name": "One"]),
                                                                  try RawProduct(fields: ["productId": "p-2", "name": "Two"])])
        return try #require(Recommendations(widgets: [list.widget]).decoded(as: Product.self).widgets.first)
    }

    /// Every interaction a page builds from a widget.
    static func interactions(of widget: Widget<Product>) throws -> [Interaction] {
        [.impression(of: widget, context: context), .widgetView(of: widget, context: context),
         try .click(productId: "p-2", in: widget, context: context)] + Interaction.productImpressions(of: widget, context: context)
    }

    @Test func everyInteractionOfAShopsBlockIsRefusedByEveryVendorsDestination() throws {
        let widget = try Self.shopWidget()
        #expect(widget.vendor == .shop && widget.isShopBlock && widget.instanceId == "shop:best-sellers")
        for destination in Self.vendors {
            for interaction in try Self.interactions(of: widget) {
                #expect(throws: InteractionError.self) { try destination.validate(interaction) }
                do { try destination.validate(interaction) } catch {
                    #expect(error.kind == .shopBlock, "\(destination.name) \(interaction.kind): \(error)")
                }
            }
        }
        // The control: a vendor's block with the same products passes where the vendor takes its kind.
        var vendors = widget
        vendors.vendor = .reteno
        vendors.instanceId = "r1105v1480"
        vendors.interactionId = "r1105v1480"
        #expect(!vendors.isShopBlock)
        for destination in Self.vendors {
            try destination.validate(try Interaction.click(productId: "p-2", in: vendors, context: Self.context))
        }
    }

    @Test func aPageOfImpressionsWithAShopsBlockIsRefusedNamingIt() throws {
        let shop = try Self.shopWidget()
        var vendors = shop
        (vendors.vendor, vendors.instanceId, vendors.interactionId) = (.segmentify, "hp_1", "act-1")
        for destination in Self.vendors {
            var page = PageImpressions(context: Self.context)
            page.addProducts(of: vendors)
            try destination.validate(page)
            page.addBlock(shop)
            page.addProducts(of: shop)
            #expect(throws: InteractionError.self) { try destination.validate(page) }
            do { try destination.validate(page) } catch {
                #expect(error.kind == .shopBlock)
                #expect(error.message.hasPrefix("impression 2 of the page (instanceId \"shop:best-sellers\")"), "\(error)")
            }
        }
    }

    /// Through running trackers against servers on 127.0.0.1: the vendor's tracker refuses every
    /// interaction about the shop's block (counted as invalid, nothing stored, no request made), and a
    /// tracker of the shop's own delivers the same interactions to the shop's own address.
    @Test func aVendorsTrackerRefusesTheShopsBlockAndTheShopsOwnDeliversIt() async throws {
        let widget = try Self.shopWidget()
        let vendorServer = try FaultyVendor(seed: 1, successPercent: 100)
        defer { vendorServer.stop() }
        let shopServer = try FaultyVendor(seed: 2, successPercent: 100)
        defer { shopServer.stop() }
        // Quick retries: a reply that closes its connection (FaultyVendor's successThenClose) can fail
        // the next request sent on it, which is then sent again.
        var configuration = TrackerConfiguration()
        configuration.flushInterval = .milliseconds(10)
        configuration.retryPolicy = RetryPolicy(initialDelay: .milliseconds(5), maximumDelay: .milliseconds(50),
                                                configurationDelay: .milliseconds(50))
        let vendor = Tracker(destination: SegmentifyDestination(dataCenter: vendorServer.baseURL, apiKey: "k", origin: "shop.example"),
                             store: JournalStore.memory(), configuration: configuration)
        let shop = Tracker(destination: ShopDestination(events: shopServer.baseURL.appendingPathComponent("events")),
                           store: JournalStore.memory(), configuration: configuration)
        let interactions = try Self.interactions(of: widget)
        var page = PageImpressions(context: Self.context)
        page.addBlock(widget)
        page.addProducts(of: widget)
        var shopIds: [String] = []
        try await whileRunning(vendor) {
            try await whileRunning(shop) {
                for interaction in interactions {
                    do {
                        try vendor.track(interaction)
                        Issue.record("segmentify's tracker took \(interaction.kind) of the shop's block")
                    } catch let error as TrackingError {
                        #expect(error.kind == .invalid && error.interactionError?.kind == .shopBlock, "\(interaction.kind): \(error)")
                    }
                    shopIds.append(try shop.track(interaction).description)
                }
                do {
                    try vendor.track(page)
                    Issue.record("segmentify's tracker took a page of the shop's block")
                } catch let error as TrackingError {
                    #expect(error.interactionError?.kind == .shopBlock, "\(error)")
                }
                shopIds += try shop.track(page).map(\.description)
                try await shop.flush()
                try await vendor.flush()
                #expect(await shop.waitUntilIdle(timeout: Fixtures.patience))
                #expect(await vendor.waitUntilIdle(timeout: Fixtures.patience))
            }
        }
        let refused = vendor.statistics
        #expect(refused.accepted == 0 && refused.pending == 0)
        #expect(refused.refusedInvalid == interactions.count + page.impressions.count)
        #expect(vendorServer.answers.isEmpty, "the vendor was sent \(vendorServer.answersInWords)")
        #expect(shopIds.count == interactions.count + page.impressions.count)
        #expect(shopServer.unconfirmed(shopIds).isEmpty, "\(shopServer.answersInWords)")
        #expect(shop.statistics.accepted == shopIds.count)
    }

    /// The ids a page's script reads back from the rendered block (a widget-view beacon, say) carry the
    /// shop's mark: an interaction rebuilt from them by hand is refused too.
    @Test func theIdsReadBackFromTheRenderedBlockAreRefused() throws {
        let html = try WidgetRenderer().render([try Self.shopWidget()], template: "carousel")
        #expect(html.contains(#"data-reco-vendor="shop""#))
        let attribute = #"data-reco-instance-id=""#
        let start = try #require(html.range(of: attribute)).upperBound
        let id = String(html[start...].prefix { $0 != "\"" })
        let view = Interaction(kind: .widgetView, instanceId: id, interactionId: id, context: Self.context)
        for destination in Self.vendors where destination.name == "segmentify" {
            #expect(throws: InteractionError.self) { try destination.validate(view) }
        }
    }

    /// Whatever the list's name (colons, spaces, any script, empty), its block's ids keep the mark.
    @Test func anyListsNameKeepsTheMark() throws {
        let seed = ProcessInfo.processInfo.environment["RECOKIT_SHOP_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 0...UInt64.max)
        print("ShopBlockTrackingTests.anyListsNameKeepsTheMark seed: \(seed) (RECOKIT_SHOP_SEED to replay)")
        var random = SeededRandom(seed: seed)
        let alphabet = Array("ab:_- /çğ日本🙂\"<>&") + ["\u{0}", "\u{301}"]
        for _ in 0..<200 {
            let name = String((0..<Int.random(in: 0...12, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
            let widget = try Self.shopWidget(name: name)
            #expect(widget.isShopBlock, "seed \(seed), name \(name.debugDescription)")
            for destination in Self.vendors {
                #expect(throws: InteractionError.self, "seed \(seed), name \(name.debugDescription)") {
                    try destination.validate(Interaction.impression(of: widget, context: Self.context))
                }
            }
        }
    }
}
