import Foundation

/// The 24-product block every renderer draws: the same markup, the same data, the same escaping.
enum Block {
    static let mustache = """
        <section class="reco" data-reco-vendor="{{vendor}}" data-reco-instance-id="{{instanceId}}" data-reco-interaction-id="{{interactionId}}" aria-labelledby="reco-{{instanceId}}">
        <h2 id="reco-{{instanceId}}">{{title}}</h2>
        <ol class="reco-items">
        {{#products}}
        <li class="reco-item" data-reco-product-id="{{productId}}" data-reco-position="{{position}}">
        <a href="{{url}}"><img src="{{image}}" alt="{{name}}" loading="lazy" width="240" height="240"><span class="reco-name">{{name}}</span></a>
        <span class="reco-price">{{priceText}}</span>{{#oldPriceText}}<s class="reco-old-price">{{oldPriceText}}</s>{{/oldPriceText}}
        </li>
        {{/products}}
        </ol>
        </section>

        """

    static let stencil = """
        <section class="reco" data-reco-vendor="{{ vendor|e }}" data-reco-instance-id="{{ instanceId|e }}" data-reco-interaction-id="{{ interactionId|e }}" aria-labelledby="reco-{{ instanceId|e }}">
        <h2 id="reco-{{ instanceId|e }}">{{ title|e }}</h2>
        <ol class="reco-items">
        {% for p in products %}<li class="reco-item" data-reco-product-id="{{ p.productId|e }}" data-reco-position="{{ p.position }}">
        <a href="{{ p.url|url }}"><img src="{{ p.image|url }}" alt="{{ p.name|e }}" loading="lazy" width="240" height="240"><span class="reco-name">{{ p.name|e }}</span></a>
        <span class="reco-price">{{ p.priceText|e }}</span>{% if p.oldPriceText %}<s class="reco-old-price">{{ p.oldPriceText|e }}</s>{% endif %}
        </li>
        {% endfor %}</ol>
        </section>

        """

    struct Product {
        let productId: String
        let name: String
        let url: String
        let image: String
        let priceText: String
        let oldPriceText: String?
    }

    static let products: [Product] = (1...24).map { index in
        Product(
            productId: "\(100_000 + index)",
            name: index % 5 == 0 ? "Nike \"Air\" Zoom <Pegasus> 40 & Co. \(index)" : "Asics Gel-Kayano \(index) Erkek Koşu Ayakkabısı",
            url: index == 7 ? "javascript:alert(1)" : "//www.example-shop.com.tr/urun/\(100_000 + index)?utm_source=reco&amp=1",
            image: "//cdn.example-shop.com.tr/img/\(100_000 + index)/m.jpg",
            priceText: "\(1_000 + index * 37),90 TL",
            oldPriceText: index % 3 == 0 ? "\(1_500 + index * 37),90 TL" : nil)
    }

    static let widget = (vendor: "segmentify", instanceId: "scn_64f1c2a9d7e3b001", interactionId: "act_64f1c2a9d7e3b002", title: "Bunlar da ilginizi çekebilir")
}
