import CRecoEscaping
import Foundation
import RecoKit
import RecoKitTesting
import Testing
@testable import RecoTracking

/// The escaping every string field of a vendor batch goes through (`BodyWriter.Cursor.appendEscaped`:
/// inline for short clean strings, `CRecoEscaping` for the rest, with SSE2 on x86-64) against the
/// byte-by-byte definition, at every length around its 8- and 16-byte steps and every alignment.
struct JSONEscapingTests {
    /// The definition: `"` and `\` after a backslash, `\n` `\r` `\t`, other bytes below 0x20 as `\u00xx`.
    static func reference(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var output: [UInt8] = []
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\""): output += Array("\\\"".utf8)
            case UInt8(ascii: "\\"): output += Array("\\\\".utf8)
            case UInt8(ascii: "\n"): output += Array("\\n".utf8)
            case UInt8(ascii: "\r"): output += Array("\\r".utf8)
            case UInt8(ascii: "\t"): output += Array("\\t".utf8)
            case 0..<0x20: output += Array(String(format: "\\u%04x", byte).utf8)
            default: output.append(byte)
            }
        }
        return output
    }

    /// What one of the three ways writes for `bytes`, in a buffer of exactly the room it may use
    /// (6 bytes a byte and 16) followed by 64 guard bytes; nil when a guard byte was overwritten.
    static func escaped(_ bytes: UnsafeBufferPointer<UInt8>, by way: Int) -> [UInt8]? {
        let room = 6 * bytes.count + 16
        var buffer = [UInt8](repeating: 0xA5, count: room + 64)
        let written = buffer.withUnsafeMutableBufferPointer { out -> Int in
            switch way {
            case 0:
                var cursor = BodyWriter.Cursor(base: out.baseAddress!, index: 0)
                cursor.appendEscaped(bytes)
                return cursor.index
            case 1: return reco_json_escape(out.baseAddress!, bytes.baseAddress, bytes.count)
            default: return reco_json_escape_portable(out.baseAddress!, bytes.baseAddress, bytes.count)
            }
        }
        guard buffer[room...].allSatisfy({ $0 == 0xA5 }), written <= room else { return nil }
        return Array(buffer[..<written])
    }

    static let ways = ["BodyWriter.Cursor.appendEscaped", "reco_json_escape", "reco_json_escape_portable"]

    @Test func everyWayEscapesAsTheDefinition() {
        let seed = ProcessInfo.processInfo.environment["RECOKIT_ESCAPE_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 0...UInt64.max)
        print("everyWayEscapesAsTheDefinition seed: \(seed) (replay: RECOKIT_ESCAPE_SEED=\(seed) swift test --filter everyWayEscapes)")
        var random = SeededRandom(seed: seed)
        // Bytes that must be escaped, their neighbours that must not, and UTF-8 from 0x80 up.
        let special: [UInt8] = [0x00, 0x01, 0x08, 0x09, 0x0A, 0x0C, 0x0D, 0x1E, 0x1F, 0x22, 0x5C, 0x20, 0x21, 0x23, 0x5B, 0x5D,
                                0x7F, 0x80, 0x9F, 0xA0, 0xC3, 0xDC, 0xE2, 0xFF]
        var checked = 0
        // Clean text, one special byte in 100, one in 10, one in 2, all special.
        for density in [0, 100, 10, 2, 1] {
            let pool = (0..<1_400).map { _ -> UInt8 in
                density > 0 && Int.random(in: 0..<density, using: &random) == 0
                    ? special.randomElement(using: &random)! : UInt8.random(in: 0x20...0x7E, using: &random)
            }
            let lengths = Array(0...80) + (0..<20).map { _ in Int.random(in: 81...1_300, using: &random) }
            for length in lengths {
                for start in 0..<8 {
                    pool[start..<(start + length)].withUnsafeBufferPointer { bytes in
                        let expected = Self.reference(bytes)
                        for (way, name) in Self.ways.enumerated() {
                            let written = Self.escaped(bytes, by: way)
                            #expect(written == expected, "\(name): length \(length) at \(start), one special byte in \(density), seed \(seed)")
                        }
                    }
                    checked += 1
                }
            }
        }
        #expect(checked == 5 * (81 + 20) * 8)
    }

    /// Each byte that needs escaping alone in clean text, at every offset of every length to `longest`, with
    /// where it stands.
    static func loneBytesToEscape(upTo longest: Int) -> [(bytes: [UInt8], place: String)] {
        var cases: [(bytes: [UInt8], place: String)] = []
        for byte in [UInt8(0x00), 0x1F, 0x22, 0x5C, 0x0A] {
            for length in 1...longest {
                for offset in 0..<length {
                    var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    bytes[offset] = byte
                    cases.append((bytes, "byte \(byte) at \(offset) of \(length)"))
                }
            }
        }
        return cases
    }

    @Test func aSingleByteToEscapeIsFoundAtEveryPlace() {
        // Lengths to 48: the vector and word steps must each see the byte wherever it falls, first, last or
        // in an overlap.
        for (bytes, place) in Self.loneBytesToEscape(upTo: 48) {
            let expected = Self.reference(bytes)
            bytes.withUnsafeBufferPointer { buffer in
                for (way, name) in Self.ways.enumerated() {
                    #expect(Self.escaped(buffer, by: way) == expected, "\(name): \(place)")
                }
            }
        }
    }

    @Test func stringsEscapeAsJSONWriterWritesThem() {
        // The batch bodies must hold the bytes the value encoders (JSONWriter) wrote for the same strings.
        let texts = ["", "plain", "quote \" and backslash \\", "tab\tnew\nline\r", "\u{0}\u{1}\u{1F}\u{7F}",
                     "çok güzel ürün — “24-WG080”", "https://www.shop.example/urun/240-lv09?q=\"koşu\"&x=1\\2",
                     String(repeating: "0123456789abcdef", count: 9) + "\u{8}", "\u{2028}\u{2029}🙂"]
        for text in texts {
            var json = ""
            JSONWriter.writeString(text, to: &json)
            let expected = Array(json.utf8.dropFirst().dropLast())
            Array(text.utf8).withUnsafeBufferPointer { bytes in
                #expect(Self.escaped(bytes, by: 0) == expected, "\(text.debugDescription)")
            }
        }
    }
}

