import RecoKit
import RecoTemplates
import Testing

/// The engine takes different paths for speed: names matched to a JSON object's keys or hashed, output
/// kept as bytes or appended to a string, escaping scanned eight bytes at a time. Each path must write
/// what the plain reading of the template says; these tests compare with output built here by hand,
/// escaping with a reference that shares no code with the engine.
@Suite("Rendering paths agree with a plain reading")
struct RenderPathTests {
    /// HTML escaping, character by character: the reference.
    static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }

    @Test func everyEscapedCharacterAtEveryOffsetAroundEightByteBoundaries() throws {
        let template = try Template("[{{text}}]")
        for special in ["&", "<", ">", "\"", "'"] {
            for length in 0..<26 {
                for offset in 0...length {
                    var text = String(repeating: "a", count: length)
                    text.insert(contentsOf: special, at: text.index(text.startIndex, offsetBy: offset))
                    let output = try template.render(TemplateValue(JSONValue.object(["text": .string(text)])))
                    #expect(output == "[" + Self.escaped(text) + "]", "\(special) at \(offset) of \(length + 1)")
                }
            }
        }
        let mixed = "ab&cd<ef>gh\"ij'kl&&<<>>\"\"''mn"
        #expect(try template.render(TemplateValue(JSONValue.object(["text": .string(mixed)]))) == "[" + Self.escaped(mixed) + "]")
    }

    @Test func aLargeObjectShownByASmallTemplateFindsItsNames() throws {
        // Many keys, few lookups: the object keeps hashed lookups instead of matching every key.
        var members: [String: JSONValue] = [:]
        for index in 0..<200 { members["field\(index)"] = .string("value \(index) <\(index)>") }
        members["name"] = .string("Çanta & Cüzdan")
        let template = try Template("{{name}}|{{field7}}|{{field199}}|{{missing}}|{{#field42}}{{.}}{{/field42}}")
        let output = try template.render(TemplateValue(.object(members)))
        #expect(output == "Çanta &amp; Cüzdan|value 7 &lt;7&gt;|value 199 &lt;199&gt;||value 42 &lt;42&gt;")
    }

    @Test func namesResolveThroughNestedScopesAndPartials() throws {
        let library = try TemplateLibrary(templates: [
            "page": "{{#products}}{{>item}}{{/products}}{{^products}}none{{/products}}",
            "item": "<li data-shop=\"{{shop}}\">{{position}}. {{name}} ({{currency}} {{price}}){{#badge}} [{{label}} by {{shop}}]{{/badge}}</li>\n",
        ])
        let value: JSONValue = [
            "shop": "Ornek & Co", "currency": "TRY",
            "products": [
                ["position": 1, "name": "Kalem <kutu>", "price": "12.50", "badge": ["label": "new"]],
                ["position": 2, "name": "Defter", "price": "8", "currency": "EUR"],
            ],
        ]
        let output = try library.render("page", TemplateValue(value))
        #expect(output == """
            <li data-shop="Ornek &amp; Co">1. Kalem &lt;kutu&gt; (TRY 12.50) [new by Ornek &amp; Co]</li>
            <li data-shop="Ornek &amp; Co">2. Defter (EUR 8)</li>

            """)
        #expect(try library.render("page", TemplateValue(JSONValue.object(["products": []]))) == "none")
    }

    @Test func longOutputsDenseInNonASCIITextComeOutWhole() throws {
        // Far more than the output's byte buffer, with non-ASCII text in every value (the string path)
        // and in every other value (switching between the paths).
        let template = try Template("{{#items}}<p title=\"{{title}}\">{{name}}</p>{{/items}}")
        for everyOther in [false, true] {
            var items: [JSONValue] = []
            var expected = ""
            for index in 0..<600 {
                let turkish = !everyOther || index.isMultiple(of: 2)
                let name = turkish ? "Şık çanta №\(index) & “özel” <ğüı>" : "Plain bag \(index) & <tag>"
                let title = turkish ? "İndirim '\(index)'" : "Sale '\(index)'"
                items.append(["name": .string(name), "title": .string(title)])
                expected += "<p title=\"\(Self.escaped(title))\">\(Self.escaped(name))</p>"
            }
            let output = try template.render(TemplateValue(JSONValue.object(["items": .array(items)])))
            #expect(output.utf8.count > 20_000)
            #expect(output == expected, "every other value non-ASCII: \(everyOther)")
        }
    }
}
