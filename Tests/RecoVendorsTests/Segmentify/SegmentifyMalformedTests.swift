import Foundation
import Testing
import RecoVendors
import RecoKitTesting

/// What went wrong and where, for comparing errors in tables.
private func describe(_ error: any Error) -> String {
    guard let error = error as? PayloadError else { return "not a PayloadError: \(error)" }
    return "\(error.kind) at \(error.path)"
}

private func decodeError(_ json: String) -> PayloadError? {
    do {
        _ = try SegmentifyRecommendations.decode(Data(json.utf8))
        return nil
    } catch {
        return error
    }
}

@Suite("Segmentify malformed replies")
struct SegmentifyMalformedTests {
    @Test(arguments: [
        (#"[]"#, "typeMismatch at $"),
        (#"{"statusCode":"SUCCESS"}"#, "missingKey at $"),
        (#"{"responses":{"0":[]}}"#, "typeMismatch at $.responses"),
        (#"{"responses":[[],{"type":"recommendProducts"}]}"#, "typeMismatch at $.responses[1]"),
        (#"{"statusCode":7,"responses":[]}"#, "typeMismatch at $.statusCode"),
    ])
    func aMalformedEnvelopeIsATypedErrorWithItsPath(json: String, expected: String) {
        let error = decodeError(json)
        #expect(error.map(describe) == expected)
    }

    /// A malformed block costs the reply nothing else: it is skipped, and the notice carries the typed
    /// error with its path.
    @Test(arguments: [
        (#"{"responses":[["recommendProducts"]]}"#, "typeMismatch at $.responses[0][0]"),
        (#"{"responses":[[{"type":"recommendProducts"}]]}"#, "missingKey at $.responses[0][0]"),
        (#"{"responses":[[{"type":"recommendProducts","params":[]}]]}"#, "typeMismatch at $.responses[0][0].params"),
        (#"{"responses":[[{"type":"recommendProducts","params":{"actionId":"a"}}]]}"#, "missingKey at $.responses[0][0].params"),
        (#"{"responses":[[{"type":"recommendProducts","params":{"instanceId":"i"}}]]}"#, "missingKey at $.responses[0][0].params"),
        (#"{"responses":[[{"type":"recommendProducts","params":{"instanceId":["i"],"actionId":"a"}}]]}"#, "typeMismatch at $.responses[0][0].params.instanceId"),
        (#"{"responses":[[{"type":"recommendProducts","params":{"instanceId":"","actionId":"a"}}]]}"#, "invalidValue at $.responses[0][0].params.instanceId"),
        (#"{"responses":[[{"type":"recommendProducts","params":{"instanceId":"i","actionId":"a","notificationTitle":5}}]]}"#, "typeMismatch at $.responses[0][0].params.notificationTitle"),
        (#"{"responses":[[{"type":"recommendProducts","params":{"instanceId":"i","actionId":"a","elimination":true}}]]}"#, "typeMismatch at $.responses[0][0].params.elimination"),
        (#"{"responses":[[{"type":"recommendProducts","params":{"instanceId":"i","actionId":"a","recommendedProducts":"none"}}]]}"#, "typeMismatch at $.responses[0][0].params.recommendedProducts"),
        (#"{"responses":[[{"type":"recommendProducts","params":{"instanceId":"i","actionId":"a","dynamicItems":"[{\"recommendationSource\":\"A\",\"itemCount\":1}]","recommendedProducts":{"A":{"productId":"1"}}}}]]}"#, "typeMismatch at $.responses[0][0].params.recommendedProducts.A"),
        (#"{"responses":[[{"type":"recommendProducts","params":{"instanceId":"i","actionId":"a","dynamicItems":"{\"recommendationSource\":\"A\"}"}}]]}"#, "typeMismatch at $.responses[0][0].params.dynamicItems(json)"),
        (#"{"responses":[[{"type":"recommendProducts","params":{"instanceId":"i","actionId":"a","dynamicItems":"[{\"itemCount\":\"4\"}]"}}]]}"#, "missingKey at $.responses[0][0].params.dynamicItems(json)[0]"),
        (#"{"responses":[[{"type":"recommendProducts","params":{"instanceId":"i","actionId":"a","dynamicItems":"[{\"recommendationSource\":4}]"}}]]}"#, "typeMismatch at $.responses[0][0].params.dynamicItems(json)[0].recommendationSource"),
        (#"{"responses":[[{"type":"recommendProducts","params":{"instanceId":"i","actionId":"a","dynamicItems":"[\"A\"]"}}]]}"#, "typeMismatch at $.responses[0][0].params.dynamicItems(json)[0]"),
        (#"{"responses":[[{"type":"recommendProducts","params":{"instanceId":"i","actionId":"a","staticItems":"{}"}}]]}"#, "typeMismatch at $.responses[0][0].params.staticItems(json)"),
        (#"{"responses":[[{"type":"recommendProducts","params":{"instanceId":"i","actionId":"a","notificationTitleMap":"[\"EN\"]"}}]]}"#, "typeMismatch at $.responses[0][0].params.notificationTitleMap(json)"),
    ])
    func aMalformedBlockIsSkippedAndReportedWithItsPath(json: String, expected: String) throws {
        let reply = try SegmentifyRecommendations.decode(Data(json.utf8))
        #expect(reply.widgets.isEmpty)
        let notice = try #require(reply.report.notices(.invalidBlock).first)
        #expect(notice.cause.map(describe) == expected)
        #expect(notice.path.description == "$.responses[0][0]")
    }

    @Test func theOtherBlocksOfAReplySurviveABrokenOne() throws {
        let json = #"{"responses":[[{"type":"recommendProducts","params":{"instanceId":"broken","actionId":"a","dynamicItems":"[{"}},{"type":"recommendProducts","params":{"instanceId":"good","actionId":"b","dynamicItems":"[{\"recommendationSource\":\"A\",\"itemCount\":2}]","recommendedProducts":{"A":[{"productId":"1"},{"productId":"2"}]}}}]]}"#
        let reply = try SegmentifyRecommendations.decode(Data(json.utf8))
        #expect(reply.widgets.map(\.instanceId) == ["good"])
        #expect(reply.widgets.first?.products.map(\.productId) == ["1", "2"])
        #expect(reply.report.notices(.invalidBlock).map(\.cause?.kind) == [.invalidJSON])
    }

    @Test func invalidJSONInsideDynamicItemsContinuesThePathIntoTheString() throws {
        let json = #"{"responses":[[{"type":"recommendProducts","params":{"instanceId":"i","actionId":"a","dynamicItems":"[{\"recommendationSource\":\"A\",\"itemCount\":4},{\"recommendationSource\":\"B\",\"itemCount\":}]"}}]]}"#
        let reply = try SegmentifyRecommendations.decode(Data(json.utf8))
        let error = try #require(reply.report.notices(.invalidBlock).first?.cause)
        #expect(error.kind == .invalidJSON)
        #expect(error.path.description == "$.responses[0][0].params.dynamicItems(json)[1].itemCount")
        #expect(error.position?.line == 1)
        #expect(error.position?.column == 85)
        #expect(error.description.contains("dynamicItems(json)[1].itemCount"))
    }

    @Test func invalidJSONInsideTheTitleMapSkipsTheBlockWithItsPath() throws {
        let json = #"{"responses":[[{"type":"recommendProducts","params":{"instanceId":"i","actionId":"a","notificationTitleMap":"{\"EN\":\"Hi\""}}]]}"#
        let reply = try SegmentifyRecommendations.decode(Data(json.utf8))
        let error = try #require(reply.report.notices(.invalidBlock).first?.cause)
        #expect(error.kind == .invalidJSON)
        #expect(error.path.description.hasPrefix("$.responses[0][0].params.notificationTitleMap(json)"))
    }

    @Test(arguments: [
        #"{"statusCode":"SUCCESS","responses":[[{"type":"recommendProducts","params":{"instanceId":"i","#,
        #"{"statusCode":"SUCCESS","responses":[[{"type":"recommendProducts","params":{"instanceId":"i","actionId""#,
        #"{"statusCode":"SUCC"#,
        "{",
    ])
    func truncatedJSONIsInvalidJSONWithAPosition(json: String) throws {
        let error = try #require(decodeError(json))
        #expect(error.kind == .invalidJSON)
        #expect(error.position != nil)
    }

    @Test func aTruncatedSampleNamesWhereItStopped() throws {
        let data = try SamplePayload.data("segmentify-product-page.json")
        let cut = data.prefix(data.count / 2)
        do {
            _ = try SegmentifyRecommendations.decode(cut)
            Issue.record("a truncated payload decoded")
        } catch {
            #expect(error.kind == .invalidJSON)
            #expect(error.path.description.hasPrefix("$.responses[0]"))
            #expect((error.position?.line ?? 0) > 1000)
        }
    }

    @Test(arguments: [#"{"statusCode":"SUCCESS","responses":[]}"#, #"{"statusCode":"SUCCESS","responses":[[]]}"#, #"{"responses":[[],[]]}"#])
    func emptyResponsesAreAnEmptyResultWithANotice(json: String) throws {
        let reply = try SegmentifyRecommendations.decode(Data(json.utf8))
        #expect(reply.widgets.isEmpty)
        #expect(reply.report.notices.map(\.kind) == [.noBlocks])
        #expect(reply.report.notices.first?.path.description == "$.responses")
    }

    @Test func onlySkippedItemsIsNotANoBlocksReply() throws {
        let reply = try SegmentifyRecommendations.decode(Data(#"{"responses":[[{"type":"sendBannerDetails","params":{}},{"params":{}}]]}"#.utf8))
        #expect(reply.widgets.isEmpty)
        #expect(reply.report.notices.map(\.kind) == [.skippedItem, .skippedItem])
        #expect(reply.report.notices.map(\.path.description) == ["$.responses[0][0]", "$.responses[0][1]"])
    }

    @Test func badProductsAreFailuresAndTheNextProductTakesTheirPlace() throws {
        let json = #"{"responses":[[{"type":"recommendProducts","params":{"instanceId":"scn_1","actionId":"act_1","dynamicItems":"[{\"recommendationSource\":\"A\",\"itemCount\":\"3\"}]","recommendedProducts":{"A":[{"productId":"1"},{"name":"no id","productId":"","price":"10"},"junk",{"productId":{"id":4}},{"productId":5},{"productId":"6"},{"productId":"7"}]}}}]]}"#
        let reply = try SegmentifyRecommendations.decode(Data(json.utf8))
        #expect(reply.widgets.first?.products.map(\.productId) == ["1", "5", "6"])
        let failures = reply.report.failures
        #expect(failures.map(\.index) == [1, 2, 3])
        #expect(failures.map(\.path.description) == ["$.responses[0][0].params.recommendedProducts.A[1].productId", "$.responses[0][0].params.recommendedProducts.A[2]", "$.responses[0][0].params.recommendedProducts.A[3].productId"])
        #expect(failures.allSatisfy { $0.instanceId == "scn_1" })
        #expect(failures[0].reason.contains("empty"))
    }

    @Test func randomBytesNeverCrashAndAlwaysGiveATypedError() {
        var generator = SeededRandom(seed: 0x5E67)
        for length in [1, 2, 7, 64, 512, 4096] {
            for _ in 0..<20 {
                let bytes = Data((0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
                do {
                    _ = try SegmentifyRecommendations.decode(bytes)
                    Issue.record("random bytes decoded")
                } catch {
                    #expect(error.kind == .invalidJSON || error.kind == .typeMismatch || error.kind == .missingKey)
                }
            }
        }
    }

    @Test func randomJSONShapedTextNeverCrashes() {
        var generator = SeededRandom(seed: 42)
        let alphabet = Array(#"{}[]",:0123456789truefalsnl"responsesparamsinstanceId\ "#.utf8)
        for _ in 0..<500 {
            let bytes = Data((0..<Int.random(in: 1...80, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
            _ = try? SegmentifyRecommendations.decode(bytes)
        }
    }

    @Test func deepNestingIsRefusedWithAPath() throws {
        let depth = 100_000
        let json = #"{"responses":"# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}"
        let error = try #require(decodeError(json))
        #expect(error.kind == .limitExceeded)
        #expect(error.message.contains("nesting"))
        #expect(error.path.description.hasPrefix("$.responses[0][0]"))

        let inside = #"{"responses":[[{"type":"recommendProducts","params":{"instanceId":"i","actionId":"a","dynamicItems":""# + String(repeating: "[", count: 5_000) + #""}}]]}"#
        let reply = try SegmentifyRecommendations.decode(Data(inside.utf8))
        let nested = try #require(reply.report.notices(.invalidBlock).first?.cause)
        #expect(nested.kind == .limitExceeded)
        #expect(nested.message.contains("nesting"))
        #expect(nested.path.description.hasPrefix("$.responses[0][0].params.dynamicItems(json)[0]"))
    }

    @Test func aFiveMegabytePayloadDecodesEveryBlock() throws {
        let product = #"{"productId":"ID","name":"Nike Mercurial Vapor 15 Club FG Erkek Krampon","url":"https://www.ornekspor.com.tr/p-ID","image":"//cdn.ornekspor.com.tr/urun/ID/1_500x500.jpg","price":1899.99,"priceText":"1.899,99 TL","oldPrice":"2299.99","category":["Erkek > Ayakkabı > Krampon"],"brand":"Nike","inStock":true,"params":{"renk":"Siyah"}}"#
        var text = #"{"statusCode":"SUCCESS","responses":[["#
        var block = 0
        while text.utf8.count < 5_000_000 {
            if block > 0 { text += "," }
            let list = (0..<20).map { product.replacingOccurrences(of: "ID", with: "\(block)-\($0)") }.joined(separator: ",")
            text += #"{"type":"recommendProducts","params":{"instanceId":"scn_\#(block)","actionId":"act_\#(block)","notificationTitle":"Blok \#(block)","dynamicItems":"[{\"recommendationSource\":\"RECOMMENDATION_SMART_OFFERS\",\"timeFrame\":\"TODAY\",\"score\":\"NONE\",\"itemCount\":\"12\"}]","recommendedProducts":{"RECOMMENDATION_SMART_OFFERS|TODAY|NONE":[\#(list)]}}}"#
            block += 1
        }
        text += "]]}"
        let reply = try SegmentifyRecommendations.decode(Data(text.utf8))
        #expect(reply.widgets.count == block)
        #expect(reply.widgets.allSatisfy { $0.items.count == 12 })
        #expect(reply.widgets.last?.products.last?.productId == "\(block - 1)-11")
        #expect(reply.report.failures.isEmpty)
    }
}
