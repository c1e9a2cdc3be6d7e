import Foundation
@_spi(JSONTape) import RecoKit
import RecoKitTesting
import Testing

/// The tape must read exactly what the tree parser reads: the same values, and for anything wrong the
/// same error (kind, message, path, line, column).
@Suite struct JSONTapeTests {
    /// The tape's answer and the tree's answer for the same bytes, as comparable text.
    private func bothAnswers(_ data: Data, _ limits: JSONLimits = .default) -> (tape: String, tree: String) {
        let tape: String
        do {
            tape = try JSONTape.parse(data, limits: limits).map { "value " + $0.root.value.description } ?? "no tape"
        } catch {
            tape = "error \(error) \(error.path) \(String(describing: error.position))"
        }
        let tree: String
        do {
            tree = "value " + (try JSONValue(parsing: data, limits: limits)).description
        } catch {
            tree = "error \(error) \(error.path) \(String(describing: error.position))"
        }
        return (tape, tree)
    }

    private static let documents = [
        #"{"a":1,"b":[true,false,null],"c":{"d":"e\u00e9\n","e":-12.50e3},"a":2}"#,
        #"  [ 1 , "two" , { "three" : [ ] , "four" : { } } ]  "#,
        "\u{FEFF}{\"bom\":\"ok\"}",
        #"{"productId":"p1","name":"Gel-Kayano \"30\"","price":"349.99","params":{"color":"Siyah"},"category":["Koşu","Ayakkabı"]}"#,
        #"["\ud83d\ude00", "\u0000", "\/\b\f\r\t"]"#,
        "\"plain\"", "0", "-0.5E-3", "true", "null",
        #"{"long":"Asics Gel-Kayano 30 Erkek Koşu Ayakkabısı \"Siyah\" \u00e9\t//cdn.example.com/img/12345/main.jpg","x":"0123456789abcdef0123456789abcdef"}"#,
    ]

    @Test func theTapeReadsTheSameValuesAsTheTree() {
        for document in Self.documents {
            let answers = bothAnswers(Data(document.utf8))
            #expect(answers.tape == answers.tree, "\(document)")
            #expect(answers.tape.hasPrefix("value "), "\(document)")
        }
    }

    @Test func brokenDocumentsGiveTheTreeParsersErrors() {
        let broken = [
            "", "   ", "{", "[1,]", #"{"a" 1}"#, #"{"a":}"#, "[1 2]", "01", "-", "1.", "1e", "tru", "nul", "[\"\u{1}\"]",
            #"["\x"]"#, #"["\u12G4"]"#, #"["\ud800"]"#, #"["\udc00"]"#, #"["\ud800\u0041"]"#, #"{"a":1}}"#, #"{"a":[1,{"b":"#,
            #"{1:2}"#, "[\"unterminated", "[1]x",
        ]
        for document in broken {
            let answers = bothAnswers(Data(document.utf8))
            #expect(answers.tape == answers.tree, "\(document)")
            #expect(answers.tape.hasPrefix("error "), "\(document)")
        }
        for bytes: [UInt8] in [[0x22, 0xC3, 0x28, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], [0x22, 0xE0, 0x80, 0xAF, 0x22], [0x22, 0xC3, 0x5C, 0x6E, 0xA9, 0x22]] {
            let answers = bothAnswers(Data(bytes))
            #expect(answers.tape == answers.tree, "\(bytes)")
            #expect(answers.tape.hasPrefix("error "), "\(bytes)")
        }
    }

