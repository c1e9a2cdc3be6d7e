import CRecoEscaping
import Foundation
import RecoKit

/// A request body written in one pass into one byte buffer: JSON literals, string fields copied from
/// journal records (escaped as ``JSONWriter`` escapes them), event ids and times, without a `String`
/// or a dictionary per event.
///
/// An encoder asks for room for one record's object (``room(for:extra:)``) and writes it through the
/// ``Cursor`` that ``write(room:_:)`` lends, reading the record's fields with
/// ``EventRecord/withFields(_:)``; ``finish()`` hands the bytes over as `Data` without a copy.
public struct BodyWriter: Sendable {
    /// The buffer; only its first ``count`` bytes are written (and ever read).
    @usableFromInline var storage: [UInt8]
    /// Bytes written.
    public var count: Int { length }
    @usableFromInline var length: Int

    /// An empty body with room for `capacity` bytes.
    public init(capacity: Int) {
        storage = Self.uninitialized(max(64, capacity))
        length = 0
    }

    /// A buffer of `count` bytes left as the allocator gives them: every byte is written before it is read
    /// (only the first `length` are ever read), so filling it with zeros first would be wasted work.
    @usableFromInline static func uninitialized(_ count: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
    }

    @usableFromInline mutating func grow(to needed: Int) {
        var larger = Self.uninitialized(max(needed, storage.count * 2))
        let written = length
        storage.withUnsafeBufferPointer { old in
            larger.withUnsafeMutableBufferPointer { new in new.baseAddress!.update(from: old.baseAddress!, count: written) }
        }
        storage = larger
    }

    /// What is written so far.
    public var written: [UInt8] { Array(storage[..<length]) }

    /// The body as `Data` (a copy; ``finish()`` hands over the buffer instead).
    public var data: Data { storage.withUnsafeBufferPointer { Data(bytes: $0.baseAddress!, count: length) } }

