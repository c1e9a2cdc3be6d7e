import Foundation

/// Builds a ``JSONTape`` from bytes in one pass, checking everything ``JSONParser`` checks (RFC 8259
/// syntax, UTF-8, escapes, ``JSONLimits``) but making no value: it only records tokens.
///
/// It accepts exactly the documents ``JSONParser`` accepts. When it meets anything wrong it stops, and
/// ``JSONParser`` reads the same bytes to say what and where (the path, line and column of the first
/// error), so the errors are the ones the tree parser has always given, at no cost to the fast path.
enum JSONTapeParser {
    static func parse(_ data: Data, limits: JSONLimits) throws(PayloadError) -> JSONTape? {
        if data.count > limits.maximumInputBytes || data.count > JSONTape.maximumBytes {
            // Within the limits but too large for 28-bit offsets: the caller reads a tree instead. Beyond
            // the limits: the tree parser throws the limit's error.
            _ = try JSONParser.parse(data, limits: limits)
            return nil
        }
        // Tokens are written in place into one allocation that never grows (pages never written are never
        // touched). Real documents have at most about one token per two bytes; one that has more is
        // scanned again with room for one token per byte, which every token takes at least.
        for capacity in [data.count / 2 + 2, data.count + 2] {
            var scanned = false
            var overflowed = false
            let tokens = [JSONTape.Token](unsafeUninitializedCapacity: capacity) { buffer, count in
                data.withUnsafeBytes { raw in
                    var scanner = Scanner(bytes: raw.bindMemory(to: UInt8.self), limits: limits, tokens: buffer.baseAddress!, capacity: capacity)
                    scanned = scanner.document()
                    overflowed = scanner.count > capacity
                    count = scanned && !overflowed ? scanner.count : 0
                }
            }
            if scanned && !overflowed { return JSONTape(data: data, tokens: tokens) }
            if !overflowed { break }
        }
        _ = try JSONParser.parse(data, limits: limits)
        // The tree parser accepted what the scanner refused: a disagreement the fuzz target looks for.
        throw .invalidJSON("the document could not be indexed (a RecoKit defect: please report it with the document)", at: .root, line: 1, column: 1)
    }

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        let limits: JSONLimits
        var offset = 0
        /// Where the tokens are written, and how many there are so far.
        let tokens: UnsafeMutablePointer<JSONTape.Token>
        let capacity: Int
        /// Tokens scanned; past `capacity` they are counted but not written (the scan is then redone).
        var count = 0
        /// The arrays and objects open around the current value, outermost first: each one's token
        /// times two, plus one for an object.
        var open: [Int] = []

        init(bytes: UnsafeBufferPointer<UInt8>, limits: JSONLimits, tokens: UnsafeMutablePointer<JSONTape.Token>, capacity: Int) {
            self.bytes = bytes
            self.limits = limits
            self.tokens = tokens
            self.capacity = capacity
        }

        @inline(__always) mutating func add(_ kind: JSONTape.Kind, start: Int, payload: Int = 0) {
            if count < capacity {
                (tokens + count).initialize(to: JSONTape.Token(start: UInt32(truncatingIfNeeded: start), info: kind.rawValue << 29 | UInt32(truncatingIfNeeded: payload)))
            }
            count += 1
        }

        /// Records where the container whose token is `token` ends: at the next token.
        @inline(__always) mutating func close(_ token: Int) {
            if token < capacity { tokens[token].info |= UInt32(truncatingIfNeeded: count) }
        }

        @inline(__always) mutating func skipWhitespace() {
            while offset < bytes.count {
                switch bytes[offset] {
                case 0x20, 0x0A, 0x0D, 0x09: offset += 1
                default: return
                }
            }
        }

        /// Scans the whole document; false at the first thing wrong.
        mutating func document() -> Bool {
            skipWhitespace()
            if offset == 0, bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { offset = 3; skipWhitespace() }
            guard offset < bytes.count else { return false }
            guard values() else { return false }
            skipWhitespace()
            return offset == bytes.count
        }

