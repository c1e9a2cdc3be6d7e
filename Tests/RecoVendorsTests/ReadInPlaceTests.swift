import Foundation
import Testing
import RecoVendors
import RecoKitTesting

/// Every payload read from its bytes is read in place (a tape, no tree of the whole payload), and
/// must decode and describe exactly as the same payload parsed into a `JSONValue` tree: the same
/// widgets, products, paths, report, description, and the same error at the same path.
@Suite("Payloads read in place decode as their trees do")
struct ReadInPlaceTests {
    /// What decoding gave, as text.
    private func decoded(_ body: () throws(PayloadError) -> Recommendations<RawProduct>) -> String {
        do {
            let reply = try body()
            return reply.widgets.map { widget in
                "\(widget.vendor) \(widget.instanceId) \(widget.interactionId) \(widget.title) \(widget.path): "
                    + widget.items.map { "\($0.position) \($0.raw.description) \($0.path)" }.joined(separator: ", ")
            }.joined(separator: "\n") + "\n" + reply.report.description
        } catch {
            return "error \(error) at \(error.path)"
        }
    }

    /// What describing gave, as text.
    private func described(_ body: () throws(PayloadError) -> VendorReplyDescription) -> String {
        do {
            return "\(try body())"
        } catch {
            return "error \(error) at \(error.path)"
        }
    }

    private func expectAlike(_ text: String, kind: VendorPayloadKind? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let data = Data(text.utf8)
        let tree = try JSONValue(parsing: data)
        let vendor = kind?.vendor
        let fromBytes = decoded { () throws(PayloadError) in try VendorPayloads.decode(data, vendor: vendor) }
        #expect(fromBytes == decoded { () throws(PayloadError) in try VendorPayloads.decode(tree, vendor: vendor) }, sourceLocation: sourceLocation)
        let describedFromBytes = described { () throws(PayloadError) in try VendorPayloads.describe(data, kind: kind) }
        #expect(describedFromBytes == described { () throws(PayloadError) in try VendorPayloads.describe(tree, kind: kind) }, sourceLocation: sourceLocation)
    }

    @Test func everySamplePayloadDecodesAndDescribesAlike() throws {
        let names = try SamplePayloads.names
        #expect(names.count >= 19)
        for name in names {
            try expectAlike(String(decoding: SamplePayloads.data(named: name), as: UTF8.self))
        }
    }

    /// Search replies, each shape a decoder step refuses or reports.
    @Test(arguments: [
        #"{"search":1}"#, #"{"search":[]}"#, #"{"search":[1]}"#, #"{"search":[[]]}"#, #"{"search":[[1]]}"#,
        #"{"search":[[{}]]}"#, #"{"search":[[{"campaign":7}]]}"#, #"{"search":[[{"campaign":{"instanceId":"OTHER"}}]]}"#,
        #"{"search":[[{"campaign":{"instanceId":"SEARCH"},"products":{}}]]}"#,
        #"{"search":[[{"campaign":{"instanceId":"SEARCH"},"products":null}]]}"#,
        #"{"search":[[{"campaign":{"instanceId":"SEARCH"},"products":[1,{"productId":"p1","name":"A"},{"name":"no id"}]}]]}"#,
        #"{"search":[[{"campaign":{"instanceId":"BEFORE_SEARCH"},"products":[{"productId":"p1"}],"categoryProducts":[1]}]]}"#,
        #"{"search":[[{"campaign":{"instanceId":"SEARCH"},"categoryProducts":{"b":[{"productId":"x"}],"a":1,"c":null},"brandProducts":{"n":[{"productId":"y"},2]}}]]}"#,
        #"{"statusCode":"FAIL","search":[[{"campaign":{"instanceId":"SEARCH"}}]]}"#,
        #"{"statusCode":5,"search":[[{"campaign":{"instanceId":"SEARCH"}}]]}"#,
    ])
    func searchRepliesDecodeAlike(text: String) throws {
        try expectAlike(text)
    }

    /// Payloads without recommendations, each decoder's refusals and notices, with the kind given and
    /// recognised.
    @Test(arguments: [
        (#"["u","s","k"]"#, VendorPayloadKind.segmentifyKeys), (#"["u",1,2.5e3]"#, .segmentifyKeys), (#"["u",""]"#, .segmentifyKeys),
        (#"["u",{}]"#, .segmentifyKeys), ("[]", .segmentifyKeys), ("{}", .segmentifyKeys), (#""u""#, .segmentifyKeys),
        (#"{"discovery":[{"id":"a","segmentation_id":"b"},1,{"id":2,"segmentation_id":"c"},{"id":"d"}],"content":7,"other":[],"merchandising":null}"#, .bloomreachSegments),
        ("[1]", .bloomreachSegments), (#"{"discovery":[],"discovery":[{"id":"a","segmentation_id":"b"}]}"#, .bloomreachSegments),
        (#"{"result":{"code":0},"data":{"badges":["a","b"],"count":2}}"#, .eightDigitsReply), (#"{"result":{"code":0}}"#, .eightDigitsReply),
        (#"{"result":{"code":0},"data":null}"#, .eightDigitsReply), (#"{"result":{"code":"0"},"data":[1,{"a":true}]}"#, .eightDigitsReply),
        (#"{"result":{"code":12,"message":"no session"}}"#, .eightDigitsReply), (#"{"result":{"code":"x"}}"#, .eightDigitsReply),
        (#"{"result":{}}"#, .eightDigitsReply), (#"{"result":1}"#, .eightDigitsReply), ("[]", .eightDigitsReply),
        (#"{"type":"purchase","purchase":7}"#, .connectifPurchase), (#"{"type":"other","purchase":{}}"#, .connectifPurchase),
        ("[]", .connectifPurchase),
    ])
    func payloadsWithoutRecommendationsDescribeAlike(text: String, kind: VendorPayloadKind) throws {
        try expectAlike(text, kind: kind)
        try expectAlike(text)
    }

    /// The Connectif sample with one field at a time made wrong (amounts may be numeric strings, so
    /// "cheap" is the wrong one): each error names the same path.
    @Test(arguments: [
        (#""quantity": 2"#, #""quantity": "two""#), (#""quantity": 2"#, #""quantity": 2.5"#), (#""unitPrice": 51.88"#, #""unitPrice": "cheap""#),
        (#""unitPrice": 51.88"#, #""unitPrice": true"#), (#""categories": ["#, #""categories": [1, "#), (#""categories": ["#, #""categories": 3, "x": ["#),
        (#""products": ["#, #""products": 5, "x": ["#), (#""products": ["#, #""products": [7, "#), (#""cartId": "#, #""cartIdentifier": "#),
        (#""purchaseDate": "2025"#, #""purchaseDate": "yesterday"#), (#""source_type": ""#, #""source_type": "moon-"#),
        (#""totalQuantity": 3"#, #""totalQuantity": 4"#), (#""platform": "#, #""platforms": "#), (#""context": {"#, #""context": 1, "c": {"#),
    ])
    func aConnectifPurchaseMadeWrongIsRefusedAlike(change: (String, String)) throws {
        let sample = String(decoding: try SamplePayloads.data(named: "connectif-purchase"), as: UTF8.self)
        #expect(sample.contains(change.0))
        let changed = sample.replacingOccurrences(of: change.0, with: change.1)
        try expectAlike(changed, kind: .connectifPurchase)
        // It is refused, not described: each change breaks a rule.
        #expect(throws: PayloadError.self) { try VendorPayloads.describe(Data(changed.utf8), kind: .connectifPurchase) }
    }
}
