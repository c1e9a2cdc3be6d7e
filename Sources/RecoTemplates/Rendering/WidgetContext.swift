/// What a template sees for one block: the widget's fields and its products.
///
/// | key | value |
/// |---|---|
/// | `title`, `hasTitle` | the block's title; whether it is not blank |
/// | `instanceId`, `interactionId`, `vendor` | the tracking attributes of the block |
/// | `productCount` | how many products the block has |
/// | `products` | the products in order, each a ``ProductContext`` |
/// | `blockId` | an HTML id for the block, unique on the page (`reco-` and the instance id by default) |
/// | `includeStyles` | whether the block writes the shared `<style>` (only the first block of a page does) |
///
/// Text values (the title, the ids) are on one line, as a product's are (see ``ProductContext``).
///
/// Works for a widget of any product model: products are read from each item's raw fields. With a
/// ``ClickLink``, each product's `link` is the URL it makes (see ``ProductContext``).
public struct WidgetContext<Product: RecommendableProduct>: TemplateContext {
    /// The block.
    public let widget: Widget<Product>
    /// The HTML id of the block.
    public let blockId: String
    /// Whether the block writes the shared stylesheet.
    public let includeStyles: Bool
    /// The currency assumed for a product without a `currency` field.
    public let defaultCurrency: String?
    /// Where product links point, when not straight at the product.
    public let clickLink: ClickLink?

    /// The context of a widget.
    /// - Parameters:
    ///   - blockId: the HTML id; by default `reco-` and the instance id, reduced to letters, digits, `-` and `_`.
    ///   - includeStyles: whether the block's template writes the shared `<style>`.
    ///   - defaultCurrency: the currency code assumed for a product without a `currency` field.
    ///   - clickLink: where product links point instead of the product's own link (nil: the product's link).
    public init(_ widget: Widget<Product>, blockId: String? = nil, includeStyles: Bool = true, defaultCurrency: String? = nil,
                clickLink: ClickLink? = nil) {
        self.widget = widget
        self.blockId = blockId ?? Self.htmlId(for: widget.instanceId)
        self.includeStyles = includeStyles
        self.defaultCurrency = defaultCurrency
        self.clickLink = clickLink
    }

    /// The keys this context answers.
    public static var keys: [String] {
        ["title", "hasTitle", "instanceId", "interactionId", "vendor", "productCount", "products", "blockId", "includeStyles"]
    }

    /// The value a template sees under `key` for the block; nil lets the lookup continue down the stack.
    public func value(forKey key: String) -> TemplateValue? {
        switch key {
        case "title": .string(DisplayText.singleLine(widget.title))
        case "hasTitle": .bool(!DisplayText.isBlank(widget.title))
        case "instanceId": .string(DisplayText.singleLine(widget.instanceId))
        case "interactionId": .string(DisplayText.singleLine(widget.interactionId))
        case "vendor": .string(widget.vendor.rawValue)
        case "productCount": .number(JSONNumber(widget.items.count))
        case "products": .list(productValues)
        case "blockId": .string(blockId)
        case "includeStyles": .bool(includeStyles)
        default: nil
        }
    }

    private var productValues: [TemplateValue] {
        let count = widget.items.count
        return widget.items.map { item in
            .context(ProductContext(raw: item.raw, position: item.position, count: count, defaultCurrency: defaultCurrency,
                                    clickURL: clickURL(for: item)))
        }
    }

    private func clickURL(for item: WidgetItem<Product>) -> String? {
        guard let clickLink, let link = ProductContext.productLink(in: item.raw) else { return nil }
        return clickLink.url(for: ClickTarget(vendor: widget.vendor, instanceId: widget.instanceId, interactionId: widget.interactionId,
                                              productId: item.raw.productId, position: item.position, link: link))
    }

    /// `reco-` and the text reduced to ASCII letters, digits, `-` and `_` (anything else becomes `-`).
    public static func htmlId(for text: String) -> String {
        var id = Array("reco-".utf8)
        id.reserveCapacity(5 + text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "_"):
                id.append(byte)
            case 0x80...0xBF:
                continue  // the rest of a character already replaced at its first byte
            default:
                id.append(UInt8(ascii: "-"))  // any other character, ASCII or not, once
            }
        }
        return String(decoding: id, as: UTF8.self)
    }
}
