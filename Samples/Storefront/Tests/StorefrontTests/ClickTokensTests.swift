import Foundation
import Testing
@testable import StorefrontCore
@testable import StorefrontKit

@Suite("Click tokens")
struct ClickTokensTests {
    static let click = ClickToken(vendor: .segmentify, instanceId: "scn_1", interactionId: "act_1", productId: "100900",
                                  position: 2, destination: "https://www.ornekspor.com.tr/p-100900", expires: Date())

    @Test func aTokenItIssuedComesBackWithItsContent() throws {
        let tokens = ClickTokens()
        let token = try #require(tokens.verify(tokens.issue(Self.click)))
        #expect(token.productId == "100900" && token.position == 2 && token.instanceId == "scn_1")
        #expect(token.destination == "https://www.ornekspor.com.tr/p-100900")
        #expect(token.expires > Date().addingTimeInterval(3500))
    }

    @Test func tamperedOrForeignTokensAreRefused() {
        let tokens = ClickTokens()
        let text = tokens.issue(Self.click)
        let parts = text.split(separator: ".").map(String.init)
        // Another process's key: a well-formed token we never issued.
        #expect(tokens.verify(ClickTokens().issue(Self.click)) == nil)
        // The payload changed to point elsewhere, the tag kept.
        var evil = Self.click
        evil.destination = "https://evil.example/"
        let evilPayload = ClickTokens.base64URL(evil.payload)
        #expect(tokens.verify(evilPayload + "." + parts[1]) == nil)
        // One character of the payload or the tag changed.
        for part in [0, 1] {
            var changed = parts
            let flipped = changed[part].last == "A" ? "B" : "A"
            changed[part] = String(changed[part].dropLast()) + flipped
            #expect(tokens.verify(changed.joined(separator: ".")) == nil)
        }
        for junk in ["", ".", "abc", "abc.def", text + ".x", text + "=", "https://evil.example", String(repeating: "A", count: 5000)] {
            #expect(tokens.verify(junk) == nil)
        }
    }

    @Test func payloadKeepsAnyTextAndRefusesOtherShapes() throws {
        var click = Self.click
        click.instanceId = "a:b|1:c"
        click.destination = "https://shop.example/p?q=1:2&x=ü"
        let read = try #require(ClickToken(payload: click.payload))
        #expect(read.instanceId == click.instanceId && read.destination == click.destination && read.position == 2)
        #expect(ClickToken(payload: Array(click.payload.dropLast())) == nil)
        #expect(ClickToken(payload: click.payload + Array("1:x".utf8)) == nil)
        #expect(ClickToken(payload: Array("2".utf8) + click.payload.dropFirst()) == nil)
    }

    @Test func anExpiredTokenIsRefused() {
        let clock = TestClock()
        let tokens = ClickTokens(lifetime: .seconds(60), now: { clock.now })
        let text = tokens.issue(Self.click)
        clock.advance(by: 59)
        #expect(tokens.verify(text) != nil)
        clock.advance(by: 2)
        #expect(tokens.verify(text) == nil)
    }

    @Test func aSignedTokenStillNeedsAnAllowedDestination() {
        let tokens = ClickTokens()
        for destination in ["javascript:alert(1)", "//evil.example/x", "/\\evil.example", "data:text/html,hi", "ftp://x.example/", "https://", "/\u{0009}/evil.example"] {
            var click = Self.click
            click.destination = destination
            #expect(tokens.verify(tokens.issue(click)) == nil, "\(destination)")
        }
        for destination in ["/products/1", "http://shop.example/p", "https://shop.example/p?x=1"] {
            var click = Self.click
            click.destination = destination
            #expect(tokens.verify(tokens.issue(click))?.destination == destination)
        }
    }
}

/// A clock tests move by hand.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current = Date(timeIntervalSince1970: 1_800_000_000)
    var now: Date { lock.withLock { current } }
    func advance(by seconds: TimeInterval) { lock.withLock { current += seconds } }
}

@Suite("Base64url")
struct Base64URLTests {
    @Test func roundTripsEveryLengthAndMatchesFoundation() {
        var generator = SystemRandomNumberGenerator()
        for length in 1...70 {
            let bytes = (0..<length).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            let text = ClickTokens.base64URL(bytes)
            let foundation = Data(bytes).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            #expect(text == foundation)
            #expect(ClickTokens.bytes(base64URL: Substring(text)) == bytes)
        }
        #expect(ClickTokens.bytes(base64URL: "abcde") == nil, "a length no encoder writes")
        #expect(ClickTokens.bytes(base64URL: "ab+/") == nil, "standard base64 characters")
        #expect(ClickTokens.bytes(base64URL: "") == nil)
        #expect(ClickTokens.bytes(base64URL: "QQ") == [0x41])
        #expect(ClickTokens.bytes(base64URL: "QR") == nil, "the same byte spelled another way")
    }
}