/// A record's fields escaped where they lie (`appendMember`, one `reco_json_member` call for a key, the
/// field and its closing quote, which reads a field of up to eight bytes as the word that ends where it
/// ends; and `appendEscaped(_:of:)`) against the definition. Each field lies after 27 bytes that all need escaping, as a
/// record's header may hold such bytes: a short field's word takes some of them, which must not show.
struct RecordFieldEscapingTests {
    /// The keys `appendMember` is tried with: the shortest and longest it takes, and lengths around 16.
    static let keys: [StaticString] = [",\"\":\"", ",\"ab\":\"", ",\"abc\":\"", ",\"abcdefghi\":\"", ",\"abcdefghij\":\"", ",\"abcdefghijklmnopqrs\":\""]

    /// What `appendEscaped(_:of:)` (way 0) or `appendMember` with key `way - 1` writes for a field holding
    /// `bytes`, in a buffer of exactly the room a record's object gives (6 bytes a byte, the key, 16 more)
    /// and 64 guard bytes; nil when a guard byte was overwritten.
    static func written(_ bytes: [UInt8], by way: Int, absent: Bool = false) -> [UInt8]? {
        var record = [UInt8](repeating: 0, count: 28) + bytes // the field at 28, where the spans say
        for offset in 0..<28 { record[offset] = [0x00, 0x22, 0x5C, 0x1F][offset % 4] }
        var spans = EventRecord.Spans()
        spans[.instanceId] = absent ? 0 : UInt64(28) << 32 | UInt64(bytes.count + 1)
        let key = way == 0 ? "" : Self.keys[way - 1].description
        let room = 6 * bytes.count + 16 + key.utf8.count + 1
        var buffer = [UInt8](repeating: 0xA5, count: room + 64)
        let written = record.withUnsafeBufferPointer { record in
            buffer.withUnsafeMutableBufferPointer { out -> Int in
                var cursor = BodyWriter.Cursor(base: out.baseAddress!, index: 0)
                let fields = EventRecord.Fields(base: record.baseAddress!, spans: spans)
                if way == 0 { cursor.appendEscaped(.instanceId, of: fields) } else {
                    cursor.appendMember(Self.keys[way - 1], .instanceId, of: fields, always: absent)
                }
                return cursor.index
            }
        }
        guard buffer[room...].allSatisfy({ $0 == 0xA5 }), written <= room else { return nil }
        return Array(buffer[..<written])
    }

    static func expected(_ bytes: [UInt8], by way: Int) -> [UInt8] {
        way == 0 ? JSONEscapingTests.reference(bytes) : Array(Self.keys[way - 1].description.utf8) + JSONEscapingTests.reference(bytes) + [0x22]
    }

    @Test func everyFieldEscapesAsTheDefinition() {
        let seed = ProcessInfo.processInfo.environment["RECOKIT_ESCAPE_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 0...UInt64.max)
        print("everyFieldEscapesAsTheDefinition seed: \(seed) (replay: RECOKIT_ESCAPE_SEED=\(seed) swift test --filter everyFieldEscapes)")
        var random = SeededRandom(seed: seed)
        let special: [UInt8] = [0x00, 0x01, 0x0A, 0x1F, 0x22, 0x5C, 0x20, 0x21, 0x23, 0x41, 0x7F, 0x80, 0xC3, 0xFF]
        for density in [0, 10, 2, 1] {
            for length in Array(0...40) + [55, 64, 80, 300] {
                let bytes = (0..<length).map { _ -> UInt8 in
                    density > 0 && Int.random(in: 0..<density, using: &random) == 0
                        ? special.randomElement(using: &random)! : UInt8.random(in: 0x20...0x7E, using: &random)
                }
                for way in 0...Self.keys.count {
                    #expect(Self.written(bytes, by: way) == Self.expected(bytes, by: way),
                            "way \(way): \(bytes) (one special byte in \(density)), seed \(seed)")
                }
            }
        }
    }

    @Test func aSingleByteToEscapeIsFoundAtEveryPlace() {
        for (bytes, place) in JSONEscapingTests.loneBytesToEscape(upTo: 24) {
            for way in 0...Self.keys.count {
                #expect(Self.written(bytes, by: way) == Self.expected(bytes, by: way), "way \(way): \(place)")
            }
        }
    }

    @Test func anAbsentFieldIsLeftOutOrWrittenEmpty() {
        for way in 0...Self.keys.count {
            #expect(Self.written([], by: way, absent: true) == (way == 0 ? [] : Self.expected([], by: way)), "way \(way)")
        }
        // Left out by default.
        var out = [UInt8](repeating: 0, count: 64)
        let written = out.withUnsafeMutableBufferPointer { out -> Int in
            var cursor = BodyWriter.Cursor(base: out.baseAddress!, index: 0)
            [UInt8](repeating: 0, count: 30).withUnsafeBufferPointer { record in
                cursor.appendMember(",\"lang\":\"", .lang, of: EventRecord.Fields(base: record.baseAddress!, spans: EventRecord.Spans()))
            }
            return cursor.index
        }
        #expect(written == 0)
    }
}
