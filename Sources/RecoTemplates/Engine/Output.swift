/// The text a render writes, kept so that adding a piece is cheap.
///
/// Appending to a `String` costs a few hundred instructions a call, whatever the length, and a render makes
/// hundreds of small appends (a value, the markup after it, the next value…). So ASCII pieces, which are
/// nearly all of them, are added to a byte buffer instead, escaped in place, and moved into the string in
/// one piece when a non-ASCII piece comes (which is appended to the string as it is) or the render ends.
/// Moving bytes into a string validates them as UTF-8, which for ASCII is a quick check; keeping non-ASCII
/// text out of the buffer keeps it so.
///
/// Each non-ASCII piece costs a move, though, so when they come thick (text in Turkish or Russian
/// throughout), the output goes back to appending every piece to the string, as a plain builder would.
struct Output {
    /// What is written, up to the bytes still waiting in ``pending``.
    private var text = ""
    /// ASCII bytes written since the last move into ``text``: the first ``pendingCount`` bytes. The buffer
    /// is made once per render; when it is full, its bytes move into ``text``.
    private var pending: [UInt8]
    private var pendingCount = 0
    /// How large the whole text is expected to be.
    private let capacity: Int
    /// Whether every piece now goes straight to ``text`` (see ``readyText(for:)``).
    private var isDirect = false
    /// Bytes written so far (counted when they reach ``text``), and how many pieces were non-ASCII.
    private var writtenCount = 0
    private var nonASCIICount = 0

    /// The size of the byte buffer: large enough that moving bytes into the string is rare, small enough
    /// to be cheap to make.
    private static let bufferSize = 2048

    init(capacity: Int) {
        self.capacity = capacity
        pending = [UInt8](repeating: 0, count: min(max(capacity, 64), Self.bufferSize))
    }

    /// Writes text known to be ASCII (as the static text of a template mostly is, checked when compiled).
    @inline(__always)
    mutating func write(ascii string: String) {
        if isDirect || string.utf8.withContiguousStorageIfAvailable({ append($0) }) == nil {
            appendToText(string)
        }
    }

    /// Writes text as it is.
    mutating func write(_ string: String) {
        if !isDirect {
            let written = string.utf8.withContiguousStorageIfAvailable { (bytes) -> Bool in
                guard Self.isASCII(bytes) else { return false }
                append(bytes)
                return true
            }
            if written == true { return }
        }
        appendToText(string)
    }

    /// Writes text escaped for HTML text and quoted attribute values, or with `unquoted` for unquoted
    /// attribute values, exactly as ``HTMLEscaping/append(_:to:)`` and ``HTMLEscaping/appendUnquoted(_:to:)``.
    mutating func write(escaping string: String, unquoted: Bool) {
        if !isDirect {
            let mask = unquoted ? HTMLEscaping.unquotedMask : HTMLEscaping.textMask
            let written = string.utf8.withContiguousStorageIfAvailable { (bytes) -> Bool in
                guard Self.isASCII(bytes) else { return false }
                var runStart = 0
                while let index = HTMLEscaping.firstEscape(in: bytes, from: runStart, mask: mask, backquote: unquoted) {
                    append(UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                    let (packed, count) = HTMLEscaping.packedEntity(bytes[index])
                    withUnsafeBytes(of: packed.littleEndian) { append(UnsafeBufferPointer(rebasing: $0.bindMemory(to: UInt8.self)[..<count])) }
                    runStart = index + 1
                }
                append(UnsafeBufferPointer(rebasing: bytes[runStart...]))
                return true
            }
            if written == true { return }
        }
        appendToText(escaping: string, unquoted: unquoted)
    }

    /// Writes through a function that appends to a string (for the rare rules that have no byte path).
    mutating func write(_ body: (inout String) -> Void) {
        moveIntoText()
        prepareText()
        body(&text)
    }

    /// How many bytes (UTF-8) have been written.
    var byteCount: Int { text.utf8.count + pendingCount }

    /// The whole text written.
    mutating func finish() -> String {
        moveIntoText()
        return text
    }

    /// Adds bytes to ``pending``.
    @inline(__always)
    private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        if pendingCount + bytes.count > pending.count {
            moveIntoText()
            if bytes.count > pending.count { pending.append(contentsOf: repeatElement(0, count: bytes.count - pending.count)) }
        }
        let start = pendingCount
        let end = start + bytes.count
        pending.withUnsafeMutableBufferPointer { target in
            (target.baseAddress! + start).update(from: source, count: bytes.count)
        }
        pendingCount = end
    }

    /// Gives ``text`` the capacity the whole text needs before the first string is appended to it.
    private mutating func prepareText() {
        if text.isEmpty { text.reserveCapacity(capacity) }
    }

    /// Appends a piece to ``text`` directly (it is not ASCII, or pieces now all go there).
    private mutating func appendToText(_ string: String) {
        if !isDirect { readyText(for: string) }
        text.append(string)
    }

    /// Appends a piece to ``text`` directly, escaped.
    private mutating func appendToText(escaping string: String, unquoted: Bool) {
        if !isDirect { readyText(for: string) }
        if unquoted { HTMLEscaping.appendUnquoted(string, to: &text) } else { HTMLEscaping.append(string, to: &text) }
    }

    /// Readies ``text`` for a piece appended to it while pieces still go to the buffer (so a non-ASCII one),
    /// and counts the piece: once non-ASCII pieces
    /// come more often than one per hundred bytes (each costs about as much as a hundred bytes of
    /// validation), every later piece goes straight to ``text``.
    private mutating func readyText(for string: String) {
        moveIntoText()
        prepareText()
        nonASCIICount += 1
        writtenCount += string.utf8.count
        if nonASCIICount >= 8, nonASCIICount * 100 > writtenCount { isDirect = true }
    }

    /// Moves the waiting bytes into ``text``: the first time into a string made with the capacity the
    /// whole text needs, later by appending a string of them.
    private mutating func moveIntoText() {
        guard pendingCount > 0 else { return }
        let count = pendingCount
        pending.withUnsafeBufferPointer { buffer in
            let bytes = UnsafeBufferPointer(rebasing: buffer[..<count])
            if text.isEmpty {
                text = String(unsafeUninitializedCapacity: max(capacity, count)) { target in
                    _ = target.initialize(fromContentsOf: bytes)
                    return count
                }
            } else {
                text.append(String(decoding: bytes, as: UTF8.self))
            }
        }
        writtenCount += count
        pendingCount = 0
    }

    /// Whether every byte is ASCII, eight at a time.
    @inline(__always)
    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        var index = 0
        while index + 8 <= bytes.count {
            if raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
            index += 8
        }
        while index < bytes.count {
            if bytes[index] >= 0x80 { return false }
            index += 1
        }
        return true
    }
}
