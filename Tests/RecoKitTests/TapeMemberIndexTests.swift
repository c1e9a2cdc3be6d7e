import Foundation
@_spi(JSONTape) import RecoKit
import Testing

/// A model's fields are found through an index of the object's members (a table of its keys; a scan
/// where the last member wins when a key is repeated, escaped, or the object is too large for the
/// table): whatever the order of the fields and the keys, the tape must decode what the tree decodes.
@Suite struct TapeMemberIndexTests {
    /// Fields with keys that share their first 8 bytes, and keys shorter and longer than 8 bytes.
    struct Fields: Decodable, Equatable {
        let a: String?
        let priceText: String?
        let priceTextLong: String?
        let priceTextLonger: String?
        let shortKey: Int?
        let z: String?
    }

    /// The same fields, decoded in the reverse order.
    struct Reversed: Decodable, Equatable {
        let z: String?
        let shortKey: Int?
        let priceTextLonger: String?
        let priceTextLong: String?
        let priceText: String?
        let a: String?

        enum Key: String, CodingKey { case a, priceText, priceTextLong, priceTextLonger, shortKey, z }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            z = try container.decodeIfPresent(String.self, forKey: .z)
            shortKey = try container.decodeIfPresent(Int.self, forKey: .shortKey)
            priceTextLonger = try container.decodeIfPresent(String.self, forKey: .priceTextLonger)
            priceTextLong = try container.decodeIfPresent(String.self, forKey: .priceTextLong)
            priceText = try container.decodeIfPresent(String.self, forKey: .priceText)
            a = try container.decodeIfPresent(String.self, forKey: .a)
        }
    }

    private static var documents: [String] {
        var many = (0..<70).map { #""k\#($0)":\#($0)"# }
        many.append(#""a":"last of many""#)
        many.insert(#""a":"first of many""#, at: 0)
        return [
            #"{"a":"1","priceText":"2","priceTextLong":"3","priceTextLonger":"4","shortKey":5,"z":"6"}"#,
            #"{"z":"6","shortKey":5,"priceTextLonger":"4","priceTextLong":"3","priceText":"2","a":"1"}"#,
            #"{"a":"first","priceText":"2","a":"second","z":"6","priceTextLonger":"4","priceTextLonger":"last"}"#,
            #"{"priceTextLong":{"a":"nested"},"a":[1,2,{"z":"x"}],"priceText":"2","z":"z"}"#,
            #"{"\u0061":"escaped","priceText":"2","a":"plain"}"#,
            #"{"a":"plain","pr\u0069ceText":"escaped","priceText":"plain"}"#,
            #"{}"#,
            "{" + many.joined(separator: ",") + "}",
            // Keys more than 65,535 tokens after the object's own: past what the table can point to.
            #"{"a":"first","priceTextLong":["#  + Array(repeating: "0", count: 70_000).joined(separator: ",") + #"],"z":"6","a":"last"}"#,
            #"{"priceTextLong":["#  + Array(repeating: "0", count: 70_000).joined(separator: ",") + #"],"z":"6","a":"1"}"#,
        ]
    }

    /// The tape's and the tree's answers (the value or the error) as text.
    private func answers<T: Decodable>(_ type: T.Type, _ data: Data) -> (tape: String, tree: String) {
        (String(describing: Result { try JSONTape.parse(data)!.root.decode(T.self) }),
         String(describing: Result { try JSONValue(parsing: data).decode(T.self) }))
    }

    @Test func theTapeFindsTheFieldsTheTreeFinds() throws {
        for document in Self.documents {
            let data = Data(document.utf8)
            let fields = answers(Fields.self, data)
            #expect(fields.tape == fields.tree, "\(document)")
            let reversed = answers(Reversed.self, data)
            #expect(reversed.tape == reversed.tree, "\(document)")
        }
    }

    @Test func aRepeatedKeyGivesItsLastValue() throws {
        let data = Data(#"{"a":"first","priceText":"2","a":"second","priceTextLonger":"x","priceTextLonger":"y"}"#.utf8)
        let view = try #require(try JSONTape.parse(data)).root
        let fields = try view.decode(Fields.self)
        #expect(fields.a == "second")
        #expect(fields.priceTextLonger == "y")
        #expect(try view.decode(Reversed.self).a == "second")
    }

    @Test func aMissingKeyIsTheTreesError() throws {
        struct Needs: Decodable { let priceTextLonger: String }
        let data = Data(#"{"priceTextLong":"3","priceText":"2"}"#.utf8)
        let both = answers(Needs.self, data)
        #expect(both.tape == both.tree)
        #expect(both.tape.contains("missing required key"))
    }
}
