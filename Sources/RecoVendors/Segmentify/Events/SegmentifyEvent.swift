import Foundation
import RecoKit

/// One of Segmentify's events (page view, product view, basket operation, checkout, user operation,
/// user change, custom event, search): a value that validates itself as the guide says and becomes a
/// ``VendorEvent`` the tracker journals and sends in the same batches as interactions.
///
/// ```swift
/// let view = SegmentifyProductView(productId: "25799860937", title: "Asymmetric Dress in Black",
///                                  url: "https://shop.example/products/asymmetric-dress-black",
///                                  image: "//cdn.shop.example/dress.jpg", category: "Womenswear",
///                                  price: 578, common: common)
/// try tracker.track(view.interaction())
/// ```
///
/// Events are values: copying one and changing the copy leaves the original as it was, so nothing of
/// one event can leak into the next (the official SDKs reuse one mutable object).
public protocol SegmentifyEvent: Sendable, Hashable {
    /// The event's name on the wire (`PRODUCT_VIEW`).
    static var eventName: String { get }
    /// The prefix of field names in errors (`productView`).
    static var fieldPrefix: String { get }
    /// The fields every event shares.
    var common: SegmentifyCommonFields { get set }
    /// The event's own fields, validated; the common fields are added by ``vendorEvent()``.
    /// - Throws: ``SegmentifyEventError`` naming the first field the guide refuses.
    func eventFields() throws(SegmentifyEventError) -> [String: JSONValue]
    /// The context the event is sent with; ``common``'s by default.
    var wireContext: InteractionContext { get }
}

extension SegmentifyEvent {
    /// The common fields as the tracker's context.
    public var wireContext: InteractionContext { common.context }

    /// The event checked and packed for the tracker: its name and fields (with `sdkVersion` and `appVersion`).
    /// - Throws: ``SegmentifyEventError`` naming the first field the guide refuses.
    public func vendorEvent() throws(SegmentifyEventError) -> VendorEvent {
        try common.validate(in: Self.fieldPrefix)
        var fields = try eventFields()
        if let sdkVersion = common.sdkVersion { fields["sdkVersion"] = .string(sdkVersion) }
        if let appVersion = common.appVersion { fields["appVersion"] = .string(appVersion) }
        return VendorEvent(vendor: .segmentify, name: Self.eventName, fields: fields)
    }

    /// The event as an interaction for ``RecoTracking/Tracker/track(_:)``.
    /// - Throws: ``SegmentifyEventError`` naming the first field the guide refuses.
    public func interaction(occurred: Date = Date()) throws(SegmentifyEventError) -> Interaction {
        Interaction.vendorEvent(try vendorEvent(), context: wireContext, occurred: occurred)
    }

    /// The event's JSON object as Segmentify receives it (without the tracker's `params.eventId`).
    /// - Throws: ``SegmentifyEventError`` naming the first field the guide refuses.
    public func json() throws(SegmentifyEventError) -> JSONValue {
        SegmentifyEventJSON.object(try vendorEvent(), context: wireContext, eventId: nil)
    }
}
