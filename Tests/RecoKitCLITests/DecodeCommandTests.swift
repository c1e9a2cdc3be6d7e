import Foundation
import RecoKitTesting
import Testing

@Suite("recokit decode")
struct DecodeCommandTests {
    typealias CLI = RecokitChildProcess

    let full = "Samples/Payloads/reteno-recoms-full.json"
    let fields = "Samples/Payloads/reteno-recoms-fields.json"

    /// The words of each line, so tests do not depend on column widths.
    func words(_ text: String) -> [[Substring]] { text.split(separator: "\n").map { $0.split(separator: " ") } }

    // MARK: Summary

    @Test func summaryListsTheWidgetAndNumberedProducts() throws {
        let result = try CLI.run(["decode", full, "--variant", "r1107v1482", "--title", "You may also like"])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "1 widget")
        #expect(lines.contains("Widget 1: r1107v1482"))
        #expect(lines.contains("  vendor         reteno"))
        #expect(lines.contains("  instanceId     r1107v1482"))
        #expect(lines.contains("  interactionId  r1107v1482"))
        #expect(lines.contains("  title          You may also like"))
        #expect(lines.contains("  products       10"))
        let rows = words(result.stdout).filter { $0.first?.hasSuffix(".") == true && Int($0.first!.dropLast()) != nil }
        #expect(rows.count == 10)
        #expect(rows.first == ["1.", "240-LV09", "Luma", "Yoga", "For", "Life", "32"])
        #expect(rows[5] == ["6.", "24-MB02", "Fusion", "Backpack", "59.99"])
        #expect(rows.last == ["10.", "WSH04", "Artemis", "Running", "Short", "45"])
        #expect(lines.last == "Every product decoded.")
    }

    @Test func summaryListsFailuresAndNotices() throws {
        let payload = #"{"recoms":[{"productId":"MH07","name":"Hero Hoodie","price":54},"oops",{"name":"no id"}]}"#
        let file = try CLI.temporaryFile("bad-products.json", payload)
        defer { CLI.removeTemporaryFile(file) }
        let result = try CLI.run(["decode", file])
        #expect(result.status == 0)
        #expect(result.stdout.contains("2 products did not decode:\n"))
        #expect(result.stdout.contains("  product 1 of reteno: expected a product object, found a string at $.recoms[1]\n"))
        #expect(result.stdout.contains("  product 2 of reteno: missing required key \"productId\" at $.recoms[2]\n"))
        #expect(result.stdout.contains("Notices (1):\n  unnamedVariant: "))
        #expect(words(result.stdout).contains(["1.", "MH07", "Hero", "Hoodie", "54"]))
    }

    @Test func strictFailsWhenAProductFailed() throws {
        let file = try CLI.temporaryFile("one-bad.json", #"{"recoms":[{"productId":"MH07"},42]}"#)
        defer { CLI.removeTemporaryFile(file) }
        #expect(try CLI.run(["decode", file, "--strict"]).status == 1)
        #expect(try CLI.run(["decode", file]).status == 0)
        #expect(try CLI.run(["decode", full, "--strict"]).status == 0)
    }

    @Test func readsStandardInput() throws {
        let result = try CLI.run(["decode", "-", "--variant", "r5v6"], stdin: Data(#"{"recoms":[{"productId":"WS03","name":"Iris Workout Top","price":"29.00"}]}"#.utf8))
        #expect(result.status == 0)
        #expect(result.stdout.contains("Widget 1: r5v6\n"))
        #expect(words(result.stdout).contains(["1.", "WS03", "Iris", "Workout", "Top", "29"]))
    }

    @Test func recognisesSegmentifyByShape() throws {
        let payload = #"""
        {"statusCode":"SUCCESS","responses":[[{"type":"recommendProducts","params":{
          "notificationTitle":"You may also like","notificationTitleMap":"{\"TR\":\"Bunlar da ilginizi çekebilir\"}",
          "instanceId":"act_7","actionId":"123",
          "dynamicItems":"[{\"recommendationSource\":\"RECOMMENDATION_SMART_OFFERS\",\"timeFrame\":\"TODAY\",\"score\":\"NONE\",\"itemCount\":\"2\"}]",
          "recommendedProducts":{"RECOMMENDATION_SMART_OFFERS|TODAY|NONE":[
            {"productId":"p1","name":"Koşu Ayakkabısı","price":1299.9,"currency":"TRY"},{"productId":"p2","name":"Tayt","price":"349.99","currency":"TRY"}]}}}]]}
        """#
        let result = try CLI.run(["decode", "-", "--lang", "TR"], stdin: Data(payload.utf8))
        #expect(result.status == 0)
        #expect(result.stdout.contains("  vendor         segmentify\n"))
        #expect(result.stdout.contains("  interactionId  123\n"))
        #expect(result.stdout.contains("  title          Bunlar da ilginizi çekebilir\n"))
        #expect(words(result.stdout).contains(["1.", "p1", "Koşu", "Ayakkabısı", "1299.9", "TRY"]))
        #expect(words(result.stdout).contains(["2.", "p2", "Tayt", "349.99", "TRY"]))
        // Naming the wrong vendor is the payload's error, not a crash.
        let wrong = try CLI.run(["decode", "-", "--vendor", "reteno"], stdin: Data(payload.utf8))
        #expect(wrong.status == 1)
        #expect(wrong.errorLines == [#"error: <stdin>: missing required key "recoms" at $"#])
    }

    // MARK: JSON

    @Test func jsonHasExactlyTheDocumentedShape() throws {
        let result = try CLI.run(["decode", full, "--variant", "r1107v1482", "--json"])
        #expect(result.status == 0)
        let document = try JSONValue(parsing: result.stdout)
        #expect(document.objectValue.map { Set($0.keys) } == ["widgets", "failures", "notices"])
        #expect(document["failures"] == [])
        #expect(document["notices"] == [])
        let widgets = try #require(document["widgets"]?.arrayValue)
        #expect(widgets.count == 1)
        let widget = widgets[0]
        #expect(widget.objectValue.map { Set($0.keys) } == ["vendor", "instanceId", "interactionId", "title", "products"])
        #expect(widget["vendor"] == "reteno")
        #expect(widget["instanceId"] == "r1107v1482")
        #expect(widget["interactionId"] == "r1107v1482")
        #expect(widget["title"] == "")
        let products = try #require(widget["products"]?.arrayValue)
        #expect(products.compactMap { $0["productId"]?.stringValue } == ["240-LV09", "24-WG080", "24-UG06", "MH07", "WJ12", "24-MB02", "WS03", "MP01", "24-WG085", "WSH04"])
        #expect(products.compactMap { $0["position"]?.intValue } == Array(1...10))
        #expect(products[0]["descr"]?.stringValue?.hasPrefix("Luma Yoga For Life is") == true)
        #expect(products[5]["price"] == "59.99")  // the numeric string stays as the vendor sent it
        #expect(products[3]["category"]?.arrayValue?.count == 2)
    }

    @Test func jsonKeepsOnlySelectedFields() throws {
        let listed = try JSONValue(parsing: CLI.run(["decode", full, "--json", "--fields", "name,price,nosuchfield"]).stdout)
        let products = try #require(listed["widgets"]?[0]?["products"]?.arrayValue)
        #expect(products.allSatisfy { $0.objectValue.map { Set($0.keys) } == ["productId", "position", "name", "price"] })
        #expect(listed["notices"]?.arrayValue?.contains { $0["kind"] == "fieldNotFound" && $0["message"]?.stringValue?.contains("nosuchfield") == true } == true)

        let idOnly = try JSONValue(parsing: CLI.run(["decode", fields, "--json", "--fields", ""]).stdout)
        #expect(idOnly["widgets"]?[0]?["products"]?.arrayValue?.allSatisfy { $0.objectValue.map { Set($0.keys) } == ["productId", "position"] } == true)
    }

    @Test func jsonAppliesEveryFilterAndRenumbers() throws {
        let result = try CLI.run(["decode", full, "--json", "--filter", "tags_activity=yoga", "--filter", "tags_new=1"])
        let document = try JSONValue(parsing: result.stdout)
        let products = try #require(document["widgets"]?[0]?["products"]?.arrayValue)
        #expect(products.compactMap { $0["productId"]?.stringValue } == ["24-WG080"])
        #expect(products.first?["position"] == 1)
        #expect(document["notices"]?.arrayValue?.compactMap { $0["kind"]?.stringValue } == ["unnamedVariant", "filteredOut"])
    }

    @Test func jsonListsFailuresWithPathAndReason() throws {
        let file = try CLI.temporaryFile("failures.json", #"{"recoms":[{"productId":"MH07"},{"productId":""},true]}"#)
        defer { CLI.removeTemporaryFile(file) }
        let document = try JSONValue(parsing: CLI.run(["decode", file, "--json", "--variant", "r1v2"]).stdout)
        #expect(document["failures"] == [
            ["path": "$.recoms[1].productId", "reason": "productId is an empty string"],
            ["path": "$.recoms[2]", "reason": "expected a product object, found a boolean"],
        ])
    }

    @Test func jsonMatchesTheLibraryForEverySamplePayload() throws {
        for name in try SamplePayloads.names {
            let file = try SamplePayloads.url(named: name).path
            let result = try CLI.run(["decode", file, "--json", "--lang", "TR"])
            let data = try SamplePayloads.data(named: name)
            if let kind = VendorPayloads.detect(try JSONValue(parsing: data)), !kind.carriesRecommendations {
                // Described, not decoded into widgets (DecodeOtherRepliesTests); an error reply is one error line.
                #expect(result.status == ((try? VendorPayloads.describe(JSONValue(parsing: data))) == nil ? 1 : 0), "\(name)")
                #expect(try JSONValue(parsing: result.stdout.isEmpty ? "{}" : result.stdout)["widgets"] == nil, "\(name)")
                continue
            }
            let library: Recommendations<RawProduct>
            do {
                library = try VendorPayloads.decode(data, language: "TR")
            } catch {
                // A payload the library refuses (an error envelope) is one error line from the command.
                #expect(result.status == 1, "\(name)")
                #expect(result.errorLines == ["error: \(error.inFile(file))"], "\(name)")
                continue
            }
            #expect(result.status == 0, "\(name)")
            let document = try JSONValue(parsing: result.stdout)
            let widgets = document["widgets"]?.arrayValue ?? []
            #expect(widgets.compactMap { $0["instanceId"]?.stringValue } == library.widgets.map(\.instanceId), "\(name)")
            #expect(widgets.compactMap { $0["interactionId"]?.stringValue } == library.widgets.map(\.interactionId), "\(name)")
            #expect(widgets.compactMap { $0["title"]?.stringValue } == library.widgets.map(\.title), "\(name)")
            #expect(widgets.compactMap { $0["vendor"]?.stringValue } == library.widgets.map(\.vendor.rawValue), "\(name)")
            #expect(widgets.map { $0["products"]?.arrayValue?.compactMap { $0["productId"]?.stringValue } ?? [] } == library.widgets.map { $0.products.map(\.productId) }, "\(name)")
            #expect(document["failures"]?.arrayValue?.count == library.report.failures.count, "\(name)")
            #expect(document["notices"]?.arrayValue?.compactMap { $0["message"]?.stringValue } == library.report.notices.map(\.message), "\(name)")
        }
    }

    // MARK: Errors

    @Test func aMissingFileIsOneErrorLine() throws {
        let result = try CLI.run(["decode", "Samples/Payloads/no-such-payload.json"])
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(result.errorLines == ["error: Samples/Payloads/no-such-payload.json: cannot read the payload: no such file"])
    }

    @Test func truncatedJSONNamesTheFilePathLineAndColumn() throws {
        let file = try CLI.temporaryFile("truncated.json", "{\"recoms\":[\n  {\"productId\":\"MH07\",\"name\":")
        defer { CLI.removeTemporaryFile(file) }
        let result = try CLI.run(["decode", file])
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(result.errorLines == ["error: \(file): invalid JSON: unexpected end of input, expected a value at $.recoms[0].name (line 2, column 30)"])
    }

    @Test(arguments: [
        (#"{"answer":42}"#, #"error: <stdin>: not a known vendor payload (expected "recoms" for Reteno, "responses", "statusCode" or "search" for Segmentify, "result" for 8digits, "purchase" for Connectif, segment categories for Bloomreach), found an object with the keys "answer" at $"#),
        (#"{"recoms":{"productId":"x"}}"#, "error: <stdin>: expected an array of products, found an object at $.recoms"),
        (#"{"statusCode":"NO_ACCOUNT"}"#, "error: <stdin>: the vendor answered NO_ACCOUNT: the api key belongs to no Segmentify account; check the key at $.statusCode"),
        ("\u{00}\u{ff}garbage", "error: <stdin>: invalid JSON: "),
    ])
    func anInvalidPayloadIsOneErrorLine(payload: String, line: String) throws {
        let result = try CLI.run(["decode", "-"], stdin: Data(payload.utf8))
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(result.errorLines.count == 1)
        #expect(result.errorLines.first?.hasPrefix(line) == true)
        #expect(result.errorLines.first?.contains(" at $") == true)
    }

    @Test(arguments: [
        (["decode"], "error: decode needs a PAYLOAD file"),
        (["decode", "a.json", "b.json"], "error: decode takes one PAYLOAD, not 2"),
        (["decode", "x.json", "--vendor", "acme"], #"error: --vendor is auto, segmentify, reteno, bloomreach, connectif or 8digits, not "acme""#),
        (["decode", "x.json", "--variant", "1107-1482"], #"error: --variant: invalid Reteno variant id "1107-1482""#),
        (["decode", "x.json", "--filter", "novalue"], "error: --filter: a filter is written name=value1,value2"),
        (["decode", "x.json", "--colour"], "error: unknown option --colour"),
    ])
    func usageErrorsExit2(arguments: [String], message: String) throws {
        let result = try CLI.run(arguments)
        #expect(result.status == 2)
        #expect(result.errorLines.first?.hasPrefix(message) == true)
        #expect(result.errorLines.count == 2 && result.errorLines.last == "see 'recokit help decode'", "one line and the hint, not the help: \(result.stderr)")
    }

    @Test func aKeyReplyOverItsCapIsOneErrorLine() throws {
        let payload = Data(#"["-897541074991628287","-2066154474596835328"]"#.utf8) + Data(repeating: UInt8(ascii: " "), count: 1 << 20)
        let result = try CLI.run(["decode", "-"], stdin: payload)
        #expect(result.status == 1)
        #expect(result.errorLines == ["error: <stdin>: JSON limit exceeded: a Segmentify key reply of \(payload.count) bytes, more than 1048576 (JSONLimits.maximumInputBytes; VendorPayloadKind.defaultLimits for this kind) at $"])
    }

    @Test func variantOnANonRetenoPayloadIsAUsageError() throws {
        let result = try CLI.run(["decode", "-", "--variant", "r1v2"], stdin: Data(#"{"statusCode":"SUCCESS","responses":[[]]}"#.utf8))
        #expect(result.status == 2)
        #expect(result.errorLines.first == "error: --variant names a Reteno variant, but <stdin> is not a Reteno reply")
    }

    // MARK: Help

    @Test func helpDescribesOptionsAndExitStatus() throws {
        for flag in ["--help", "-h"] {
            let result = try CLI.run(["decode", flag])
            #expect(result.status == 0)
            #expect(result.stdout.hasPrefix("Usage: recokit decode PAYLOAD [options]"))
            for option in ["--vendor auto|segmentify|reteno", "--variant", "--fields a,b", "--filter name=v1,v2", "--lang CODE", "--json", "--strict", "Exit status:"] {
                #expect(result.stdout.contains(option), "\(option)")
            }
        }
        let overview = try CLI.run(["--help"])
        #expect(overview.status == 0)
        #expect(overview.stdout.contains("  decode    Decode a vendor payload"))
    }
}
