import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RecoTemplates
import Testing

@Suite("Template library")
struct TemplateLibraryTests {
    static let builtIn: [String: String] = [
        "carousel": """
            <section class="reco" aria-label="{{title}}">
              <ul>
                {{#products}}
                <li>{{$item}}{{>item}}{{/item}}</li>
                {{/products}}
              </ul>
            </section>

            """,
        "item": #"<a href="{{url}}">{{name}}</a>"#,
    ]

    static let data = TemplateValue.object([
        "title": "For you",
        "products": [.object(["name": "Lamp & Shade", "url": "/p/1"]), .object(["name": "Desk", "url": "javascript:alert(1)"])],
    ])

    private func folder(_ files: [String: String]) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("reco-templates-\(UUID().uuidString)")
        for (name, text) in files {
            let file = url.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: file, atomically: true, encoding: .utf8)
        }
        return url
    }

    @Test("a folder overrides some templates, the rest resolve in the fallback, and built-in partials see the overrides")
    func directoryOverride() throws {
        let fallback = try TemplateLibrary(templates: Self.builtIn)
        let text = try TemplateLibrary(templates: ["text": "{{title}}: {{#products}}{{name}} {{/products}}"], escaping: .none, fallback: fallback)
        let directory = try folder([
            "item.mustache": #"<a class="mine" href="{{url}}">{{name}}</a>"#,
            "text.mustache": "Picked for you — {{#products}}{{name}}; {{/products}}",
            "emails/footer.mustache": "<footer>{{title}}</footer>",
            "notes.txt": "not a template {{",
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let library = try TemplateLibrary(directory: directory, fallback: text)

        #expect(library.names == ["carousel", "emails/footer", "item", "text"])
        #expect(library.template(named: "carousel")?.source == Self.builtIn["carousel"])
        let html = try library.render("carousel", Self.data)
        #expect(
            html == """
                <section class="reco" aria-label="For you">
                  <ul>
                    <li><a class="mine" href="/p/1">Lamp &amp; Shade</a></li>
                    <li><a class="mine" href="about:invalid">Desk</a></li>
                  </ul>
                </section>

                """)
        #expect(try fallback.render("carousel", Self.data).contains(#"<li><a href="/p/1">"#))
        #expect(try library.render("emails/footer", Self.data) == "<footer>For you</footer>")
        #expect(library.template(named: "text")?.escaping == TemplateEscaping.none)
        #expect(try library.render("text", Self.data) == "Picked for you — Lamp & Shade; Desk; ")
    }

    @Test("one block of a built-in template is overridden through inheritance")
    func blockOverride() throws {
        let fallback = try TemplateLibrary(templates: Self.builtIn)
        let directory = try folder([
            "mine.mustache": "{{<carousel}}{{$item}}<b>{{name}}</b>{{/item}}{{/carousel}}"
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let library = try TemplateLibrary(directory: directory, fallback: fallback)
        let html = try library.render("mine", Self.data)
        #expect(html.contains("<li><b>Lamp &amp; Shade</b></li>"))
        #expect(html.contains("<li><b>Desk</b></li>"))
        #expect(html.hasPrefix(#"<section class="reco" aria-label="For you">"#))
    }

    @Test("a folder template naming a missing partial fails at load with its file's name, line and column")
    func directoryMissingPartial() throws {
        let directory = try folder(["grid.mustache": "<div>\n  {{#products}}{{>tile}}{{/products}}\n</div>"])
        defer { try? FileManager.default.removeItem(at: directory) }
        let failure = #expect(throws: TemplateError.self) { try TemplateLibrary(directory: directory) }
        #expect(failure?.description == directory.appendingPathComponent("grid.mustache").path
                + #":2:16: unknown partial "tile", expected a template of that name in the library"#)
        #expect(failure?.templateName == "grid")
    }

    @Test("a folder template's syntax error, and one met while rendering, name its file, line and column")
    func directoryErrorsNameTheFile() throws {
        let broken = try folder(["tiles/tile.mustache": "<li>{{#price}}\n{{/prices}}</li>"])
        defer { try? FileManager.default.removeItem(at: broken) }
        let failure = #expect(throws: TemplateError.self) { try TemplateLibrary(directory: broken) }
        #expect(failure?.description.hasPrefix(broken.appendingPathComponent("tiles/tile.mustache").path + ":2:1: mismatched closing tag") == true,
                "\(failure?.description ?? "")")
        #expect(failure?.file == broken.appendingPathComponent("tiles/tile.mustache").path)

        let looping = try folder(["list.mustache": "<ul>{{>row}}</ul>", "row.mustache": "<li>\n {{>row}}</li>"])
        defer { try? FileManager.default.removeItem(at: looping) }
        let library = try TemplateLibrary(directory: looping)
        let row = looping.appendingPathComponent("row.mustache").path
        #expect(library.file(of: "row") == row)
        #expect(library.file(of: "nowhere") == nil)
        let deep = #expect(throws: TemplateError.self) { try library.render("list", .null) }
        #expect(deep?.kind == .tooDeep)
        #expect(deep?.description.hasPrefix(row + ":2:2: partials and the sections around them nest deeper") == true, "\(deep?.description ?? "")")
        // A template given as text that shares a folder template's name is not placed in that file.
        let given = try Template("{{>nowhere}}", name: "row")
        let unplaced = #expect(throws: TemplateError.self) { try given.render(.null, partials: library) }
        #expect(unplaced?.file == nil)
        #expect(unplaced?.description.hasPrefix("row:1:1: unknown partial") == true, "\(unplaced?.description ?? "")")
    }

    /// A file in the folder that is no template: a byte that is not UTF-8 (named by its line and column),
    /// a device or a pipe (read without end, or waiting for a writer), a link that leads nowhere, a file
    /// over the size limit. Each is named with the reason; Foundation's words were "You don't have
    /// permission" and "The file isn't in the correct format".
    @Test("a template file that is not UTF-8, not a regular file, or too large is named with the reason")
    func filesThatAreNoTemplates() throws {
        let latin = try folder(["ok.mustache": "fine"])
        defer { try? FileManager.default.removeItem(at: latin) }
        let bad = latin.appendingPathComponent("tile.mustache")
        try (Data("<li>\n  çay {{name}} ".utf8) + Data([0xE7, 0x61, 0x79]) + Data("</li>".utf8)).write(to: bad)
        let notText = #expect(throws: TemplateError.self) { try TemplateLibrary(directory: latin) }
        #expect(notText?.kind == .unreadable)
        #expect(notText?.description == bad.path + ":2:16: not UTF-8 text: byte 0xE7 (a template is UTF-8; save the file as UTF-8)",
                "\(notText?.description ?? "")")

        for (target, what) in [("/dev/zero", "a device"), ("/nonexistent/file", "a link that leads nowhere")] {
            let linked = try folder(["ok.mustache": "fine"])
            defer { try? FileManager.default.removeItem(at: linked) }
            let link = linked.appendingPathComponent("z.mustache")
            try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: target)
            let failure = #expect(throws: TemplateError.self, "\(what)") { try TemplateLibrary(directory: linked) }
            #expect(failure?.description.hasPrefix(link.path + ": cannot read templates: not a regular file") == true, "\(what): \(failure?.description ?? "")")
        }
        #if os(Linux) || os(macOS)
        let piped = try folder(["ok.mustache": "fine"])
        defer { try? FileManager.default.removeItem(at: piped) }
        let pipe = piped.appendingPathComponent("p.mustache")
        #expect(mkfifo(pipe.path, 0o644) == 0)
        let waiting = #expect(throws: TemplateError.self, "a pipe, which has no writer: opening it would wait") { try TemplateLibrary(directory: piped) }
        #expect(waiting?.description.hasPrefix(pipe.path + ": cannot read templates: not a regular file") == true, "\(waiting?.description ?? "")")
        #endif

        let large = try folder(["ok.mustache": "fine"])
        defer { try? FileManager.default.removeItem(at: large) }
        let big = large.appendingPathComponent("big.mustache")
        #expect(FileManager.default.createFile(atPath: big.path, contents: nil))
        let handle = try FileHandle(forWritingTo: big)
        try handle.truncate(atOffset: UInt64(TemplateLibrary.largestFileBytes + 1))
        try handle.close()
        let tooLarge = #expect(throws: TemplateError.self) { try TemplateLibrary(directory: large) }
        #expect(tooLarge?.description == big.path + ": cannot read templates: the file has \(TemplateLibrary.largestFileBytes + 1) bytes, "
                + "more than \(TemplateLibrary.largestFileBytes) (TemplateLibrary.largestFileBytes)", "\(tooLarge?.description ?? "")")
    }

    @Test("a folder that does not exist is an error, not an empty library")
    func missingFolder() {
        let failure = #expect(throws: TemplateError.self) {
            try TemplateLibrary(directory: URL(fileURLWithPath: "/nonexistent/reco-templates"))
        }
        #expect(failure?.kind == .unreadable)
        #expect(failure?.description == "/nonexistent/reco-templates: cannot read templates: no such folder")
    }

    @Test("lazy contexts, dotted names and literal numbers")
    func contexts() throws {
        struct Product: TemplateContext {
            let name: String
            let price: JSONNumber
            func value(forKey key: String) -> TemplateValue? {
                switch key {
                case "name": .string(name)
                case "price": .object(["amount": .number(price), "currency": "TRY"])
                default: nil
                }
            }
        }
        let template = try Template("{{#items}}{{name}}: {{price.amount}} {{price.currency}} ({{shop}})\n{{/items}}{{^items}}none{{/items}}")
        let value = TemplateValue.object([
            "shop": "Ev&Ev",
            "items": [.context(Product(name: "Lamp", price: JSONNumber(text: "349.90")!)), .context(Product(name: "Desk", price: 1200))],
        ])
        #expect(try template.render(value) == "Lamp: 349.90 TRY (Ev&amp;Ev)\nDesk: 1200 TRY (Ev&amp;Ev)\n")
        #expect(try template.render(.object(["items": []])) == "none")
        let json = try JSONValue(parsing: #"{"items":[{"name":"Mug","price":{"amount":12.50,"currency":"EUR"}}],"shop":"S"}"#)
        #expect(try template.render(TemplateValue(json)) == "Mug: 12.50 EUR (S)\n")
    }
}
