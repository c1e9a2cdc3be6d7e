import Foundation
import Testing
@testable import StorefrontKit

@Suite("Options")
struct OptionsTests {
    @Test func flagsWinOverEnvironmentAndDefaultsStay() throws {
        let options = try StorefrontOptions(
            arguments: ["--port", "9000", "--vendor-url=https://gandalf.segmentify.com", "--timeout", "150"],
            environment: ["STOREFRONT_PORT": "7000", "STOREFRONT_JOURNAL": "/tmp/j", "STOREFRONT_VENDOR_FAIL": "1"])
        #expect(options.port == 9000)
        #expect(options.vendorURL?.host == "gandalf.segmentify.com")
        #expect(options.timeoutMilliseconds == 150)
        #expect(options.journal.path == "/tmp/j")
        #expect(options.vendorFails)
        #expect(options.vendorPort == 8081)
        #expect(!options.needsStandIn)
        #expect(try StorefrontOptions(arguments: []).needsStandIn)
    }

    @Test func badOptionsSayWhatIsWrong() {
        #expect(throws: OptionsError.self) { try StorefrontOptions(arguments: ["--nope"], environment: [:]) }
        #expect((try? StorefrontOptions(arguments: ["--port"], environment: [:])) == nil)
        do {
            _ = try StorefrontOptions(arguments: ["--vendor-url", "ftp://x"], environment: [:])
            Issue.record("accepted an ftp vendor URL")
        } catch {
            #expect(error.description == "--vendor-url ftp://x: expected an http(s) URL")
        }
    }

    @Test func theReplyLimitAndTheCookieKeyAreReadAndNumbersAreBounded() throws {
        let options = try StorefrontOptions(arguments: ["--max-reply-kb", "512", "--secret", String(repeating: "0f", count: 32)], environment: [:])
        #expect(options.maxReplyKilobytes == 512)
        #expect(options.secret == Array(repeating: 0x0f, count: 32))
        #expect(try StorefrontOptions(arguments: [], environment: [:]).secret == nil)
        for bad in [["--secret", "abc"], ["--secret", String(repeating: "zz", count: 32)], ["--max-reply-kb", "0"],
                    ["--click-ttl", "9223372036854775807"], ["--timeout", "99999999999"], ["--port", "70000"]] {
            do {
                _ = try StorefrontOptions(arguments: bad, environment: [:])
                Issue.record("accepted \(bad)")
            } catch {
                #expect(!error.description.contains("zz"), "a bad key is not echoed")
            }
        }
    }

    @Test func cachedBlocksMustNotOutliveTheirLinks() throws {
        #expect(try StorefrontOptions(arguments: ["--cache-ttl", "60"], environment: [:]).cacheSeconds == 60)
        do {
            _ = try StorefrontOptions(arguments: ["--cache-ttl", "600", "--click-ttl", "600"], environment: [:])
            Issue.record("accepted a cache that outlives its links")
        } catch {
            #expect(error.description.hasPrefix("--cache-ttl 600: expected fewer seconds than --click-ttl (600)"))
        }
    }

    @Test func helpListsEveryOption() throws {
        #expect(try StorefrontOptions(arguments: ["-h"], environment: [:]).help)
        for flag in ["--port", "--vendor-port", "--vendor-url", "--journal", "--timeout", "--click-ttl", "--drain", "--vendor-delay", "--vendor-fail"] {
            #expect(StorefrontOptions.usage.contains(flag))
        }
    }
}
