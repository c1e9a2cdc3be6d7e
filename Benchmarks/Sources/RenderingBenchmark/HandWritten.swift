import RecoTemplates

/// The block written by hand into one `String`, escaping exactly as RecoKit does: the ceiling a
/// template engine is measured against.
enum HandWritten {
    static func render() -> String {
        var out = ""
        out.reserveCapacity(12_288)
        let widget = Block.widget
        out += #"<section class="reco" data-reco-vendor=""#
        HTMLEscaping.append(widget.vendor, to: &out)
        out += #"" data-reco-instance-id=""#
        HTMLEscaping.append(widget.instanceId, to: &out)
        out += #"" data-reco-interaction-id=""#
        HTMLEscaping.append(widget.interactionId, to: &out)
        out += #"" aria-labelledby="reco-"#
        HTMLEscaping.append(widget.instanceId, to: &out)
        out += "\">\n<h2 id=\"reco-"
        HTMLEscaping.append(widget.instanceId, to: &out)
        out += "\">"
        HTMLEscaping.append(widget.title, to: &out)
        out += "</h2>\n<ol class=\"reco-items\">\n"
        for (offset, product) in Block.products.enumerated() {
            out += #"<li class="reco-item" data-reco-product-id=""#
            HTMLEscaping.append(product.productId, to: &out)
            out += #"" data-reco-position=""#
            out += String(offset + 1)
            out += "\">\n<a href=\""
            HTMLEscaping.append(HTMLEscaping.safeURL(product.url) ?? HTMLEscaping.harmlessURL, to: &out)
            out += #""><img src=""#
            HTMLEscaping.append(HTMLEscaping.safeURL(product.image) ?? HTMLEscaping.harmlessURL, to: &out)
            out += #"" alt=""#
            HTMLEscaping.append(product.name, to: &out)
            out += #"" loading="lazy" width="240" height="240"><span class="reco-name">"#
            HTMLEscaping.append(product.name, to: &out)
            out += "</span></a>\n<span class=\"reco-price\">"
            HTMLEscaping.append(product.priceText, to: &out)
            out += "</span>"
            if let old = product.oldPriceText {
                out += #"<s class="reco-old-price">"#
                HTMLEscaping.append(old, to: &out)
                out += "</s>"
            }
            out += "\n</li>\n"
        }
        out += "</ol>\n</section>\n"
        return out
    }
}
