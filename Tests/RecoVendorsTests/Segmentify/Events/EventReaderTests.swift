@testable import RecoDestinations
import Foundation
import Testing
import RecoKit
import RecoTracking
import RecoVendors

@Suite("Reading Segmentify event objects as apps send them")
struct EventReaderTests {
    let ids = #""userId":"-897541074991628287","sessionId":"-2066154474596835328""#

    func read(_ text: String) throws(SegmentifyEventError) -> any SegmentifyEvent {
        try SegmentifyEventReader.event(from: EventFixtures.json(text))
    }

    func refusal(_ text: String) -> String {
        do { _ = try SegmentifyEventReader.interaction(from: EventFixtures.json(text)); return "accepted" } catch { return error.description }
    }

    @Test func everySampleReadsBackToTheSameBody() throws {
        for name in ["segmentify-page-view.json", "segmentify-product-view.json", "segmentify-checkout-purchase.json",
                     "segmentify-mixed-batch.json"] {
            let url = SamplePayload.packageRoot.appendingPathComponent("Samples/Events/\(name)")
            let sample = try JSONValue(parsing: Data(contentsOf: url))
            let events = try (sample.arrayValue ?? []).enumerated().map { index, object in
                TrackedEvent(id: EventID(run: 1, sequence: UInt64(index + 1)), interaction: try SegmentifyEventReader.interaction(from: object))
            }
            #expect(events.count == sample.arrayValue?.count)
            #expect(try JSONValue(parsing: SegmentifyEventEncoder.body(records: events.map(EventRecord.init), includeEventIds: false)) == sample, "\(name)")
        }
    }

    @Test func theGuidesStringNumbersAndFlagsAreRead() throws {
        // The guide's checkout examples send prices and quantities as strings.
        let checkout = try read(#"{"name":"CHECKOUT","step":"basket","totalPrice":78,"productList":[{"price":"78","productId":"25799809929","quantity":"1"}],\#(ids)}"#)
        let basket = try #require(checkout as? SegmentifyCheckout)
        #expect(basket.products == [SegmentifyBasketProduct(productId: "25799809929", price: 78, quantity: 1)])
        let view = try #require(try read(#"{"name":"PRODUCT_VIEW","productId":25799860937,"title":"Dress","url":"https://shop.example/d","image":"//cdn.shop.example/d.jpg","category":"Womenswear","price":"349.99","inStock":"false","testMode":"true",\#(ids)}"#) as? SegmentifyProductView)
        #expect(view.productId == "25799860937")
        #expect(view.price == Decimal(string: "349.99")!)
        #expect(view.inStock == false)
        #expect(view.common.testMode == true)
        let user = try #require(try read(#"{"name":"USER_OPERATIONS","step":"update","username":"johndoe","age":"27",\#(ids)}"#) as? SegmentifyUserOperation)
        #expect(user.profile.age == 27)
        let change = try #require(try read(#"{"name":"USER_CHANGE","userId":"CRM_1048576","oldUserId":"-897541074991628287","sessionId":"S1"}"#) as? SegmentifyUserChange)
        #expect(change.newUserId == "CRM_1048576" && change.common.userId == "-897541074991628287")
    }

    @Test func refusalsNameTheFieldAndShowTheValue() {
        let product = #""name":"PRODUCT_VIEW","productId":"1","title":"Dress","url":"https://shop.example/d","image":"//cdn.shop.example/d.jpg","category":"Womenswear""#
        #expect(refusal("{\(product),\"price\":\"abc\",\(ids)}") == #"productView.price: must be a number ≥ 0, got "abc""#)
        #expect(refusal("{\(product),\"price\":-1,\(ids)}") == "productView.price: must be a number ≥ 0, got -1")
        #expect(refusal("{\(product),\(ids)}") == "productView.price: is mandatory and was not given")
        #expect(refusal("{\(product),\"price\":5,\"sessionId\":\"S1\"}") == "productView.userId: is mandatory and was not given")
        #expect(refusal("{\(product),\"price\":5,\"colour\":\"black\",\(ids)}")
                == "productView.colour: is not a field of this event in Segmentify's guide")
        #expect(refusal("{\(product),\"price\":5,\"gender\":\"X\",\(ids)}") == #"productView.gender: must be one of "M", "F", "U", got "X""#)
        #expect(refusal("{\(product),\"price\":5,\"sizes\":[\"S\",2],\(ids)}") == "productView.sizes[1]: must be a string, got 2")
        #expect(refusal(#"{"name":"BASKET_OPERATIONS","step":"empty","productId":"1",\#(ids)}"#)
                == #"basketOperation.step: must be one of "add", "remove", got "empty""#)
        #expect(refusal(#"{"name":"CHECKOUT","step":"purchase","totalPrice":78,"productList":[{"productId":"1","qty":"1"}],\#(ids)}"#)
                == "checkout.products[0].qty: is not a field of this event in Segmentify's guide")
        #expect(refusal(#"{"name":"USER_OPERATIONS","step":"update","username":"johndoe","age":"twenty",\#(ids)}"#)
                == #"userOperation.age: must be a number of years, got "twenty""#)
        #expect(refusal(#"{"name":"PAGEVIEW",\#(ids)}"#).hasPrefix(#"event.name: must be one of PAGE_VIEW, PRODUCT_VIEW"#))
        #expect(refusal(#"{"category":"Home Page",\#(ids)}"#) == "event.name: is mandatory and was not given")
        #expect(refusal(#"{"name":"INTERACTION","type":"hover","instanceId":"scn_1","interactionId":"act_1",\#(ids)}"#)
                .hasPrefix("interaction.type: must be one of"))
        #expect(refusal(#"{"name":"INTERACTION","type":"click","instanceId":"scn_1","interactionId":"1","userId":"U"}"#)
                == "interaction.sessionId: is mandatory and was not given")
    }

    @Test func interactionObjectsBecomeTheInteractionsTheEncoderWrites() throws {
        func interaction(_ text: String) throws -> Interaction { try SegmentifyEventReader.interaction(from: EventFixtures.json(text)) }
        let before = try interaction(#"{"name":"INTERACTION","type":"click","instanceId":"bs_product","interactionId":"123456789",\#(ids)}"#)
        #expect(before.kind == .searchClick && before.searchPhase == .beforeSearch && before.productId == "123456789")
        let after = try interaction(#"{"name":"INTERACTION","type":"click","instanceId":"product","interactionId":"123456789",\#(ids)}"#)
        #expect(after.searchPhase == .search)
        let faceted = try interaction(#"{"name":"INTERACTION","type":"click","instanceId":"fcs_12","interactionId":"240-LV09|product",\#(ids)}"#)
        #expect(faceted.productId == "240-LV09")
        let body = SegmentifyEventEncoder.body(records: [EventRecord(TrackedEvent(id: EventID(run: 1, sequence: 1), interaction: faceted))],
                                               includeEventIds: false)
        #expect(try JSONValue(parsing: body).arrayValue?.first?["interactionId"]?.stringValue == "240-LV09|product")
        let view = try interaction(#"{"name":"INTERACTION","type":"widget-view","instanceId":"scn_6186a632e0d76001","interactionId":"act_6185c1e624ab0000",\#(ids)}"#)
        #expect(view.kind == .widgetView && view.interactionId == "act_6185c1e624ab0000")
    }
}