    /// The body as `Data` without copying it (the `Data` keeps the buffer alive); the writer is empty afterwards.
    public mutating func finish() -> Data {
        let buffer = storage
        let count = length
        storage = []
        length = 0
        // The array is never written again; the deallocator holds it, so its bytes outlive the `Data`.
        return buffer.withUnsafeBufferPointer { bytes in
            Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: bytes.baseAddress!), count: count,
                 deallocator: .custom { _, _ in withExtendedLifetime(buffer) {} })
        }
    }

    /// Room that any one record's object needs, however its fields are escaped: six bytes for each of
    /// its bytes (`\u00XX`) and `extra` for keys, literals, ids and times.
    @inlinable public static func room(for record: EventRecord, extra: Int = 512) -> Int { record.ownByteCount * 6 + extra }

    /// Runs `body` with a cursor that may write up to `room` bytes (the caller's bound; not checked).
    @inlinable public mutating func write(room: Int, _ body: (inout Cursor) -> Void) {
        if length + room > storage.count { grow(to: length + room) }
        let start = length
        length = storage.withUnsafeMutableBufferPointer { buffer in
            var cursor = Cursor(base: buffer.baseAddress!, index: start)
            body(&cursor)
            return cursor.index
        }
    }

    /// Appends literal text.
    public mutating func append(_ text: StaticString) {
        write(room: text.utf8CodeUnitCount) { $0.append(text) }
    }

    /// Appends one byte.
    public mutating func append(byte: UInt8) {
        write(room: 1) { $0.append(byte: byte) }
    }

    /// Appends bytes as they are.
    public mutating func append(contentsOf bytes: some Collection<UInt8>) {
        write(room: bytes.count) { cursor in for byte in bytes { cursor.append(byte: byte) } }
    }

    /// Appends text's UTF-8 as it is (JSON another writer made).
    public mutating func append(text: String) {
        var text = text
        text.withUTF8 { utf8 in write(room: utf8.count) { $0.append(utf8) } }
    }

    /// Appends `text` as a JSON string, quotes included, escaped as ``JSONWriter`` escapes it.
    public mutating func appendJSONString(_ text: String) {
        var copy = text
        copy.withUTF8 { utf8 in
            write(room: utf8.count * 6 + 2) { cursor in cursor.appendJSONString(utf8) }
        }
    }

    /// Where the next bytes go, inside ``BodyWriter/write(room:_:)``.
    public struct Cursor {
        @usableFromInline let base: UnsafeMutablePointer<UInt8>
        @usableFromInline var index: Int

        @inlinable init(base: UnsafeMutablePointer<UInt8>, index: Int) {
            self.base = base
            self.index = index
        }

        /// Where the next byte goes: its offset in the body.
        @inlinable public var offset: Int { index }

        /// Appends a copy of bytes the body already holds (`range`: offsets in the body, before ``offset``).
        @inlinable public mutating func appendWritten(_ range: Range<Int>) {
            copy(from: UnsafePointer(base + range.lowerBound), count: range.count)
        }

        /// Overwrites one byte written already (`offset`: its offset in the body, before ``offset``).
        @inlinable public mutating func replace(at offset: Int, with byte: UInt8) {
            base[offset] = byte
        }

        /// One byte.
        @inlinable public mutating func append(byte: UInt8) {
            base[index] = byte
            index += 1
        }

        /// Literal text. Inlined with its address and length known, so a key is copied by stores of
        /// constant words, not by a call.
        @inlinable @inline(__always) public mutating func append(_ text: StaticString) {
            if text.hasPointerRepresentation {
                copy(from: text.utf8Start, count: text.utf8CodeUnitCount)
            } else {
                text.withUTF8Buffer { append($0) }
            }
        }

        /// Bytes as they are.
        @inlinable public mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard let start = bytes.baseAddress else { return }
            copy(from: start, count: bytes.count)
        }

        /// Copies short runs (field values, keys) eight bytes at a time, inline; long ones with `memcpy`.
        @inlinable @inline(__always) mutating func copy(from source: UnsafePointer<UInt8>, count: Int) {
            let destination = base + index
            if count >= 8, count <= 64 {
                let from = UnsafeRawPointer(source)
                let to = UnsafeMutableRawPointer(destination)
                var offset = 0
                while offset + 8 <= count {
                    to.storeBytes(of: from.loadUnaligned(fromByteOffset: offset, as: UInt64.self), toByteOffset: offset, as: UInt64.self)
                    offset += 8
                }
                if offset < count {
                    // The last eight bytes, overlapping what is copied already.
                    to.storeBytes(of: from.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self), toByteOffset: count - 8, as: UInt64.self)
                }
            } else if count < 8 {
                for offset in 0..<count { destination[offset] = source[offset] }
            } else {
                destination.update(from: source, count: count)
            }
            index += count
        }

        /// UTF-8 as a JSON string literal (with quotes); `""` when nil.
        @inlinable public mutating func appendJSONString(_ utf8: UnsafeBufferPointer<UInt8>?) {
            append(byte: UInt8(ascii: "\""))
            if let utf8 { appendEscaped(utf8) }
            append(byte: UInt8(ascii: "\""))
        }

        /// UTF-8 escaped for a JSON string (no quotes): `"`, `\` and control characters escaped as
        /// ``JSONWriter/writeString(_:to:)`` escapes them, the rest as it is.
        ///
        /// Up to 16 bytes with nothing to escape (most fields: ids, codes) are checked and copied inline, a
        /// word or two; the rest goes to `CRecoEscaping`, sixteen bytes at a time on x86-64 (SSE2), eight
        /// elsewhere. The cursor's room must hold six bytes for each byte and 16 more
        /// (``BodyWriter/room(for:extra:)`` always does): block stores may write up to 16 bytes past the
        /// escaped text.
        @inlinable public mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
            guard let source = utf8.baseAddress else { return }
            let count = utf8.count
            if count >= 8, count <= 16 {
                // Two words, overlapping when under 16 bytes.
                let from = UnsafeRawPointer(source)
                let first = from.loadUnaligned(as: UInt64.self)
                let last = from.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
                if !Self.needsEscape(first), !Self.needsEscape(last) {
                    let to = UnsafeMutableRawPointer(base + index)
                    to.storeBytes(of: first, as: UInt64.self)
                    to.storeBytes(of: last, toByteOffset: count - 8, as: UInt64.self)
                    index += count
                    return
                }
            } else if count < 8, !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
                for offset in 0..<count { base[index + offset] = source[offset] }
                index += count
                return
            }
            index += reco_json_escape(base + index, source, count)
        }

        /// Whether any of the eight bytes is below 0x20, `"` or `\` (bytes from 0x80 up never are).
        @inlinable static func needsEscape(_ word: UInt64) -> Bool {
            let ones: UInt64 = 0x0101_0101_0101_0101
            let highs: UInt64 = 0x8080_8080_8080_8080
            func hasZero(_ value: UInt64) -> Bool { (value &- ones) & ~value & highs != 0 }
            let below = (word &- ones &* 0x20) & ~word & highs != 0
            return below || hasZero(word ^ (ones &* 0x22)) || hasZero(word ^ (ones &* 0x5C))
        }

        /// An event id as ``EventID/description`` writes it (`3f9a1c2b7d4e5f60-42`), without quotes.
        @inlinable public mutating func append(_ id: EventID) {
            let to = UnsafeMutableRawPointer(base + index)
            to.storeBytes(of: Self.hex(UInt32(truncatingIfNeeded: id.run >> 32)).littleEndian, as: UInt64.self)
            to.storeBytes(of: Self.hex(UInt32(truncatingIfNeeded: id.run)).littleEndian, toByteOffset: 8, as: UInt64.self)
            index += 16
            append(byte: UInt8(ascii: "-"))
            appendDecimal(id.sequence)
        }

        /// The eight lower-case hex digits of `value`, most significant first in memory order (little endian).
        @inlinable static func hex(_ value: UInt32) -> UInt64 {
            // One nibble per byte, least significant first, then reversed.
            var spread = UInt64(value)
            spread = (spread | spread << 16) & 0x0000_FFFF_0000_FFFF
            spread = (spread | spread << 8) & 0x00FF_00FF_00FF_00FF
            spread = (spread | spread << 4) & 0x0F0F_0F0F_0F0F_0F0F
            spread = spread.byteSwapped
            let letters = ((spread &+ 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101
            return spread &+ 0x3030_3030_3030_3030 &+ letters &* 0x27
        }

        /// A number in decimal.
        @inlinable public mutating func appendDecimal(_ number: UInt64) {
            var digits = 1
            var limit: UInt64 = 10
            while digits < 20, number >= limit {
                digits += 1
                limit = limit &* 10
            }
            var value = number
            for offset in stride(from: digits - 1, through: 0, by: -1) {
                base[index + offset] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
            }
            index += digits
        }

        /// The time as ``InteractionTime/iso8601(_:)`` writes it (`2024-05-01T12:34:56Z`), without quotes.
        public mutating func appendISO8601(milliseconds: Int64) {
            // The same rounding as the event's `Date` gives (seconds since 1970, rounded down).
            let date = RecordWriter.date(milliseconds: milliseconds)
            let (year, month, day, secondOfDay) = InteractionTime.calendarFields(secondsSince1970: Int64(date.timeIntervalSince1970.rounded(.down)))
            guard (0...9999).contains(year) else {
                var text = InteractionTime.iso8601(date) // at most 32 bytes: within any record's room
                text.withUTF8 { append($0) }
                return
            }
            func two(_ value: Int64, then separator: UInt8?) {
                append(byte: UInt8(ascii: "0") + UInt8(value / 10))
                append(byte: UInt8(ascii: "0") + UInt8(value % 10))
                if let separator { append(byte: separator) }
            }
            two(year / 100, then: nil)
            two(year % 100, then: UInt8(ascii: "-"))
            two(month, then: UInt8(ascii: "-"))
            two(day, then: UInt8(ascii: "T"))
            two(secondOfDay / 3600, then: UInt8(ascii: ":"))
            two(secondOfDay / 60 % 60, then: UInt8(ascii: ":"))
            two(secondOfDay % 60, then: UInt8(ascii: "Z"))
        }
    }

    /// Whether a field's bytes start with `prefix`.
    @inlinable public static func bytes(_ field: UnsafeBufferPointer<UInt8>?, havePrefix prefix: StaticString) -> Bool {
        prefix.withUTF8Buffer { wanted in
            guard let field, field.count >= wanted.count else { return wanted.isEmpty }
            return wanted.isEmpty || memcmp(field.baseAddress!, wanted.baseAddress!, wanted.count) == 0
        }
    }
}
