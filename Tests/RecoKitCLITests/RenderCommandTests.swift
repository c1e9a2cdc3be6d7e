import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("recokit render")
struct RenderCommandTests {
    @Test func rendersTextToStandardOutput() throws {
        let result = try RenderPreviewCLI.run(["render", RenderPreviewCLI.payload("segmentify-v3"), "--format", "text"])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("1. Nike Academy Futbol Topu  599,90 TL → 449,90 TL (-25%)\n   https://www.ornekspor.com.tr/nike-academy-futbol-topu-p-100900\n"))
        #expect(!result.out.contains("<"))
    }

    @Test func writesHTMLWithTheChosenTemplateToAFile() throws {
        let folder = try RenderPreviewCLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("out.html")
        let result = try RenderPreviewCLI.run(["render", RenderPreviewCLI.payload("segmentify-v3"), "--template", "grid", "-o", file.path])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.isEmpty)
        #expect(result.err.contains("wrote \(file.path)"))
        let html = try String(contentsOf: file, encoding: .utf8)
        #expect(html.contains("class=\"reco reco-grid\""))
        #expect(html.contains("data-reco-instance-id=\"scn_6551a0b7c3d2e101\""))
        #expect(html.components(separatedBy: "<style>").count == 2, "one stylesheet for the page")
    }

    /// `-o` naming standard output, a named pipe or a device writes to it as a shell's `>` would, and
    /// leaves it what it was. The file was replaced as a regular one is: a pipe or a device became a
    /// regular file holding the page (as root, `-o /dev/null` would have replaced /dev/null itself), and
    /// `-o /dev/stdout` failed ("no such file").
    @Test func standardOutputAPipeOrADeviceGivenAsTheFileIsWrittenToAsItIs() throws {
        let payload = RenderPreviewCLI.payload("segmentify-v3")
        let toStandardOutput = try RenderPreviewCLI.run(["render", payload, "--template", "grid", "-o", "/dev/stdout"])
        #expect(toStandardOutput.status == 0, "\(toStandardOutput.err)")
        #expect(toStandardOutput.out.contains("class=\"reco reco-grid\""))

        let folder = try RenderPreviewCLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A named pipe, held open here for reading and writing so that the render's open does not wait;
        // the page (12 KB) fits in the pipe's buffer.
        let pipe = folder.appendingPathComponent("blocks.pipe")
        #expect(mkfifo(pipe.path, 0o644) == 0)
        let reader = open(pipe.path, O_RDWR | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        let piped = try RenderPreviewCLI.run(["render", payload, "--template", "grid", "-o", pipe.path])
        #expect(piped.status == 0, "\(piped.err)")
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        let got = read(reader, &buffer, buffer.count)
        #expect(got > 0 && String(decoding: buffer[..<max(0, got)], as: UTF8.self).contains("class=\"reco reco-grid\""), "\(got) bytes through the pipe")
        #expect(try FileManager.default.attributesOfItem(atPath: pipe.path)[.type] as? FileAttributeType != .typeRegular, "the pipe is still a pipe")

        // A device: a null device of our own (root only: mknod), never the system's /dev/null.
        #if os(Linux)
        let null = folder.appendingPathComponent("null")
        if mknod(null.path, S_IFCHR | 0o666, dev_t((1 << 8) | 3)) == 0 {
            let nulled = try RenderPreviewCLI.run(["render", payload, "-o", null.path])
            #expect(nulled.status == 0, "\(nulled.err)")
            #expect(try FileManager.default.attributesOfItem(atPath: null.path)[.type] as? FileAttributeType == .typeCharacterSpecial,
                    "the device is still a device")
        } else {
            print("standardOutputAPipeOrADeviceGivenAsTheFileIsWrittenToAsItIs: no device case (mknod needs root: \(String(cString: strerror(errno))))")
        }
        #endif
    }

    @Test func aTemplateFolderComesFirstThenTheBuiltInOnes() throws {
        let folder = try RenderPreviewCLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("{{#products}}[{{position}} {{displayName}}]{{/products}}\n".utf8).write(to: folder.appendingPathComponent("carousel.mustache"))
        try Data("{{<list}}{{$price}}<i>{{displayPrice}}</i>{{/price}}{{/list}}".utf8).write(to: folder.appendingPathComponent("mine.mustache"))
        let payload = RenderPreviewCLI.payload("reteno-recoms-fields")
        let carousel = try RenderPreviewCLI.run(["render", payload, "--templates", folder.path])
        #expect(carousel.status == 0, "\(carousel.err)")
        #expect(carousel.out.hasPrefix("[1 Luma Yoga For Life][2 Sprite Yoga Companion Kit]"))
        let mine = try RenderPreviewCLI.run(["render", payload, "--templates", folder.path, "--template", "mine", "--currency", "USD"])
        #expect(mine.status == 0, "\(mine.err)")
        #expect(mine.out.contains("<i>$32.00</i>") && mine.out.contains("class=\"reco reco-list\""))
        let email = try RenderPreviewCLI.run(["render", payload, "--templates", folder.path, "--template", "email"])
        #expect(email.out.contains("<table role=\"presentation\""))
    }

    @Test func aRetenoBlockGetsItsVariantAndTitle() throws {
        let result = try RenderPreviewCLI.run(["render", RenderPreviewCLI.payload("reteno-recoms-fields"), "--variant", "r1107v1482", "--title", "You may also like", "--template", "list"])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("data-reco-instance-id=\"r1107v1482\"") && result.out.contains(">You may also like</h2>"))
        #expect(!result.err.contains("unnamedVariant"))
        #expect(try RenderPreviewCLI.run(["render", "x.json", "--variant", "1107"]).status == 2)
    }

    @Test func aTextTemplateFromTheFolderIsNotHTMLEscaped() throws {
        let folder = try RenderPreviewCLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("{{#products}}{{position}}) {{displayName}} <{{productId}}> & co\n{{/products}}".utf8).write(to: folder.appendingPathComponent("text.mustache"))
        let result = try RenderPreviewCLI.run(["render", RenderPreviewCLI.payload("reteno-recoms-fields"), "--templates", folder.path, "--format", "text"])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.hasPrefix("1) Luma Yoga For Life <240-LV09> & co\n2) Sprite Yoga Companion Kit <24-WG080> & co\n"))
    }

    /// A template error names the file, line and column, as a compiler does (an editor or a terminal opens
    /// the place from it), whether the file is the one rendered or one it includes, and found when loading
    /// or when rendering; it said only the template's name (`broken:3:1`), not where that came from.
    @Test func aTemplateErrorNamesTheFileLineAndColumn() throws {
        let folder = try RenderPreviewCLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cases: [(file: String, text: String, render: String, place: String, message: String)] = [
            ("broken", "<ul>\n{{#products}}<li>{{name}}\n{{/product}}</ul>", "broken", "broken.mustache:3:1", "mismatched closing tag {{/product}}"),
            ("tile", "<li>\n  {{>price-tag}}</li>", "carousel", "tile.mustache:2:3", #"unknown partial "price-tag""#),
            ("itself", "<ul>{{#products}}{{>itself}}{{/products}}</ul>", "itself", "itself.mustache:1:18",
             "partials and the sections around them nest deeper than"),
            ("mine", "{{<carousel}}{{$price}}\n\n {{>nowhere}}{{/price}}{{/carousel}}", "mine", "mine.mustache:3:2", #"unknown partial "nowhere""#),
        ]
        for entry in cases {
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            for file in files { try FileManager.default.removeItem(at: folder.appendingPathComponent(file)) }
            try Data(entry.text.utf8).write(to: folder.appendingPathComponent(entry.file + ".mustache"))
            let result = try RenderPreviewCLI.run(["render", RenderPreviewCLI.payload("segmentify-v3"), "--templates", folder.path, "--template", entry.render])
            let place = folder.appendingPathComponent(entry.place).path
            #expect(result.status == 1, "\(entry.file)")
            #expect(result.err.contains("error: \(place): \(entry.message)"), "\(entry.file): \(result.err)")
            #expect(result.out.isEmpty)
        }
    }

    @Test func anUnknownTemplateListsTheNames() throws {
        let result = try RenderPreviewCLI.run(["render", RenderPreviewCLI.payload("segmentify-v3"), "--template", "carusel"])
        #expect(result.status == 1)
        #expect(result.err.contains("no template named \"carusel\" (have: carousel, email, grid, list, text)"))
        // The whole answer, before the payload is read: none of its notes.
        let noisy = try RenderPreviewCLI.run(["render", RenderPreviewCLI.payload("segmentify-product-page"), "--template", "nosuch"])
        #expect(noisy.status == 1)
        #expect(noisy.err == "error: no template named \"nosuch\" (have: carousel, email, grid, list, text)\n")
        #expect(noisy.out.isEmpty)
    }

    @Test func badPayloadsSayWhatAndWhere() throws {
        let folder = try RenderPreviewCLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let broken = folder.appendingPathComponent("broken.json")
        try Data("{\"recoms\": [\n  {\"productId\": 1,}\n]}".utf8).write(to: broken)
        let invalid = try RenderPreviewCLI.run(["render", broken.path])
        #expect(invalid.status == 1)
        #expect(invalid.err.contains(broken.path) && invalid.err.contains("line 2"), "\(invalid.err)")
        let missing = try RenderPreviewCLI.run(["render", folder.appendingPathComponent("nope.json").path])
        #expect(missing.status == 1)
        #expect(missing.err.contains("nope.json"))
        let vendorError = try RenderPreviewCLI.run(["render", RenderPreviewCLI.payload("segmentify-error")])
        #expect(vendorError.status == 1)
        #expect(vendorError.err.contains("NO_DOMAIN_APIKEY_MATCH"))
    }

    @Test func wrongUsageExitsWithTwo() throws {
        #expect(try RenderPreviewCLI.run(["render"]).status == 2)
        #expect(try RenderPreviewCLI.run(["render", "a.json", "--format", "pdf"]).err.contains("--format must be html or text"))
        #expect(try RenderPreviewCLI.run(["render", "a.json", "--bogus"]).status == 2)
    }
}
