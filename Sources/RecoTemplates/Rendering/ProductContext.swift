import Foundation

/// What a template sees for one product: every raw field the vendor sent, plus computed values.
///
/// Values are read from the ``WidgetItem``'s raw product when a template asks for them; no dictionary
/// is built per product. The prices, the display name and the safe links are worked out once, when the
/// context is made, because templates ask for them, some more than once. A computed name wins over a
/// raw field of the same name.
///
/// Every text a template sees here is on one line (``DisplayText``): CR, LF and the other control
/// characters in a vendor's value become a space, so no value can forge a line of a text rendering.
///
/// | key | value |
/// |---|---|
/// | any raw field | as sent (`{{brand}}`, `{{params.color}}`, `{{#categories}}…{{/categories}}`) |
/// | `productId` | the product's id, as text (tracking: `data-reco-product-id`) |
/// | `position` | 1-based position in the block (tracking: `data-reco-position`) |
/// | `first`, `last` | whether this is the first / last product of the block |
/// | `displayName` | `name`, else `title`, else the product id |
/// | `link` | `url`, else `productUrl`, `link`, `mUrl`: the first non-blank one, if ``SafeLink`` allows it (a `//host` link gets `https:`); the ``clickURL`` instead when one is set |
/// | `productLink` | the product's own link, as `link` would be without a ``clickURL`` |
/// | `imageSource` | like `link`, from `image`, else `imageUrl`, `imageM`, `imageL`, `imageS`, `imageXL`, `imageXS`, `image_url`, `picture` |
/// | `displayPrice` | see ``ProductPrice``: `priceText`, else `price` formatted for its currency |
/// | `hasDiscount` | true when `oldPrice` is greater than `price` |
/// | `displayOldPrice` | the old price as shown, when there is a discount |
/// | `discountPercent` | the discount in whole percent, when there is one |
public struct ProductContext: TemplateContext {
    /// The product as the vendor sent it.
    public let raw: RawProduct
    /// 1-based position in the block.
    public let position: Int
    /// How many products the block has.
    public let count: Int
    /// The currency assumed for a product without a `currency` field.
    public let defaultCurrency: String?
    /// The product's prices.
    public let price: ProductPrice
    /// What `link` writes instead of the product's own link (a click redirect), when set; see ``ClickLink``.
    public let clickURL: String?
    private let displayName: String
    private let ownLink: TemplateValue
    private let imageSource: TemplateValue

    /// The context of one product of a block of `count` products.
    /// - Parameter clickURL: what `link` writes instead of the product's own link (nil: the product's link).
    public init(raw: RawProduct, position: Int, count: Int, defaultCurrency: String? = nil, clickURL: String? = nil) {
        self.raw = raw
        self.position = position
        self.count = count
        self.defaultCurrency = defaultCurrency
        self.price = ProductPrice(raw, defaultCurrency: defaultCurrency)
        self.displayName = DisplayText.singleLine(Self.firstText(of: ["name", "title"], in: raw) ?? raw.productId)
        self.clickURL = clickURL
        self.ownLink = Self.safeLink(from: Self.linkFields, in: raw)
        self.imageSource = Self.safeLink(from: Self.imageFields, in: raw)
    }

    /// The context of an item of a widget.
    public init<P>(_ item: WidgetItem<P>, in widget: Widget<P>, defaultCurrency: String? = nil) {
        self.init(raw: item.raw, position: item.position, count: widget.items.count, defaultCurrency: defaultCurrency)
    }

    /// The keys computed from the raw fields, in the order of the table above.
    public static let computedKeys: [String] = [
        "productId", "position", "first", "last", "displayName", "link", "productLink", "imageSource",
        "displayPrice", "hasDiscount", "displayOldPrice", "discountPercent",
    ]

    static let linkFields = ["url", "productUrl", "link", "mUrl"]
    static let imageFields = ["image", "imageUrl", "imageM", "imageL", "imageS", "imageXL", "imageXS", "image_url", "picture"]

    /// The value a template sees under `key` for the product; nil lets the lookup continue down the stack.
    public func value(forKey key: String) -> TemplateValue? {
        guard let computed = ComputedKey(key) else { return raw.field(named: key).map { TemplateValue(DisplayText.singleLine($0)) } }
        switch computed {
        case .productId: return .string(DisplayText.singleLine(raw.productId))
        case .position: return .number(JSONNumber(position))
        case .first: return .bool(position == 1)
        case .last: return .bool(position == count)
        case .displayName: return .string(displayName)
        case .link: return clickURL.map(TemplateValue.string) ?? ownLink
        case .productLink: return ownLink
        case .imageSource: return imageSource
        case .displayPrice: return price.text.map { .string(DisplayText.singleLine($0)) } ?? .null
        case .hasDiscount: return .bool(price.oldText != nil)
        case .displayOldPrice: return price.oldText.map { .string(DisplayText.singleLine($0)) } ?? .null
        case .discountPercent: return price.discountPercent.map { .number(JSONNumber($0)) } ?? .null
        }
    }

    /// The product's own link as `productLink` gives it: the first non-blank link field that ``SafeLink`` allows.
    static func productLink(in raw: RawProduct) -> String? {
        guard case .string(let link) = safeLink(from: linkFields, in: raw) else { return nil }
        return link
    }

    private static func safeLink(from fields: [String], in raw: RawProduct) -> TemplateValue {
        guard let link = firstText(of: fields, in: raw), SafeLink.isAllowed(link) else { return .null }
        return .string(DisplayText.singleLine(absolute(link)))
    }

    private static func firstText(of fields: [String], in raw: RawProduct) -> String? {
        for field in fields {
            if case .string(let text)? = raw.field(named: field), let trimmed = DisplayText.trimmed(text) { return trimmed }
        }
        return nil
    }

    /// A protocol-relative link (`//cdn.example.com/a.jpg`, as Segmentify sends) made absolute with
    /// https, so it also works in e-mail and plain text.
    static func absolute(_ link: String) -> String {
        link.hasPrefix("//") ? "https:" + link : link
    }
}

/// The names ``ProductContext`` computes, told apart by length first, so that a raw field's name is
/// compared with at most three of them.
private enum ComputedKey {
    case productId, position, first, last, displayName, link, imageSource, displayPrice, hasDiscount, displayOldPrice
    case discountPercent, productLink

    init?(_ key: String) {
        switch key.utf8.count {
        case 4 where key == "last": self = .last
        case 4 where key == "link": self = .link
        case 5 where key == "first": self = .first
        case 8 where key == "position": self = .position
        case 9 where key == "productId": self = .productId
        case 11 where key == "displayName": self = .displayName
        case 11 where key == "imageSource": self = .imageSource
        case 11 where key == "hasDiscount": self = .hasDiscount
        case 11 where key == "productLink": self = .productLink
        case 12 where key == "displayPrice": self = .displayPrice
        case 15 where key == "displayOldPrice": self = .displayOldPrice
        case 15 where key == "discountPercent": self = .discountPercent
        default: return nil
        }
    }
}
