/// Where a purchase happened (`source_type`): one of five values.
public enum PurchaseSourceType: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// Third-party e-commerce platforms where the products are published (Amazon Marketplace, eBay, Zalando…).
    case marketplace
    /// The retailer's own website or e-commerce app.
    case digitalStore = "digital-store"
    /// Physical stores, through a point-of-sale system.
    case pointOfSale = "point-of-sale"
    /// Distributors, retailers or partner networks that are not marketplaces.
    case thirdParty = "third-party"
    /// Channels that fit no other value (telemarketing, trade shows, social commerce…).
    case other

    /// The value for its wire text.
    /// - Throws: ``ConnectifError`` (`unknownSourceType`) listing the valid values.
    public init(parsing text: String) throws(ConnectifError) {
        guard let value = PurchaseSourceType(rawValue: text) else { throw .unknownSourceType(text) }
        self = value
    }

    public var description: String { rawValue }
}