        /// Scans one value and everything nested in it.
        mutating func values() -> Bool {
            while true {
                skipWhitespace()
                guard offset < bytes.count else { return false }
                let byte = bytes[offset]
                switch byte {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    guard open.count < limits.maximumDepth else { return false }
                    let token = count
                    add(byte == UInt8(ascii: "{") ? .object : .array, start: offset)
                    offset += 1
                    skipWhitespace()
                    let closing = byte + 2  // "{" + 2 is "}", "[" + 2 is "]"
                    if offset < bytes.count, bytes[offset] == closing {
                        offset += 1
                        close(token)
                    } else {
                        open.append(token << 1 | (byte == UInt8(ascii: "{") ? 1 : 0))
                        if byte == UInt8(ascii: "{") { guard key() else { return false } }
                        continue
                    }
                case UInt8(ascii: "\""): guard string() else { return false }
                case UInt8(ascii: "t"): guard literal("true", .true) else { return false }
                case UInt8(ascii: "f"): guard literal("false", .false) else { return false }
                case UInt8(ascii: "n"): guard literal("null", .null) else { return false }
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): guard number() else { return false }
                default: return false
                }
                // Close the containers this value completes, innermost first.
                while let top = open.last {
                    let container = top >> 1
                    skipWhitespace()
                    guard offset < bytes.count else { return false }
                    let isObject = top & 1 == 1
                    if bytes[offset] == UInt8(ascii: ",") {
                        offset += 1
                        if isObject { guard key() else { return false } }
                        break
                    }
                    guard bytes[offset] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else { return false }
                    offset += 1
                    close(container)
                    open.removeLast()
                }
                if open.isEmpty { return true }
            }
        }

        /// Scans `"key":`, leaving the offset at the value.
        @inline(__always) mutating func key() -> Bool {  // inlined: called on its own it retained the scanner's storage once per key
            skipWhitespace()
            guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else { return false }
            guard string() else { return false }
            skipWhitespace()
            guard offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else { return false }
            offset += 1
            return true
        }

        mutating func literal(_ text: StaticString, _ kind: JSONTape.Kind) -> Bool {
            let count = text.utf8CodeUnitCount
            guard offset + count <= bytes.count else { return false }
            let expected = text.utf8Start
            for index in 0..<count where bytes[offset + index] != expected[index] { return false }
            add(kind, start: offset)
            offset += count
            return true
        }

        /// Scans a number literal (RFC 8259: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`) in one pass.
        /// The tree parser takes every number character that follows into the literal, so a literal followed
        /// by one (`01`, `1e5e`, `1-2`) is refused, as is one longer than the limit.
        mutating func number() -> Bool {
            let start = offset
            let count = bytes.count
            var index = offset
            @inline(__always) func isDigit(_ at: Int) -> Bool { at < count && bytes[at] &- UInt8(ascii: "0") < 10 }
            if index < count, bytes[index] == UInt8(ascii: "-") { index += 1 }
            if index < count, bytes[index] == UInt8(ascii: "0") {
                index += 1
            } else {
                guard isDigit(index) else { return false }
                while isDigit(index) { index += 1 }
            }
            if index < count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard isDigit(index) else { return false }
                while isDigit(index) { index += 1 }
            }
            if index < count, bytes[index] | 0x20 == UInt8(ascii: "e") {
                index += 1
                if index < count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard isDigit(index) else { return false }
                while isDigit(index) { index += 1 }
            }
            if index < count {
                switch bytes[index] {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"):
                    return false
                default: break
                }
            }
            guard index - start <= limits.maximumNumberLength else { return false }
            offset = index
            add(.number, start: start, payload: index - start)
            return true
        }

        /// Scans a string (a value or a key): its escapes, control characters, length and UTF-8, as
        /// `JSONParser.parseString` checks them. Plain bytes are skipped eight at a time.
        @inline(__always) mutating func string() -> Bool {  // inlined: its call cost ~7 Ir of the ~60 a short string costs
            offset += 1
            let contentStart = offset
            let maximum = limits.maximumStringBytes
            let count = bytes.count
            let base = UnsafeRawPointer(bytes.baseAddress!)
            let ones: UInt64 = 0x0101_0101_0101_0101
            let highBits: UInt64 = 0x8080_8080_8080_8080
            var escaped = false
            var seen: UInt64 = 0  // every plain byte OR-ed in: a high bit means non-ASCII text
            while true {
                let runStart = offset
                var byte: UInt8 = 0
                while true {
                    if offset + 8 <= count {
                        let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))  // byte 0 lowest
                        let quote = word ^ (ones &* 0x22)
                        let backslash = word ^ (ones &* 0x5C)
                        // A byte that is a quote, a backslash or below 0x20 stops the run ("has a byte less
                        // than" tests, one per kind: the lowest flagged byte is exact, so it is the first).
                        let stop = (((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((word &- ones &* 0x20) & ~word)) & highBits
                        seen |= word  // bytes past the stop may count too: at worst a needless UTF-8 check
                        if stop == 0 { offset += 8; continue }
                        offset += stop.trailingZeroBitCount >> 3
                        byte = bytes[offset]
                        break
                    }
                    guard offset < count else { return false }
                    byte = bytes[offset]
                    if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
                    seen |= UInt64(byte)
                    offset += 1
                }
                guard offset < count else { return false }
                // Every plain byte counts against the limit (the last one of the run is the furthest).
                if offset > runStart, offset - 1 - contentStart >= maximum { return false }
                if byte == UInt8(ascii: "\"") { break }
                guard byte >= 0x20, offset - contentStart < maximum else { return false }
                escaped = true
                guard escape() else { return false }
            }
            if seen & highBits != 0, !Self.isValidUTF8(UnsafeBufferPointer(rebasing: bytes[contentStart..<offset])) { return false }
            add(.string, start: contentStart - 1, payload: (offset - contentStart) | (escaped ? Int(JSONTape.Token.escapedFlag) : 0))
            offset += 1
            return true
        }

        /// Scans one escape from its backslash.
        mutating func escape() -> Bool {
            offset += 1
            guard offset < bytes.count else { return false }
            let escape = bytes[offset]
            offset += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                return true
            case UInt8(ascii: "u"):
                guard let scalar = hex4() else { return false }
                if (0xD800...0xDBFF).contains(scalar) {
                    guard offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u") else { return false }
                    offset += 2
                    guard let low = hex4(), (0xDC00...0xDFFF).contains(low) else { return false }
                    return true
                }
                return !(0xDC00...0xDFFF).contains(scalar)
            default:
                return false
            }
        }

        mutating func hex4() -> UInt32? {
            guard offset + 4 <= bytes.count else { return nil }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[offset]
                let digit: UInt32
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
                default: return nil
                }
                value = value << 4 | digit
                offset += 1
            }
            return value
        }

        /// Whether the bytes are well-formed UTF-8 (no overlong forms, surrogates or values past U+10FFFF),
        /// as `String(validating:as:)` judges them. Escapes are ASCII, so checking the raw bytes of a
        /// string is checking its decoded text.
        static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            var index = 0
            let count = bytes.count
            @inline(__always) func continuation(_ at: Int) -> Bool { bytes[at] & 0xC0 == 0x80 }
            while index < count {
                let lead = bytes[index]
                if lead < 0x80 { index += 1; continue }
                if lead < 0xC2 { return false }
                if lead < 0xE0 {
                    guard index + 1 < count, continuation(index + 1) else { return false }
                    index += 2
                } else if lead < 0xF0 {
                    guard index + 2 < count else { return false }
                    let second = bytes[index + 1]
                    let low: UInt8 = lead == 0xE0 ? 0xA0 : 0x80
                    let high: UInt8 = lead == 0xED ? 0x9F : 0xBF
                    guard second >= low, second <= high, continuation(index + 2) else { return false }
                    index += 3
                } else if lead < 0xF5 {
                    guard index + 3 < count else { return false }
                    let second = bytes[index + 1]
                    let low: UInt8 = lead == 0xF0 ? 0x90 : 0x80
                    let high: UInt8 = lead == 0xF4 ? 0x8F : 0xBF
                    guard second >= low, second <= high, continuation(index + 2), continuation(index + 3) else { return false }
                    index += 4
                } else {
                    return false
                }
            }
            return true
        }
    }
}
