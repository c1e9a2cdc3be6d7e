import AsyncHTTPClient
import Foundation
import RecoKitAsyncHTTPClient
import Hummingbird
import HummingbirdTesting
import RecoKit
import Testing
@testable import StorefrontKit

/// The storefront in headless Chromium, as a shopper meets it: the blocks and their tracking attributes,
/// a block scrolled into view sending its widget-view beacon, a product clicked and its page reached
/// with the click recorded, and the page at phone width (a screenshot is written for a person to look at).
@Suite("Storefront in a browser")
struct StorefrontBrowserTests {
    @Test(.enabled(if: WebDriver.installed != nil, Comment(rawValue: WebDriver.missingReason)))
    func aShopperSeesBlocksScrollsToOneAndClicksAProduct() async throws {
        try await Self.live { browser, site, vendor in
            try await browser.open("\(site)/products/100900")
            let blocks = try await browser.run(Self.blocksScript).arrayValue ?? []
            let segmentify = blocks.filter { $0["vendor"]?.stringValue == "segmentify" }
            #expect(Set(segmentify.compactMap { $0["instanceId"]?.stringValue }) == Set(Harness.segmentifyBlocks.map(\.instanceId)))
            #expect(blocks.contains { $0["vendor"]?.stringValue == "reteno" })
            for block in blocks {
                let products = block["products"]?.arrayValue?.compactMap(\.stringValue) ?? []
                let positions = block["positions"]?.arrayValue?.compactMap(\.stringValue) ?? []
                let links = block["links"]?.arrayValue?.compactMap(\.stringValue) ?? []
                #expect(block["interactionId"]?.stringValue?.isEmpty == false)
                #expect(!products.isEmpty && !products.contains("100900"), "the viewed product is not recommended: \(products)")
                #expect(positions == (1...products.count).map(String.init), "positions count from 1: \(positions)")
                #expect(links.count == products.count && links.allSatisfy { $0.hasPrefix("/r/") }, "every product links through /r/: \(links)")
            }

            // A block below the fold: no widget-view until it is scrolled into view, then one reaches the vendor.
            let height = Double(try await browser.run("return String(window.innerHeight);").stringValue ?? "") ?? 0
            let below = try #require(segmentify.last { (Double($0["top"]?.stringValue ?? "") ?? 0) > height },
                                     "a Segmentify block below the fold at 1280×800")
            let instanceId = try #require(below["instanceId"]?.stringValue)
            #expect(!Self.views(at: vendor).contains(instanceId))
            _ = try await browser.run("document.querySelector('section[data-reco-instance-id=\"\(instanceId)\"]').scrollIntoView({block: 'center'});")
            try await Self.waitUntil("the widget-view of \(instanceId) reaches the vendor") { Self.views(at: vendor).contains(instanceId) }

            // Clicking its first product lands on that product's page, and the click is recorded.
            let product = try #require(below["products"]?.arrayValue?.first?.stringValue)
            try await browser.click("section[data-reco-instance-id=\"\(instanceId)\"] [data-reco-product-id=\"\(product)\"] a[href^=\"/r/\"]")
            try await Self.waitUntil("the browser shows /products/\(product)") { (try? await browser.currentURL()) == "\(site)/products/\(product)" }
            #expect(try await browser.run("return document.querySelector('h1').textContent;").stringValue?.isEmpty == false)
            try await Self.waitUntil("the click on \(product) in \(instanceId) reaches the vendor") {
                Self.segmentifyEvents(at: vendor).contains {
                    $0["type"]?.stringValue == "click" && $0["instanceId"]?.stringValue == instanceId && $0["interactionId"]?.stringValue == product
                }
            }

            // At phone width the page fits the screen: nothing wider than the viewport.
            try await browser.resize(width: 390, height: 844)
            try await browser.open("\(site)/products/100900")
            let fit = try await browser.run("return [document.documentElement.scrollWidth, window.innerWidth, document.querySelectorAll('section[data-reco-instance-id]').length].map(String);")
            let numbers = fit.arrayValue?.compactMap { $0.stringValue.flatMap { Int($0) } } ?? []
            #expect(numbers.count == 3 && numbers[0] <= numbers[1] && numbers[2] == blocks.count, "scrollWidth, innerWidth, blocks: \(fit)")
            let shot = Self.screenshotFolder.appendingPathComponent("storefront-390.png")
            try FileManager.default.createDirectory(at: Self.screenshotFolder, withIntermediateDirectories: true)
            try await browser.screenshot().write(to: shot)
            print("StorefrontBrowserTests: phone-width screenshot at \(shot.path)")

            try await browser.open("\(site)/products/no-such-product")
            #expect(try await browser.run("return document.body.textContent;").stringValue?.hasPrefix("There is nothing here.") == true)
        }
    }

    /// Each block's ids, vendor, products, positions, links and distance from the top of the viewport.
    static let blocksScript = """
        return Array.from(document.querySelectorAll('section[data-reco-instance-id]')).map(function (s) {
          var items = Array.from(s.querySelectorAll('[data-reco-product-id]'));
          return { instanceId: s.dataset.recoInstanceId, interactionId: s.dataset.recoInteractionId, vendor: s.dataset.recoVendor,
                   products: items.map(function (e) { return e.dataset.recoProductId; }),
                   positions: items.map(function (e) { return e.dataset.recoPosition; }),
                   links: items.map(function (e) { var a = e.querySelector('a[href]'); return a ? a.getAttribute('href') : ''; }),
                   top: String(s.getBoundingClientRect().top) };
        });
        """

    static var screenshotFolder: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/browser-test", isDirectory: true)
    }

    static func segmentifyEvents(at vendor: StandInVendor) -> [JSONValue] {
        vendor.received.filter { $0.vendor == "segmentify" }.flatMap { $0.body.arrayValue ?? [] }
    }

    static func views(at vendor: StandInVendor) -> [String] {
        segmentifyEvents(at: vendor).filter { $0["type"]?.stringValue == "widget-view" }.compactMap { $0["instanceId"]?.stringValue }
    }

    /// Polls `condition` every 100 ms; fails after 60 s (a bound against hanging, not a speed check).
    static func waitUntil(_ what: String, _ condition: () async -> Bool) async throws {
        for _ in 0..<600 {
            if await condition() { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw ServerProcessError("gave up waiting: \(what)")
    }

    /// The stand-in vendor and the storefront on real loopback ports, and a browser.
    static func live(_ body: @escaping @Sendable (WebDriver, String, StandInVendor) async throws -> Void) async throws {
        let vendor = try StandInVendor()
        let vendorApp = Application(router: vendor.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)), logger: Harness.serverLogger)
        try await vendorApp.test(.live) { vendorClient in
            let settings = VendorSettings(standIn: URL(string: "http://127.0.0.1:\(try #require(vendorClient.port))")!, timeout: Harness.timeout)
            let journal = FileManager.default.temporaryDirectory.appendingPathComponent("storefront-browser-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: journal) }
            let transport = AsyncHTTPClientTransport.shared
            let tracking = try StorefrontTracking(directory: journal, settings: settings, transport: transport, flushInterval: .milliseconds(20))
            let storefront = try Storefront(source: RecommendationSource(settings: settings, transport: transport), tracking: tracking)
            let app = Application(router: storefront.router(), server: ServerLimits().server, configuration: .init(address: .hostname("127.0.0.1", port: 0)), logger: Harness.serverLogger)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await tracking.run() }
                defer { group.cancelAll() }
                try await app.test(.live) { client in
                    let browser = try await WebDriver()
                    do {
                        try await body(browser, "http://127.0.0.1:\(try #require(client.port))", vendor)
                    } catch {
                        await browser.quit()
                        throw error
                    }
                    await browser.quit()
                }
            }
        }
    }
}
