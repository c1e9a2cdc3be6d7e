import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import Crypto
@testable import StorefrontCore
@testable import StorefrontKit

@Suite("Visitor cookies")
struct VisitorCookieTests {
    @Test func aSignedValueComesBackAndNothingElseDoes() throws {
        let cookies = VisitorCookies(key: Array(repeating: 7, count: 32))
        let id = VisitorCookies.newId()
        #expect(id.utf8.count == 32 && id.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) })
        let value = cookies.value(for: id, kind: .visitor)
        #expect(cookies.id(in: value, kind: .visitor) == id)
        #expect(cookies.id(in: value, kind: .session) == nil, "signed for the other cookie")
        #expect(VisitorCookies(key: Array(repeating: 8, count: 32)).id(in: value, kind: .visitor) == nil, "another key")
        let zeros = String(repeating: "0", count: 32)
        let tag = String(try #require(value.split(separator: ".").last))
        var forgeries: [String] = [zeros, id, zeros + "." + tag, String(id.reversed()) + "." + tag, value + "A"]
        forgeries += [value.uppercased(), "", ".", value + ".x", String(value.dropLast())]
        forgeries += [id + "." + String(repeating: "A", count: 43), String(repeating: "a", count: 5000)]
        for forged in forgeries {
            #expect(cookies.id(in: forged, kind: .visitor) == nil, "\(forged)")
        }
    }

    @Test func theReadyHMACIsSwiftCryptosHMAC() {
        // The tag is HMAC-SHA256 of "sf-<kind>-v1:<id>" with the key, as `HMAC<SHA256>` computes it (so
        // values signed before the ready key blocks still read), for keys shorter than, as long as and
        // longer than SHA-256's 64-byte block.
        let seed = Seed.fromEnvironmentOrRandom()
        print("VisitorCookieTests.hmac seed: \(seed) (STOREFRONT_TEST_SEED=\(seed) replays it)")
        var random = SplitMix64(seed: seed)
        for length in [0, 1, 31, 32, 33, 63, 64, 65, 100, 200] {
            let key = random.bytes(length)
            let cookies = VisitorCookies(key: key)
            for kind in [VisitorCookies.Kind.visitor, .session] {
                let id = random.hex(32)
                let expected = HMAC<SHA256>.authenticationCode(for: Array("sf-\(kind.rawValue)-v1:\(id)".utf8), using: SymmetricKey(data: key))
                #expect(Array(cookies.tag(id, kind: kind)) == Array(expected), "key of \(length) bytes, \(kind), seed \(seed)")
                #expect(cookies.id(in: cookies.value(for: id, kind: kind), kind: kind) == id)
            }
        }
    }

    @Test func aClientCannotChooseItsVisitorId() async throws {
        try await Harness.run { client, harness in
            let zeros = String(repeating: "0", count: 32)
            let page = try await client.page("/products/100900", cookies: "sf_visitor=\(zeros); sf_session=\(zeros)")
            #expect(page.status == .ok)
            let given = try #require(page.visitorId, "a forged cookie gets a fresh visitor, told by a new cookie")
            #expect(given != zeros)
            // The fresh visitor's signed cookies are accepted on the next request: no new cookie then.
            let again = try await client.page("/products/100900?blocks=off", cookies: page.cookies)
            #expect(again.cookies.isEmpty)
            _ = await harness.deliverEverything()
            let users = Set(harness.segmentifyEvents.compactMap { $0["userId"]?.stringValue })
            #expect(users == [given])
        }
    }
}
