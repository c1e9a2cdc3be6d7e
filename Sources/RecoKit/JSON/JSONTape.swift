import Foundation

/// A parsed JSON document kept as its bytes plus one flat array of tokens, one token per value and per
/// key, in document order: no `String`, `Dictionary` or `Array` is made for a value until someone reads
/// it. It is what the vendor decoders read large replies from, so that a product costs a few tokens
/// until it is kept, and decoding into a caller's model goes from bytes to the model's fields directly.
///
/// A token is 8 bytes: where the value starts in the bytes, its kind, and for a string its length (and
/// whether it holds escapes), for a number its length, for an array or object the index of the first
/// token after it (so a whole subtree is skipped in one step). An object's tokens are its key and value
/// tokens in turn.
///
/// Built by ``JSONTapeParser``, which accepts exactly what ``JSONValue/init(parsing:limits:)-(Data,_)``
/// accepts and throws the same errors (paths, lines, columns, limits).
@_spi(JSONTape)
public final class JSONTape: @unchecked Sendable {  // unchecked: the copied bytes are written once, in init, and only read after
    /// The kinds of token.
    @_spi(JSONTape)
    public enum Kind: UInt32, Sendable {
        case null = 0, `false`, `true`, number, string, array, object
    }

    /// One value or key: `start` is the offset of its first byte; `info` holds the kind in its top 3 bits
    /// and a 29-bit payload (see the type's documentation).
    struct Token {
        var start: UInt32
        var info: UInt32

        static let payloadMask: UInt32 = (1 << 29) - 1
        /// In a string's payload: the string holds backslash escapes.
        static let escapedFlag: UInt32 = 1 << 28
        static let lengthMask: UInt32 = (1 << 28) - 1

        var kind: Kind { Kind(rawValue: info >> 29)! }
        var payload: UInt32 { info & Self.payloadMask }
    }

    /// The largest document a tape can index (its offsets and lengths are 28-bit); larger documents are
    /// parsed into a ``JSONValue`` tree instead.
    public static let maximumBytes = (1 << 28) - 1

    /// The document's bytes: a reply of up to ``copiedBytes`` is copied into memory the tape owns (and
    /// frees when it goes), read through a plain pointer: no retain, release or exclusivity check per
    /// read (`Data` costs a few dozen instructions a read); a larger one is read where it is, so that it
    /// costs no memory twice.
    private let copied: UnsafeRawBufferPointer?
    private let shared: Data?
    let tokens: [Token]

    /// The largest reply a tape copies (see `copied`): 4 MiB.
    @_spi(JSONTape) public static let copiedBytes = 4 << 20

