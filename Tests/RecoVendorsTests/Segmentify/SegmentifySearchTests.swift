import Foundation
import Testing
import RecoVendors

@Suite("Segmentify search")
struct SegmentifySearchTests {
    @Test func beforeSearchIsAWidgetWhoseClicksCarryBsProduct() throws {
        let result = try SegmentifySearch.decode(SamplePayload.data("segmentify-search-before.json"), language: "TR")
        #expect(result.phase == .beforeSearch)
        #expect(result.products.instanceId == "bs_product")
        #expect(result.products.interactionId == "BEFORE_SEARCH")
        #expect(result.products.title == "Popüler Ürünler")
        #expect(result.products.vendor == .segmentify)
        #expect(result.products.products.map(\.productId) == ["101", "120", "142", "128", "104", "131", "143", "150"])
        #expect(result.products.items.map(\.position) == Array(1...8))
        #expect(result.products.items[2].path.description == "$.search[0][0].products[2]")
        #expect(result.lastSearches == ["krampon", "koşu ayakkabısı", "tayt"])
        #expect(result.banners.count == 1)
        #expect(result.categoryProducts.isEmpty && result.brandProducts.isEmpty)
        #expect(result.raw["meta"]?["total"]?.intValue == 8)
        #expect(result.report.failures.isEmpty)
        #expect(result.recommendations.widget(instanceId: "bs_product")?.products.count == 8)
    }

    @Test func theCampaignCarriesDelaysCountsAndTextsByLanguage() throws {
        let campaign = try SegmentifySearch.decode(SamplePayload.data("segmentify-search-before.json")).campaign
        #expect(campaign.instanceId == "BEFORE_SEARCH")
        #expect(campaign.name == "Arama Öncesi")
        #expect(campaign.status == "ACTIVE")
        #expect(campaign.devices == ["PC", "MOBILE", "TABLET", "ANDROID", "IOS"])
        #expect(campaign.searchDelay == 250)
        #expect(campaign.minCharacterCount == 3)
        #expect(campaign.searchUrlPrefix == "/arama?q=")
        #expect(campaign.mobileItemCount == 6)
        #expect(campaign.texts(for: "EN")?.popularProductsText == "Popular Products")
        #expect(campaign.texts(for: "tr")?.mobileCancelText == "Vazgeç")
        #expect(campaign.texts(for: "TR")?.notFoundText == "Aramanızla eşleşen ürün bulunamadı.")
        #expect(campaign.texts(for: "TR")?["lastSearchesText"] == "Son Aramalarınız")
        #expect(campaign.texts(for: "FR") == nil)
        #expect(campaign.raw["desktopItemCount"]?.intValue == 8)
    }

    @Test func afterSearchIsAWidgetWhoseClicksCarryProduct() throws {
        let result = try SegmentifySearch.decode(SamplePayload.data("segmentify-search-after.json"), language: "EN")
        #expect(result.phase == .afterSearch)
        #expect(result.products.instanceId == "product")
        #expect(result.products.interactionId == "SEARCH")
        #expect(result.products.title == "")
        #expect(result.products.products.map(\.productId) == ["101", "102", "103", "134", "104", "105", "132", "100900", "109", "112"])
        #expect(result.notFoundText == "No products match your search.")
        #expect(result.categoryProducts.map(\.name) == ["Erkek > Ayakkabı > Krampon", "Çocuk > Ayakkabı > Krampon"])
        #expect(result.categoryProducts[0].items.map(\.product.productId) == ["101", "102", "103"])
        #expect(result.brandProducts.map(\.name) == ["Nike", "adidas"])
        #expect(result.brandProducts[1].items.map(\.position) == [1, 2])
        #expect(result.brandProducts[1].items[1].path.description == "$.search[0][0].brandProducts.adidas[1]")
        #expect(result.keywords?["krampon"]?.intValue == 42)
        #expect(result.brands?["Nike"]?.intValue == 9)
        #expect(result.categories?["Çocuk > Ayakkabı > Krampon"]?.intValue == 6)
    }

