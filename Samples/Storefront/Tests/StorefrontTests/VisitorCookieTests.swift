import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
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
