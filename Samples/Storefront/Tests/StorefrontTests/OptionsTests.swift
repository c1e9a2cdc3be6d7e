import ArgumentParser
import Foundation
import Testing
@testable import StorefrontKit

@Suite("Options")
struct OptionsTests {
    static func options(_ arguments: [String], environment: [String: String] = [:]) throws -> StorefrontOptions {
        try StorefrontCommand.parse(arguments).options(environment: environment)
    }

    @Test func flagsWinOverEnvironmentAndDefaultsStay() throws {
        let options = try Self.options(["--port", "9000", "--vendor-url=https://gandalf.segmentify.com", "--timeout", "150"],
                                       environment: ["STOREFRONT_PORT": "7000", "STOREFRONT_JOURNAL": "/tmp/j", "STOREFRONT_VENDOR_FAIL": "1"])
        #expect(options.port == 9000)
        #expect(options.vendorURL?.host == "gandalf.segmentify.com")
        #expect(options.timeoutMilliseconds == 150)
        #expect(options.journal.path == "/tmp/j")
        #expect(options.vendorFails)
        #expect(options.vendorPort == 8081)
        #expect(!options.needsStandIn)
        #expect(try Self.options([]).needsStandIn)
        #expect(try Self.options([], environment: ["STOREFRONT_PORT": "7000"]).port == 7000)
        let standIn = try Self.options(["--vendor-url", "http://127.0.0.1:9", "--stand-in-only"])
        #expect(standIn.standInOnly && standIn.needsStandIn, "--stand-in-only runs the stand-in whatever the vendor URLs")
        #expect(try Self.options([], environment: ["STOREFRONT_STAND_IN_ONLY": "1"]).standInOnly)
        #expect(try !Self.options([]).standInOnly)
    }

    @Test func badOptionsSayWhatIsWrong() {
        #expect(throws: (any Error).self) { try StorefrontCommand.parse(["--nope"]) }
        #expect(throws: (any Error).self) { try StorefrontCommand.parse(["--port"]) }
        #expect(throws: (any Error).self) { try StorefrontCommand.parse(["--port", "abc"]) }
        do {
            _ = try Self.options(["--vendor-url", "ftp://x"])
            Issue.record("accepted an ftp vendor URL")
        } catch {
            #expect(StorefrontCommand.message(for: error) == "--vendor-url ftp://x: expected an http(s) URL")
        }
        do {
            _ = try Self.options([], environment: ["STOREFRONT_TIMEOUT_MS": "soon"])
            Issue.record("accepted a timeout of soon")
        } catch {
            #expect(StorefrontCommand.message(for: error).hasPrefix("STOREFRONT_TIMEOUT_MS soon: expected a whole number"))
        }
        // Through argument-parser's own path, a range error is a usage error with the same sentence.
        #expect(StorefrontCommand.message(for: ValidationError("x")).contains("x"))
        #expect(throws: (any Error).self) { try StorefrontCommand.parseAsRoot(["--port", "70000"]) }
    }

    @Test func theReplyLimitAndTheCookieKeyAreReadAndNumbersAreBounded() throws {
        let options = try Self.options(["--max-reply-kb", "512", "--secret", String(repeating: "0f", count: 32)])
        #expect(options.maxReplyKilobytes == 512)
        #expect(options.secret == Array(repeating: 0x0f, count: 32))
        #expect(try Self.options([]).secret == nil)
        for bad in [["--secret", "abc"], ["--secret", String(repeating: "zz", count: 32)], ["--max-reply-kb", "0"],
                    ["--click-ttl", "9223372036854775807"], ["--timeout", "99999999999"], ["--port", "70000"], ["--idle-timeout", "0"]] {
            do {
                _ = try Self.options(bad)
                Issue.record("accepted \(bad)")
            } catch {
                #expect(!StorefrontCommand.message(for: error).contains("zz"), "a bad key is not echoed")
            }
        }
    }

    @Test func cachedBlocksMustNotOutliveTheirLinks() throws {
        #expect(try Self.options(["--cache-ttl", "60"]).cacheSeconds == 60)
        do {
            _ = try Self.options(["--cache-ttl", "600", "--click-ttl", "600"])
            Issue.record("accepted a cache that outlives its links")
        } catch {
            #expect(StorefrontCommand.message(for: error).hasPrefix("--cache-ttl 600: expected fewer seconds than --click-ttl (600)"))
        }
        // A stale block is the one rendered while fresh: its links must outlive the stale windows too.
        let stale = try Self.options(["--cache-ttl", "60", "--stale-while-revalidate", "240", "--stale-if-error", "3000"])
        #expect(stale.staleWhileRevalidateSeconds == 240 && stale.staleIfErrorSeconds == 3000)
        for (flag, value) in [("--stale-if-error", "3540"), ("--stale-while-revalidate", "3600")] {
            do {
                _ = try Self.options(["--cache-ttl", "60", flag, value])
                Issue.record("accepted \(flag) \(value): stale links would outlive their tokens")
            } catch {
                #expect(StorefrontCommand.message(for: error).hasPrefix("\(flag) \(value): expected fewer seconds, with --cache-ttl's 60, than --click-ttl (3600)"),
                        "\(StorefrontCommand.message(for: error))")
            }
        }
    }

    @Test func helpListsEveryOptionWithItsVariable() {
        let help = StorefrontCommand.helpMessage(columns: 200)
        for (flag, variable) in [("--port", "STOREFRONT_PORT"), ("--vendor-port", "STOREFRONT_VENDOR_PORT"), ("--vendor-url", "STOREFRONT_VENDOR_URL"),
                                 ("--journal", "STOREFRONT_JOURNAL"), ("--timeout", "STOREFRONT_TIMEOUT_MS"), ("--click-ttl", "STOREFRONT_CLICK_TTL"),
                                 ("--drain", "STOREFRONT_DRAIN"), ("--vendor-delay", "STOREFRONT_VENDOR_DELAY_MS"), ("--vendor-fail", "STOREFRONT_VENDOR_FAIL"),
                                 ("--stand-in-only", "STOREFRONT_STAND_IN_ONLY"), ("--stale-while-revalidate", "STOREFRONT_STALE_WHILE_REVALIDATE"),
                                 ("--stale-if-error", "STOREFRONT_STALE_IF_ERROR"),
                                 ("--idle-timeout", "STOREFRONT_IDLE_TIMEOUT"), ("--max-reply-kb", "STOREFRONT_MAX_REPLY_KB")] {
            #expect(help.contains(flag) && help.contains(variable), "\(flag) \(variable)")
        }
    }
}
