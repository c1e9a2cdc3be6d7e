import Foundation
import RecoKit

/// What a click-through link carries, signed: the block and product clicked, for whom, where to go, until when.
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
    /// The visitor the page was rendered for.
    public var visitor: String
    /// Where the click goes: the product's URL as the vendor sent it (already checked safe).
    public var destination: String
    /// The token is refused after this moment.
    public var expires: Date

    /// A token's content.
    public init(vendor: Vendor, instanceId: String, interactionId: String, productId: String, position: Int,
                visitor: String, destination: String, expires: Date) {
        self.vendor = vendor
        self.instanceId = instanceId
        self.interactionId = interactionId
        self.productId = productId
        self.position = position
        self.visitor = visitor
        self.destination = destination
        self.expires = expires
    }

    /// The payload as JSON with sorted keys (what is signed).
    var json: String {
        JSONWriter.string(.object([
            "v": .string(vendor.rawValue), "i": .string(instanceId), "a": .string(interactionId), "p": .string(productId),
            "n": .number(JSONNumber(position)), "u": .string(visitor), "d": .string(destination),
            "e": .number(JSONNumber(Int(expires.timeIntervalSince1970.rounded(.down)))),
        ]))
    }

    /// Reads a payload written by ``json``; nil when any field is missing or of the wrong kind.
    init?(json: JSONValue) {
        guard let vendor = json["v"]?.stringValue, let instanceId = json["i"]?.stringValue,
              let interactionId = json["a"]?.stringValue, let productId = json["p"]?.stringValue,
              let position = json["n"]?.intValue, let visitor = json["u"]?.stringValue,
              let destination = json["d"]?.stringValue, let expires = json["e"]?.intValue else { return nil }
        self.init(vendor: Vendor(rawValue: vendor), instanceId: instanceId, interactionId: interactionId, productId: productId,
                  position: position, visitor: visitor, destination: destination,
                  expires: Date(timeIntervalSince1970: TimeInterval(expires)))
    }
}
