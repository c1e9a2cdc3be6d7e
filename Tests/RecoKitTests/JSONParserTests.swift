import Foundation
import Testing
@testable import RecoKit

@Suite("JSON parsing")
struct JSONParserTests {
    @Test func parsesEveryKindOfValue() throws {
        let value = try JSONValue(parsing: #"{"a":[1,-2.5e3,true,false,null,"x\u00e9\n"],"b":{"c":"d"}}"#)
        #expect(value["a"]?[0] == 1)
        #expect(value["a"]?[1]?.numberValue?.text == "-2.5e3")
        #expect(value["a"]?[2] == true)
        #expect(value["a"]?[4] == .null)
        #expect(value["a"]?[5]?.stringValue == "xé\n")
        #expect(value[path: "b.c"]?.stringValue == "d")
    }

    @Test func keepsMoneyExact() throws {
        let value = try JSONValue(parsing: #"{"price":349.99,"text":"349.99"}"#)
        #expect(value["price"]?.decimalValue == Decimal(string: "349.99"))
        #expect(value["text"]?.decimalValue == Decimal(string: "349.99"))
        #expect(value["price"]?.decimalValue?.description == "349.99")
    }

    @Test func surrogatePairsDecode() throws {
        #expect(try JSONValue(parsing: #""\ud83d\ude00""#).stringValue == "😀")
    }

    @Test(arguments: [
        (#"{"responses":[[{"type":"x","#, "unexpected end of input, expected a key or '}'", "$.responses[0][0]", 1),
        (#"{"a":[1,2,}"#, "unexpected '}', expected a value", "$.a[2]", 1),
        ("{\n  \"a\": tru\n}", "unexpected line break, expected 'true'", "$.a", 2),
        (#"{"a":01}"#, "invalid number '01'", "$.a", 1),
        (#"{"a":"\x"}"#, #"invalid escape '\x' in a string"#, "$.a", 1),
        (#"[1] 2"#, "unexpected '2' after the end of the JSON value", "$", 1),
        ("", "empty document", "$", 1),
    ])
    func reportsWhatAndWhere(input: String, message: String, path: String, line: Int) {
        #expect {
            _ = try JSONValue(parsing: input)
        } throws: { error in
            guard let error = error as? PayloadError else { return false }
            return error.kind == .invalidJSON && error.message.hasPrefix(message) && error.path.description == path && error.position?.line == line
        }
    }

    @Test func columnPointsAtTheOffendingByte() {
        do {
            _ = try JSONValue(parsing: "{\n  \"a\": [1, x]\n}")
            Issue.record("parsed invalid JSON")
        } catch {
            #expect(error.position?.line == 2)
            #expect(error.position?.column == 12)
            #expect(error.description == "invalid JSON: unexpected 'x', expected a value at $.a[1] (line 2, column 12)")
        }
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: PayloadError.self) { try JSONValue(parsing: deep) }
    }

    @Test func invalidUTF8IsAnError() {
        var bytes = Array(#"{"name":"ab"}"#.utf8)
        bytes[10] = 0xFF
        #expect(throws: PayloadError.self) { try JSONValue(parsing: Data(bytes)) }
    }

    @Test func randomBytesNeverCrash() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let bytes = (0..<Int.random(in: 0..<64, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            _ = try? JSONValue(parsing: Data(bytes))
        }
    }

    @Test func writerRoundTrips() throws {
        let text = #"{"a":[1,"x\"y",null],"b":{"c":true}}"#
        let value = try JSONValue(parsing: text)
        #expect(try JSONValue(parsing: JSONWriter.string(value)) == value)
        #expect(try JSONValue(parsing: JSONWriter.string(value, style: .pretty)) == value)
        #expect(JSONWriter.string(value) == text)
    }

    @Test func pathsQuoteKeysThatAreNotIdentifiers() {
        let path: JSONPath = [.key("params"), .key("recommendedProducts"), .key("SPOR AKTİVİTELERİ > FUTBOL|MONTHLY|ROCK"), .index(2), .embeddedJSON]
        #expect(path.description == #"$.params.recommendedProducts["SPOR AKTİVİTELERİ > FUTBOL|MONTHLY|ROCK"][2](json)"#)
    }
}

@Suite("Exact numbers")
struct JSONNumberTests {
    @Test(arguments: ["0", "-0", "349.99", "0.001", "10", "100.50", "-12.5", "1234567890123456789", "12345678901234567890", "0.0000000000000000001", "1e3", "-2.5E-2", "775.00", "9.999999999999999999"])
    func decimalsMatchFoundationsParser(text: String) throws {
        let number = try #require(JSONNumber(text: text))
        let expected = try #require(Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")))
        #expect(number.decimal == expected)
        #expect(number.decimal?.description == expected.description)
    }

    @Test func randomDecimalsMatchFoundationsParser() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5_000 {
            let whole = UInt64.random(in: 0...999_999_999, using: &generator)
            let fraction = String(UInt64.random(in: 0...999_999, using: &generator))
            let text = (Bool.random(using: &generator) ? "-" : "") + "\(whole).\(fraction)"
            let expected = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
            #expect(JSONNumber(text: text)?.decimal == expected, "\(text)")
            #expect(JSONNumber(text: text)?.decimal?.description == expected?.description, "\(text)")
        }
    }
}
