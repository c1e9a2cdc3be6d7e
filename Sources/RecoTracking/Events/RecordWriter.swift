#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import RecoKit

/// Writes a journal record's fields through a pointer into room its caller sized exactly
/// (``size(of:)-(String?)`` per field): no growth or bounds checks on the `track` path.
struct RecordWriter {
    let base: UnsafeMutablePointer<UInt8>
    /// The bytes the caller made room for (checked once, by ``written(_:)``, not per write).
    let capacity: Int
    private(set) var index = 0

    init(base: UnsafeMutablePointer<UInt8>, capacity: Int) {
        self.base = base
        self.capacity = capacity
    }

    /// A writer over new room for a record of `size` bytes, to write the record into and hand on with
    /// ``written(_:)`` (the journal copies it into its buffer): no array is made per record. The caller
    /// frees the room (``free()``) when done with the bytes.
    ///
    /// Not `withUnsafeTemporaryAllocation`: its closure captures the caller's interaction, and the capture
    /// copies it (eleven strings retained and released, more than `malloc` and `free` cost).
    /// `malloc` itself: `allocate(capacity:)` went through the runtime's aligned allocation
    /// (`posix_memalign`, about twice the instructions) for bytes that need no alignment.
    static func room(size: Int) -> RecordWriter {
        guard let room = malloc(max(1, size)) else { fatalError("out of memory for a record of \(size) bytes") }
        return RecordWriter(base: room.assumingMemoryBound(to: UInt8.self), capacity: size)
    }

    /// Frees room made by ``room(size:)``.
    func free() {
        #if canImport(Glibc)
        Glibc.free(base)
        #else
        Darwin.free(base)
        #endif
    }

    /// The bytes written, which must be the record's whole room (`what` names the record if not: its size
    /// was summed wrong).
    func written(_ what: StaticString) -> UnsafeBufferPointer<UInt8> {
        precondition(index == capacity, "\(what)")
        return UnsafeBufferPointer(start: base, count: index)
    }

    /// A time as records hold it: whole milliseconds since 1970, rounded down, as the bits of an `Int64`.
    /// A time within what a `Date` can tell apart of a whole millisecond (a microsecond today, 0.12 ms in
    /// the year 9999) is that millisecond: a time given in milliseconds (`Date(timeIntervalSince1970:
    /// 1_716_005 / 1000)`, as a relay line's `"occurred"` and every record read back give it) can be a hair
    /// under it as a `Double`, and rounding down lost a millisecond at each trip (FuzzRelayLine found it).
    /// Trackers refuse times outside ``InteractionTime/trackable`` before writing a record; any other time
    /// (a tool's, a test's) is held to what an `Int64` holds, NaN as 0, where the conversion would trap.
    static func milliseconds(of date: Date) -> UInt64 {
        let seconds = date.timeIntervalSince1970
        let exact = seconds * 1000
        let nearest = exact.rounded()
        let millis = abs(exact - nearest) < max(0.001, seconds.ulp * 4000) ? nearest : exact.rounded(.down)
        return UInt64(bitPattern: Int64(millis.isNaN ? 0 : min(max(millis, -9.2e18), 9.2e18)))
    }

    /// The milliseconds a record can hold: those of ``InteractionTime/trackable``, the only times trackers
    /// write. A record read with any other time was not written by a tracker (damage the checksum missed,
    /// a tool's record) and is refused as damage: no vendor's format holds its time, and the event read
    /// from it would not write the same record again.
    static let trackableMilliseconds: ClosedRange<Int64> = 0...253_402_300_799_999

    /// The time a record's milliseconds since 1970 stand for: the inverse of ``milliseconds(of:)``, which
    /// takes this `Date` back to the same milliseconds (`RecordTimeTests`).
    static func date(milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// Bytes of a varint.
    static func size(of number: UInt64) -> Int { number < 0x80 ? 1 : (64 - number.leadingZeroBitCount + 6) / 7 }

    /// Bytes of a string field: its length marker and its UTF-8.
    static func size(of string: String?) -> Int {
        guard let string else { return 1 }
        return size(of: string)
    }

    /// Bytes of a string that is always there (not wrapped in an optional: that copy retains it).
    static func size(of string: String) -> Int {
        let count = string.utf8.count
        return size(of: UInt64(count) + 1) + count
    }

    /// Bytes of a context's strings as every record writes them (``strings(of:)``).
    static func size(ofStringsOf context: borrowing InteractionContext) -> Int {
        size(of: context.userId) + size(of: context.sessionId) + size(of: context.lang) + size(of: context.currency)
            + size(of: context.pageUrl) + size(of: context.region) + size(of: context.os) + size(of: context.device)
    }

    /// A context's strings in the records' order: userId, sessionId, lang, currency, pageUrl, region, os,
    /// device (its params are written apart, as JSON text).
    mutating func strings(of context: borrowing InteractionContext) {
        string(context.userId)
        string(context.sessionId)
        string(context.lang)
        string(context.currency)
        string(context.pageUrl)
        string(context.region)
        string(context.os)
        string(context.device)
    }

    mutating func byte(_ value: UInt8) {
        base[index] = value
        index += 1
    }

    /// Little endian, 8 bytes.
    mutating func fixed(_ value: UInt64) {
        UnsafeMutableRawPointer(base + index).storeBytes(of: value.littleEndian, as: UInt64.self)
        index += 8
    }

    @inline(__always)
    mutating func varint(_ number: UInt64) {
        var value = number
        while value >= 0x80 {
            byte(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        byte(UInt8(value))
    }

    /// Copies short fields byte by byte (ids, codes: a call to `memcpy` costs more), longer ones with `memcpy`.
    @inline(__always)
    private func copy(_ bytes: UnsafeBufferPointer<UInt8>, to target: UnsafeMutablePointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        if bytes.count <= 16 {
            for offset in 0..<bytes.count { target[offset] = source[offset] }
        } else {
            memcpy(target, source, bytes.count)
        }
    }

    /// A varint of (length + 1) and the UTF-8 bytes; 0 for absent.
    mutating func string(_ optional: String?) {
        guard let string = optional else { byte(0); return }
        self.string(string)
    }

    /// A string that is always there (not wrapped in an optional: that copy retains it).
    mutating func string(_ string: String) {
        let count = string.utf8.count
        varint(UInt64(count) + 1)
        let target = base + index
        // Native and small strings lend their UTF-8 as it is; others are made native first.
        let copied: Void? = string.utf8.withContiguousStorageIfAvailable { bytes in copy(bytes, to: target) }
        if copied == nil {
            var text = string
            text.withUTF8 { copy($0, to: target) }
        }
        index += count
    }
}