    @Test func limitsGiveTheSameErrors() {
        let cases: [(String, JSONLimits)] = [
            (String(repeating: "[", count: 4) + String(repeating: "]", count: 4), JSONLimits(maximumDepth: 3)),
            (String(repeating: "[", count: 3) + String(repeating: "]", count: 3), JSONLimits(maximumDepth: 3)),
            (#"{"n":12345}"#, JSONLimits(maximumNumberLength: 4)),
            (#"{"n":1234}"#, JSONLimits(maximumNumberLength: 4)),
            (#"{"abcd":"abcde"}"#, JSONLimits(maximumStringBytes: 4)),
            (#"{"abcde":"a"}"#, JSONLimits(maximumStringBytes: 4)),
            (#"["a\n"]"#, JSONLimits(maximumStringBytes: 2)),
            (#"["ab\n"]"#, JSONLimits(maximumStringBytes: 2)),
            (#"[1,2,3]"#, JSONLimits(maximumInputBytes: 6)),
        ]
        for (document, limits) in cases {
            let answers = bothAnswers(Data(document.utf8), limits)
            #expect(answers.tape == answers.tree, "\(document) \(limits)")
        }
    }

    /// Seeded mutations of valid documents: every one is read alike, value or error.
    @Test func mutatedDocumentsAreReadAlike() {
        let seed = ProcessInfo.processInfo.environment["RECOKIT_TAPE_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 0...UInt64.max)
        print("JSONTapeTests.mutatedDocumentsAreReadAlike seed: \(seed) (replay: RECOKIT_TAPE_SEED=\(seed) swift test --filter JSONTapeTests)")
        var random = SeededRandom(seed: seed)
        let alphabet = Array(#"{}[]":,\ "0123456789.-+eEtrufalsn\u"#.utf8) + [0x00, 0x0A, 0x1F, 0x80, 0xC3, 0xA9, 0xED, 0xF0, 0xFF]
        var mismatches: [String] = []
        for round in 0..<6_000 {
            var bytes = Array(Self.documents[round % Self.documents.count].utf8)
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let at = Int.random(in: 0...bytes.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: bytes.insert(alphabet.randomElement(using: &random)!, at: at)
                case 1: if at < bytes.count { bytes.remove(at: at) }
                default: if at < bytes.count { bytes[at] = alphabet.randomElement(using: &random)! }
                }
            }
            // Every other round with a short string limit, so the limit falls anywhere in a string.
            let limits = round % 2 == 0 ? JSONLimits.default : JSONLimits(maximumStringBytes: Int.random(in: 0...70, using: &random))
            let answers = bothAnswers(Data(bytes), limits)
            if answers.tape != answers.tree { mismatches.append("\(bytes) \(limits): tape \(answers.tape), tree \(answers.tree)") }
        }
        #expect(mismatches.isEmpty, "RECOKIT_TAPE_SEED=\(seed): \(mismatches.prefix(3))")
    }

    private struct Shoe: Decodable, Equatable {
        struct Params: Decodable, Equatable { let color: String; let size: Int? }
        let productId: String
        let price: Decimal
        let stock: Int?
        let inStock: Bool
        let category: [String]
        let params: Params
        let rating: Double?
    }

    private func decodeBoth<T: Decodable & Equatable>(_ type: T.Type, _ document: String) throws -> (tape: String, tree: String) {
        let data = Data(document.utf8)
        func answer(_ body: () throws -> T) -> String {
            do { return "value \(try body())" } catch let error as DecodingError {
                switch error {
                case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context), .dataCorrupted(let context):
                    return "error \(JSONPath(codingPath: context.codingPath)) \(context.debugDescription)"
                @unknown default: return "error \(error)"
                }
            } catch { return "error \(error)" }
        }
        let tape = try #require(try JSONTape.parse(data))
        return (answer { try tape.root.decode(T.self) }, answer { try JSONValue(parsing: data).decode(T.self) })
    }

    @Test func aModelDecodesFromTheTapeAsFromTheTree() throws {
        let good = #"{"productId":12,"price":"349.99","stock":"4","inStock":"true","category":"Koşu","params":{"color":"Siyah","size":42.0},"rating":4.5}"#
        let answers = try decodeBoth(Shoe.self, good)
        #expect(answers.tape == answers.tree)
        #expect(answers.tape.hasPrefix("value "))
        let bad = [
            #"{"productId":"p","price":"cheap","inStock":true,"category":[],"params":{"color":"x"}}"#,
            #"{"productId":"p","price":1,"inStock":true,"category":[],"params":{"color":"x","size":"big"}}"#,
            #"{"productId":"p","price":1,"inStock":true,"category":[1,{}],"params":{"color":"x"}}"#,
            #"{"productId":"p","price":1,"inStock":true,"category":[],"params":[]}"#,
            #"{"productId":"p","price":1,"inStock":null,"category":[],"params":{"color":"x"}}"#,
            #"{"productId":"p","price":1,"inStock":true,"category":[]}"#,
            #"{"productId":"p","price":1,"inStock":true,"category":[],"params":{"color":"x"},"stock":1.5}"#,
            #"[1]"#,
        ]
        for document in bad {
            let answers = try decodeBoth(Shoe.self, document)
            #expect(answers.tape == answers.tree, "\(document)")
            #expect(answers.tape.hasPrefix("error "), "\(document)")
        }
    }

    @Test func aRawProductFromTheTapeReadsItsFieldsInPlace() throws {
        let data = Data(#"{"productId":"p1","price":"9.90","params":{"color":"red"},"a.b":1,"price":"8.90"}"#.utf8)
        let tape = try #require(try JSONTape.parse(data))
        let raw = try RawProduct(tape.root)
        let tree = try RawProduct(try JSONValue(parsing: data))
        #expect(raw == tree)
        #expect(raw.hashValue == tree.hashValue)
        #expect(raw.fields == tree.fields)
        #expect(raw.field(named: "price") == "8.90")
        #expect(raw["params.color"] == "red")
        #expect(raw["a.b"] == 1)
        #expect(raw["missing"] == nil)
        #expect(raw.description == tree.description)
    }

    /// A reply above the size a tape copies is read where it is: the same products either way.
    @Test func aLargeReplyIsReadInPlaceAlike() throws {
        let product = #"{"productId":"p@","name":"Gel-Kayano \"30\" Koşu","price":349.99,"category":["a","b"]}"#
        var text = #"{"recoms":["#
        var count = 0
        while text.utf8.count <= JSONTape.copiedBytes + 1000 {
            if count > 0 { text += "," }
            text += product.replacingOccurrences(of: "@", with: "\(count)")
            count += 1
        }
        text += "]}"
        let data = Data(text.utf8)
        let tape = try #require(try JSONTape.parse(data))
        let recoms = try #require(tape.root["recoms"]?.elements)
        #expect(recoms.count == count)
        for index in [0, count / 2, count - 1] {
            let raw = try RawProduct(recoms[index])
            #expect(raw.productId == "p\(index)")
            #expect(raw.field(named: "name") == "Gel-Kayano \"30\" Koşu")
            #expect(raw["category"] == ["a", "b"])
        }
    }

    @Test func aRawProductFromTheTapeRefusesWhatTheTreeRefuses() throws {
        for document in [#"[1]"#, #"{"name":"x"}"#, #"{"productId":""}"#, #"{"productId":[1]}"#, #"{"productId":null}"#] {
            let data = Data(document.utf8)
            let tape = try #require(try JSONTape.parse(data))
            var tapeError: PayloadError?
            var treeError: PayloadError?
            do { _ = try RawProduct(tape.root, at: JSONPath.root.appending(key: "recoms").appending(index: 3)) } catch { tapeError = error }
            do { _ = try RawProduct(try JSONValue(parsing: data), at: JSONPath.root.appending(key: "recoms").appending(index: 3)) } catch { treeError = error }
            #expect(tapeError != nil, "\(document)")
            #expect(tapeError == treeError, "\(document)")
        }
    }
}
