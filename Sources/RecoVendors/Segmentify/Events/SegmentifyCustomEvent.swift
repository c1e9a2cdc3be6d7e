import Foundation
import RecoKit

/// Segmentify `CUSTOM_EVENT`: any visitor action Segmentify has no event for, named by `type`, with
/// free parameters.
///
/// ```swift
/// let filter = SegmentifyCustomEvent(type: "price_filter", params: ["PRICE": "200-500"], common: common)
/// ```
///
/// The event's `params` are sent in the same `params` object as ``SegmentifyCommonFields/params``; on a
/// shared key the event's value wins.
public struct SegmentifyCustomEvent: SegmentifyEvent {
    /// The wire name, `CUSTOM_EVENT`.
    public static let eventName = "CUSTOM_EVENT"
    /// Errors name fields as `customEvent.<field>`.
    public static let fieldPrefix = "customEvent"

    /// The event's type (mandatory); use the same type for the same action.
    public var type: String
    /// Free parameters.
    public var params: [String: JSONValue]
    /// The fields every event shares.
    public var common: SegmentifyCommonFields

    /// A custom event.
    public init(type: String, params: [String: JSONValue] = [:], common: SegmentifyCommonFields) {
        self.type = type
        self.params = params
        self.common = common
    }

    /// The event\'s own fields, checked against the guide.
    public func eventFields() throws(SegmentifyEventError) -> [String: JSONValue] {
        try SegmentifyFieldRules.text(type, "customEvent.type")
        if let key = params.keys.sorted().first(where: { $0.trimmingCharacters(in: .whitespaces).isEmpty }) {
            throw .invalid("customEvent.params", must: "have non-blank keys", got: SegmentifyFieldRules.quoted(key))
        }
        var fields: [String: JSONValue] = ["type": .string(type)]
        if !params.isEmpty { fields["params"] = .object(params) }
        return fields
    }
}
