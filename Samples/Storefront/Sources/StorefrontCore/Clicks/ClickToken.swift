import Foundation
import RecoKit

/// What a click-through link carries, signed: the block and product clicked, where to go, until when.
///
/// It names no visitor: the same rendered block (and so the same links) may be shown to many visitors
/// when blocks are cached, and a click is credited to whoever clicks, as their cookies say.
public struct ClickToken: Sendable, Hashable {
    /// Who sent the block.
    public var vendor: Vendor
    /// The block's instance id.
    public var instanceId: String
    /// The block's interaction id.
    public var interactionId: String
    /// The product clicked.
    public var productId: String
    /// Its 1-based position in the block.
    public var position: Int
    /// Where the click goes: the product's URL as the vendor sent it (already checked safe).
    public var destination: String
    /// The token is refused after this moment.
    public var expires: Date

    /// A token's content.
    public init(vendor: Vendor, instanceId: String, interactionId: String, productId: String, position: Int,
                destination: String, expires: Date) {
        self.vendor = vendor
        self.instanceId = instanceId
        self.interactionId = interactionId
        self.productId = productId
        self.position = position
        self.destination = destination
        self.expires = expires
    }

    /// The payload (what is signed): `1` then each field as `length:text` (UTF-8 byte length), in a fixed
    /// order; a length prefix keeps any text, separators included, unambiguous.
    var payload: [UInt8] {
        var bytes: [UInt8] = [UInt8(ascii: "1")]
        bytes.reserveCapacity(64 + destination.utf8.count + instanceId.utf8.count + interactionId.utf8.count + productId.utf8.count)
        for field in [vendor.rawValue, instanceId, interactionId, productId, String(position), destination,
                      String(Self.wholeSeconds(expires))] {
            bytes.append(contentsOf: String(field.utf8.count).utf8)
            bytes.append(UInt8(ascii: ":"))
            bytes.append(contentsOf: field.utf8)
        }
        return bytes
    }

    /// Reads a payload written by ``payload``; nil when it is not exactly that shape.
    init?(payload: [UInt8]) {
        guard payload.first == UInt8(ascii: "1") else { return nil }
        var fields: [String] = []
        var index = 1
        while index < payload.count {
            var length = 0
            while index < payload.count, let digit = payload[index].asciiDigit, length < 100_000 {
                length = length * 10 + digit
                index += 1
            }
            guard index < payload.count, payload[index] == UInt8(ascii: ":"), payload.count - index - 1 >= length else { return nil }
            index += 1
            fields.append(String(decoding: payload[index..<index + length], as: UTF8.self))
            index += length
        }
        guard fields.count == 7, let position = Int(fields[4]), let expires = Int(fields[6]) else { return nil }
        self.init(vendor: Vendor(rawValue: fields[0]), instanceId: fields[1], interactionId: fields[2], productId: fields[3],
                  position: position, destination: fields[5], expires: Date(timeIntervalSince1970: TimeInterval(expires)))
    }
}

extension ClickToken {
    /// Whole seconds since 1970, clamped to ±10^12 (a date no token lives to; no trap on any `Date`).
    static func wholeSeconds(_ date: Date) -> Int {
        let seconds = date.timeIntervalSince1970
        guard seconds.isFinite else { return 0 }
        return Int(min(max(seconds, -1e12), 1e12).rounded(.down))
    }
}

extension UInt8 {
    fileprivate var asciiDigit: Int? { self >= 48 && self <= 57 ? Int(self - 48) : nil }
}
