/// A vendor's own event, carried whole through the tracker: its name and its fields as JSON.
///
/// The tracking engine journals and batches it like any interaction; the destination of
/// ``vendor`` writes it in its wire format at send time (Segmentify: `name`, then the common
/// fields of the ``Interaction/context``, then ``fields``). Destinations of other vendors refuse it.
///
/// Build these with a vendor's event builders (for example Segmentify's `SegmentifyProductView`)
/// rather than by hand; the builders validate what the vendor's guide requires.
public struct VendorEvent: Sendable, Hashable {
    /// The vendor whose destination may deliver the event.
    public var vendor: Vendor
    /// The event's name on the wire (Segmentify `PRODUCT_VIEW`).
    public var name: String
    /// The event's own fields, written as they are after the common fields.
    public var fields: [String: JSONValue]

    /// An event of `vendor` named `name` with its own fields.
    public init(vendor: Vendor, name: String, fields: [String: JSONValue] = [:]) {
        self.vendor = vendor
        self.name = name
        self.fields = fields
    }
}