    @Test(arguments: [("BEFORE_SEARCH", "bs_product"), ("SEARCH", "product"), ("before_search", "bs_product")])
    func theClickInstanceIdFollowsTheCampaignIdentity(identity: String, clickId: String) throws {
        let json = try JSONValue(parsing: #"{"statusCode":"SUCCESS","search":[[{"products":[{"productId":"7"}],"campaign":{"instanceId":"\#(identity)"}}]]}"#)
        let result = try SegmentifySearch.decode(json)
        #expect(result.products.instanceId == clickId)
        #expect(result.phase.clickInstanceId == clickId)
    }

    @Test func anUnknownCampaignIdentityIsAnErrorNamingIt() throws {
        let json = try JSONValue(parsing: #"{"search":[[{"products":[],"campaign":{"instanceId":"fcs_1234"}}]]}"#)
        #expect {
            _ = try SegmentifySearch.decode(json)
        } throws: { error in
            guard let error = error as? PayloadError else { return false }
            return error.kind == .invalidValue && error.path.description == "$.search[0][0].campaign.instanceId" && error.message.contains("fcs_1234")
        }
    }

    @Test(arguments: [
        (#"{"statusCode":"SUCCESS","responses":[[]]}"#, "missingKey", "$"),
        (#"{"search":[]}"#, "invalidValue", "$.search"),
        (#"{"search":[[]]}"#, "invalidValue", "$.search[0]"),
        (#"{"search":{"products":[]}}"#, "typeMismatch", "$.search"),
        (#"{"search":[[{"products":[]}]]}"#, "missingKey", "$.search[0][0]"),
        (#"{"search":[[{"products":{},"campaign":{"instanceId":"SEARCH"}}]]}"#, "typeMismatch", "$.search[0][0].products"),
        (#"{"search":[[{"campaign":{"instanceId":7}}]]}"#, "typeMismatch", "$.search[0][0].campaign.instanceId"),
        (#"{"statusCode":"NO_ACCOUNT"}"#, "vendorError", "$.statusCode"),
    ])
    func malformedSearchRepliesAreTypedErrors(json: String, kind: String, path: String) {
        #expect {
            _ = try SegmentifySearch.decode(Data(json.utf8))
        } throws: { error in
            guard let error = error as? PayloadError else { return false }
            return error.kind.description == kind && error.path.description == path
        }
    }

    @Test func aBadSearchProductIsReportedAndTheRestShown() throws {
        let json = try JSONValue(parsing: #"{"search":[[{"products":[{"productId":"1"},{"name":"no id"},"junk",{"productId":"4"}],"campaign":{"instanceId":"SEARCH"}}]]}"#)
        let result = try SegmentifySearch.decode(json)
        #expect(result.products.products.map(\.productId) == ["1", "4"])
        #expect(result.products.items.map(\.position) == [1, 2])
        #expect(result.report.failures.map(\.index) == [1, 2])
        #expect(result.report.failures.map(\.path.description) == ["$.search[0][0].products[1]", "$.search[0][0].products[2]"])
        #expect(result.report.failures.allSatisfy { $0.instanceId == "product" })
    }

    @Test func groupsOfAnUnexpectedShapeAreReportedNotFatal() throws {
        let json = try JSONValue(parsing: #"{"search":[[{"products":[{"productId":"1"}],"campaign":{"instanceId":"SEARCH"},"categoryProducts":[{"productId":"2"}],"brandProducts":{"Nike":[{"productId":"3"}],"Puma":"none"},"futureKey":{"x":1}}]]}"#)
        let result = try SegmentifySearch.decode(json)
        #expect(result.products.products.map(\.productId) == ["1"])
        #expect(result.categoryProducts.isEmpty)
        #expect(result.brandProducts.map(\.name) == ["Nike"])
        #expect(result.report.notices(.unexpectedShape).map(\.path.description) == ["$.search[0][0].categoryProducts", "$.search[0][0].brandProducts.Puma"])
        #expect(result.raw["futureKey"]?["x"]?.intValue == 1)
    }
}