    init(data: Data, tokens: [Token]) {
        if data.count <= Self.copiedBytes {
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(data.count, 1), alignment: 8)
            // One memcpy: `Data.copyBytes(to:count:)` went through the generic collection path (1.3 Ir/byte).
            data.withUnsafeBytes { bytes in
                if let source = bytes.baseAddress { buffer.baseAddress!.copyMemory(from: source, byteCount: bytes.count) }
            }
            self.copied = UnsafeRawBufferPointer(start: buffer.baseAddress, count: data.count)
            self.shared = nil
        } else {
            self.copied = nil
            self.shared = data
        }
        self.tokens = tokens
    }

    deinit {
        if let base = copied?.baseAddress { UnsafeMutableRawPointer(mutating: base).deallocate() }
    }

    /// Calls `body` with the document's bytes.
    @inline(__always) func withBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        if let copied { return body(copied) }
        return shared!.withUnsafeBytes(body)
    }

    /// Parses a document into a tape.
    /// - Returns: nil when the document is larger than ``maximumBytes`` but within the limits (read it
    ///   as a ``JSONValue`` then).
    /// - Throws: ``PayloadError``, the same as ``JSONValue/init(parsing:limits:)-(Data,_)`` for the bytes.
    public static func parse(_ data: Data, limits: JSONLimits = .default) throws(PayloadError) -> JSONTape? {
        try JSONTapeParser.parse(data, limits: limits)
    }

    /// The document's root value.
    public var root: JSONView { JSONView(tape: self, index: 0) }

    /// How many tokens the document has (for measurements).
    public var tokenCount: Int { tokens.count }

    // MARK: Reading tokens

    @inline(__always) func kind(_ index: Int) -> Kind { tokens[index].kind }

    /// The index of the first token after the value at `index` (after its whole subtree).
    @inline(__always) func next(_ index: Int) -> Int {
        let token = tokens[index]
        switch token.kind {
        case .array, .object: return Int(token.payload)
        default: return index + 1
        }
    }

    /// The bytes of a string's content (between its quotes, escapes as written) or a number's literal.
    @inline(__always) func withRawBytes<R>(_ index: Int, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        let token = tokens[index]
        let start = Int(token.start) + (token.kind == .string ? 1 : 0)
        let length = Int(token.payload & Token.lengthMask)
        return withBytes { raw in body(UnsafeRawBufferPointer(rebasing: raw[start..<(start + length)])) }
    }

    /// The text of the string at `index`, escapes decoded.
    func string(_ index: Int) -> String {
        let escaped = tokens[index].payload & Token.escapedFlag != 0
        return withRawBytes(index) { raw in
            escaped ? Self.unescape(raw) : Self.validatedString(raw)
        }
    }

    /// The literal text of the number at `index`.
    func numberText(_ index: Int) -> String {
        withRawBytes(index) { raw in Self.validatedString(raw, isASCII: true) }
    }

    /// A `String` of bytes that are known to be well-formed UTF-8, made without checking them again.
    ///
    /// Only for bytes of this tape's document that a token covers, or text made from them by
    /// ``unescape(_:)``: `JSONTapeParser.Scanner.string()` checks every string's bytes with
    /// `isValidUTF8` before it records the token (a string whose bytes are all below 0x80 is ASCII), a
    /// number's literal is ASCII by its grammar (`Scanner.number()`), the bytes are the tape's own copy
    /// (or a `Data` it keeps) and never change, and a token's range lies inside them. `isASCII` is true
    /// only when every byte is known to be below 0x80.
    @inline(__always) static func validatedString(_ raw: UnsafeRawBufferPointer, isASCII: Bool = false) -> String {
        #if compiler(>=6.2)
        if #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) {
            let bytes = raw.assumingMemoryBound(to: UInt8.self)
            return String(copying: UTF8Span(unchecked: bytes.span, isKnownASCII: isASCII))
        }
        #endif
        return String(decoding: raw, as: UTF8.self)
    }

    /// The value token of the member named `key` in the object at `index` (the last one, when the key is
    /// repeated, as ``JSONValue`` keeps it), nil when there is none.
    func member(_ key: String, of index: Int) -> Int? {
        var key = key
        return key.withUTF8 { wanted in member(utf8: wanted, of: index) }
    }

    /// ``member(_:of:)`` for a key's UTF-8 bytes: one pass over the object's keys, comparing lengths
    /// first and bytes only where they agree.
    func member(utf8 wanted: UnsafeBufferPointer<UInt8>, of index: Int) -> Int? {
        let wantedLength = UInt32(truncatingIfNeeded: wanted.count)
        let objectKind = Kind.object.rawValue
        let arrayKind = Kind.array.rawValue
        return withBytes { raw in
            tokens.withUnsafeBufferPointer { tokens in
                let end = Int(tokens[index].info & Token.payloadMask)
                var cursor = index + 1
                var found: Int?
                while cursor < end {
                    let payload = tokens[cursor].info & Token.payloadMask
                    if payload == wantedLength && wanted.count < (1 << 28) {
                        if wanted.count == 0 || memcmp(raw.baseAddress! + Int(tokens[cursor].start) + 1, wanted.baseAddress!, wanted.count) == 0 {
                            found = cursor + 1
                        }
                    } else if payload & Token.escapedFlag != 0 {
                        let start = Int(tokens[cursor].start) + 1
                        let text = Self.unescape(UnsafeRawBufferPointer(rebasing: raw[start..<(start + Int(payload & Token.lengthMask))]))
                        if text.utf8.elementsEqual(wanted) { found = cursor + 1 }
                    }
                    let value = tokens[cursor + 1].info
                    let kind = value >> 29
                    cursor = kind == objectKind || kind == arrayKind ? Int(value & Token.payloadMask) : cursor + 2
                }
                return found
            }
        }
    }

    /// The whole value at `index` as a ``JSONValue`` tree. Built with a stack of its own, not by
    /// recursion, so no depth the limits allow can overflow a thread's stack.
    func value(_ index: Int) -> JSONValue {
        switch kind(index) {
        case .null: return .null
        case .false: return .bool(false)
        case .true: return .bool(true)
        case .number: return .number(JSONNumber(uncheckedText: numberText(index)))
        case .string: return .string(string(index))
        case .array, .object: break
        }
        var stack = [OpenValue(tape: self, index)]
        while true {
            let top = stack.count - 1
            if stack[top].cursor >= stack[top].end {
                let done = stack.removeLast().value
                if stack.isEmpty { return done }
                stack[stack.count - 1].add(done)
                continue
            }
            var cursor = stack[top].cursor
            if stack[top].isObject {
                stack[top].key = string(cursor)
                cursor += 1
            }
            stack[top].cursor = next(cursor)
            switch kind(cursor) {
            case .array, .object: stack.append(OpenValue(tape: self, cursor))
            default: stack[top].add(value(cursor))
            }
        }
    }

    /// An array or object being built by ``value(_:)``.
    private struct OpenValue {
        let isObject: Bool
        let end: Int
        var cursor: Int
        var elements: [JSONValue] = []
        var members: [String: JSONValue] = [:]
        var key = ""

        init(tape: JSONTape, _ index: Int) {
            isObject = tape.kind(index) == .object
            end = tape.next(index)
            cursor = index + 1
        }

        mutating func add(_ value: JSONValue) {
            if isObject { members[key] = value } else { elements.append(value) }
        }

        var value: JSONValue { isObject ? .object(members) : .array(elements) }
    }

    /// The members of the object at `index` as a dictionary (a repeated key keeps its last value).
    func members(_ index: Int, except excluded: String? = nil) -> [String: JSONValue] {
        var members: [String: JSONValue] = [:]
        let end = next(index)
        var cursor = index + 1
        while cursor < end {
            let key = string(cursor)
            if key != excluded { members[key] = value(cursor + 1) }
            cursor = next(cursor + 1)
        }
        return members
    }

    /// A string's content with its escapes decoded; the parser has checked every escape already, and
    /// the bytes between escapes are valid UTF-8 (see ``validatedString(_:isASCII:)``), as is every
    /// scalar an escape makes (the parser refuses a lone surrogate), so the result is not checked again.
    static func unescape(_ raw: UnsafeRawBufferPointer) -> String {
        // Decoded text is never longer than its escaped form.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(raw.count, 1)) { buffer in
            var written = 0
            var offset = 0
            let count = raw.count
            func hex4(_ at: Int) -> UInt32 {
                var value: UInt32 = 0
                for index in at..<(at + 4) {
                    let byte = raw[index]
                    let digit: UInt8 = switch byte {
                    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
                    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
                    default: byte - UInt8(ascii: "A") + 10
                    }
                    value = value << 4 | UInt32(digit)
                }
                return value
            }
            @inline(__always) func put(_ byte: UInt8) {
                buffer[written] = byte
                written += 1
            }
            while offset < count {
                // The run up to the next backslash, in one copy.
                let rest = count - offset
                let found = memchr(raw.baseAddress! + offset, Int32(UInt8(ascii: "\\")), rest)
                let run = found.map { UnsafeRawPointer($0) - (raw.baseAddress! + offset) } ?? rest
                if run > 0 {
                    UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[written..<(written + run)])
                        .copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[offset..<(offset + run)]))
                    written += run
                    offset += run
                    continue
                }
                let escape = raw[offset + 1]
                offset += 2
                switch escape {
                case UInt8(ascii: "b"): put(0x08)
                case UInt8(ascii: "f"): put(0x0C)
                case UInt8(ascii: "n"): put(0x0A)
                case UInt8(ascii: "r"): put(0x0D)
                case UInt8(ascii: "t"): put(0x09)
                case UInt8(ascii: "u"):
                    var scalar = hex4(offset)
                    offset += 4
                    if (0xD800...0xDBFF).contains(scalar) {
                        let low = hex4(offset + 2)
                        offset += 6
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    for byte in UTF8.encode(Unicode.Scalar(scalar) ?? "\u{FFFD}")! { put(byte) }
                default: put(escape)  // " \ /
                }
            }
            return validatedString(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer)[0..<written]))
        }
    }
}
