import Foundation
import RecoKitTesting
import Testing

/// The recommendation samples, by file.
private let recommendationSamples = [
    "reteno-recoms-full", "reteno-recoms-fields", "segmentify-home-page", "segmentify-product-page", "segmentify-v3",
    "segmentify-search-before", "segmentify-search-after",
]

private func sampleText(_ name: String) throws -> String {
    String(decoding: try Data(contentsOf: RecokitChildProcess.packageRoot.appendingPathComponent("Samples/Payloads/\(name).json")), as: UTF8.self)
}

/// What `decode --json` printed before it wrote piece by piece: the whole document built as a
/// `JSONValue` and written by `JSONWriter`.
private func documentJSON(_ reply: Recommendations<RawProduct>) -> String {
    let widgets: [JSONValue] = reply.widgets.map { widget in
        let products: [JSONValue] = widget.items.map { item in
            var fields = item.raw.fields
            fields["position"] = .number(JSONNumber(item.position))
            return .object(fields)
        }
        return ["vendor": .string(widget.vendor.rawValue), "instanceId": .string(widget.instanceId), "interactionId": .string(widget.interactionId),
                "title": .string(widget.title), "products": .array(products)]
    }
    let failures: [JSONValue] = reply.report.failures.map { ["path": .string($0.path.description), "reason": .string($0.reason)] }
    let notices: [JSONValue] = reply.report.notices.map { ["kind": .string($0.kind.name), "path": .string($0.path.description), "message": .string($0.message)] }
    return JSONWriter.string(["widgets": .array(widgets), "failures": .array(failures), "notices": .array(notices)], style: .pretty) + "\n"
}

@Suite("recokit with hostile input")
struct HostileInputCLITests {
    typealias CLI = RecokitChildProcess

    /// `decode --json` writes piece by piece now; byte for byte what the whole document gave.
    @Test(arguments: recommendationSamples)
    func decodeJSONIsByteForByteTheDocument(sample: String) throws {
        let result = try CLI.run(["decode", "Samples/Payloads/\(sample).json", "--json", "--lang", "EN"])
        #expect(result.status == 0, "\(result.stderr)")
        let data = try Data(contentsOf: CLI.packageRoot.appendingPathComponent("Samples/Payloads/\(sample).json"))
        let reply = try VendorPayloads.decode(data, language: "EN").decoded(as: RawProduct.self)
        #expect(result.stdout == documentJSON(reply))
    }

    /// One long productId padded every row to its width (quadratic): the id column now stops at 40.
    @Test func aLongProductIdDoesNotWidenEveryRow() throws {
        let longId = String(repeating: "x", count: 100_000)
        let text = try sampleText("reteno-recoms-full").replacingOccurrences(of: #""productId": "MH07""#, with: "\"productId\": \"\(longId)\"")
        #expect(text.contains(longId))
        let file = try CLI.temporaryFile("long-id.json", text)
        defer { CLI.removeTemporaryFile(file) }
        let result = try CLI.run(["decode", file])
        #expect(result.status == 0)
        let rows = result.stdout.split(separator: "\n").filter { $0.hasPrefix("    ") && $0.dropFirst(4).first?.isNumber == true || $0.hasPrefix("    ") && $0.contains(". ") }
        #expect(rows.count >= 10)
        #expect(rows.filter { $0.contains(longId) }.count == 1)
        for row in rows where !row.contains(longId) { #expect(row.count < 200, "\(row)") }
        #expect(rows.allSatisfy { !$0.hasSuffix(" ") })
    }

    /// Control characters from a vendor reach the terminal as visible escapes, in every command.
    @Test func vendorControlCharactersAreEscapedOnTheTerminal() throws {
        let eightDigits = try CLI.temporaryFile("8digits.json", try sampleText("8digits-error").replacingOccurrences(of: "Authentication failed", with: #"Authentication\b\b\b\b\u001b[2Jfailed\nerror: forged"#))
        let segmentify = try CLI.temporaryFile("segmentify.json", try sampleText("segmentify-error").replacingOccurrences(of: "NO_DOMAIN_APIKEY_MATCH", with: #"NO_DOMAIN\b\b\b\r\nFORGED"#))
        let named = try CLI.temporaryFile("named.json", try sampleText("reteno-recoms-full").replacingOccurrences(of: #""productId": "MH07""#, with: #""productId": "MH07\u0008\u001b[31m\u202e""#))
        defer { [eightDigits, segmentify, named].forEach(CLI.removeTemporaryFile) }
        for (arguments, expected) in [
            (["decode", eightDigits], #"Authentication\u{8}\u{8}\u{8}\u{8}\u{1B}[2Jfailed\nerror: forged"#),
            (["decode", segmentify], #"NO_DOMAIN\u{8}\u{8}\u{8}\r\nFORGED"#),
            (["render", segmentify], #"NO_DOMAIN\u{8}\u{8}\u{8}\r\nFORGED"#),
            (["decode", named], #"MH07\u{8}\u{1B}[31m\u{202E}"#),
            (["render", named, "--max-products", "3"], #"limitReached"#),
        ] {
            let result = try CLI.run(arguments)
            let printed = result.stdout + result.stderr
            #expect(printed.contains(expected), "\(arguments): \(printed.suffix(600))")
            #expect(!printed.unicodeScalars.contains { $0 != "\n" && ($0.value < 0x20 || $0.value == 0x7F || $0 == "\u{202E}") }, "\(arguments)")
        }
    }

    /// A Segmentify reply whose itemCounts are Int.max crashed every command; now clamped and said.
    @Test(arguments: ["9223372036854775807", #"\"9223372036854775807\""#])
    func aHugeItemCountIsANoticeNotACrash(count: String) throws {
        let text = try sampleText("segmentify-product-page").replacingOccurrences(of: #"\"itemCount\":\"4\""#, with: #"\"itemCount\":"# + count)
        let file = try CLI.temporaryFile("huge-count.json", text)
        defer { CLI.removeTemporaryFile(file) }
        for arguments in [["decode", file], ["decode", file, "--json"], ["render", file]] {
            let result = try CLI.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect((result.stdout + result.stderr).contains("ReplyLimits.itemCount"), "\(arguments)")
        }
    }

    /// Pretty-printing `[[[[…]]]]` indents every level: output growing with the square of the depth.
    /// A value nested deeper than 8 levels is written on one line.
    @Test func aDeeplyNestedFieldIsWrittenOnOneLine() throws {
        let deep = String(repeating: "[", count: 30) + "1" + String(repeating: "]", count: 30)
        let shallow = "[[1,2],[3]]"
        let text = try sampleText("reteno-recoms-full").replacingOccurrences(of: #""productId": "MH07""#, with: #""productId": "MH07", "deep": \#(deep), "shallow": \#(shallow)"#)
        let file = try CLI.temporaryFile("deep.json", text)
        defer { CLI.removeTemporaryFile(file) }
        let result = try CLI.run(["decode", file, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\"deep\": " + deep + ",\n"))
        #expect(result.stdout.contains("\"shallow\": [\n            [\n              1,"), "a shallow value is indented as before")
        let parsed = try JSONValue(parsing: result.stdout)
        let product = parsed["widgets"]?[0]?["products"]?.arrayValue?.first { $0["productId"] == "MH07" }
        #expect(product?["deep"] == (try JSONValue(parsing: deep)))
    }
}
