import RecoTemplates
import Testing

@Suite("Concurrent rendering")
struct ConcurrentRenderingTests {
    static let library: TemplateLibrary = {
        try! TemplateLibrary(templates: [
            "block": """
                <section class="reco" data-reco-instance-id="{{instanceId}}" aria-label="{{title}}">
                  <h2>{{title}}</h2>
                  <ol>
                    {{#products}}
                    {{>product}}
                    {{/products}}
                  </ol>
                </section>

                """,
            "product": """
                <li data-reco-product-id="{{productId}}" data-reco-position="{{position}}">
                  <a href="{{url}}"><img src="{{image}}" alt="{{name}}" loading="lazy"></a>
                  <span class="price">{{price}}</span>{{#oldPrice}} <s>{{oldPrice}}</s>{{/oldPrice}}
                </li>

                """,
        ])
    }()

    static func products(_ count: Int) -> TemplateValue {
        .list(
            (1...count).map { index in
                .object([
                    "productId": .string("SKU-\(index)"), "position": .number(JSONNumber(index)),
                    "name": .string("Çay bardağı <\(index)> & \"set\""),
                    "url": .string(index % 5 == 0 ? "javascript:alert(\(index))" : "https://shop.example.com/p/\(index)?ref=reco&pos=\(index)"),
                    "image": .string("//cdn.example.com/img/\(index).jpg"),
                    "price": .string("\(index * 10),99 TL"), "oldPrice": index % 3 == 0 ? .string("\(index * 12),00 TL") : .null,
                ])
            })
    }

    @Test("64 tasks rendering 50 times each produce the same output as one render")
    func identicalOutput() async throws {
        let value = TemplateValue.object(["instanceId": "hp-reco-1", "title": "Sizin için <seçtiklerimiz>", "products": Self.products(24)])
        let expected = try Self.library.render("block", value)
        #expect(expected.components(separatedBy: "<li ").count == 25)
        #expect(expected.contains(#"<a href="about:invalid">"#))
        #expect(expected.contains(#"href="https://shop.example.com/p/1?ref=reco&amp;pos=1""#))
        #expect(expected.contains("    <li data-reco-product-id=\"SKU-24\" data-reco-position=\"24\">\n      <a href="))
        let outputs = try await withThrowingTaskGroup(of: [String].self) { group in
            for _ in 0..<64 {
                group.addTask {
                    var results: [String] = []
                    for _ in 0..<50 { results.append(try Self.library.render("block", value)) }
                    return results
                }
            }
            var all: [String] = []
            for try await results in group { all += results }
            return all
        }
        #expect(outputs.count == 64 * 50)
        #expect(outputs.allSatisfy { $0 == expected })
    }
}
