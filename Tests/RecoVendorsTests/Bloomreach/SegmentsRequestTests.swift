import Foundation
import Testing
@testable import RecoVendors

@Suite("Bloomreach segments request")
struct SegmentsRequestTests {
    @Test func describesTheGetRequest() throws {
        let request = try SegmentsRequest(base: URL(string: "https://api.exponea.com")!,
                                          projectToken: "c1d0f8a2-55aa-11ee-8f01-6a8fd4a1f0b3", cookie: "b5e2a9d0-7c41-4f1e-9e0b-3d2f7a6c8e15")
        #expect(request.method == "GET")
        #expect(request.url.absoluteString == "https://api.exponea.com/webxp/projects/c1d0f8a2-55aa-11ee-8f01-6a8fd4a1f0b3/segments?cookie=b5e2a9d0-7c41-4f1e-9e0b-3d2f7a6c8e15")
        #expect(request.urlRequest.httpMethod == "GET")
        #expect(request.urlRequest.url == request.url)
        #expect(request.urlRequest.value(forHTTPHeaderField: "Accept") == "application/json")
        #expect(request.urlRequest.httpBody == nil)
    }

    @Test func percentEncodesTheTokenAndTheCookie() throws {
        let request = try SegmentsRequest(base: URL(string: "https://eu.example.com/proxy/")!,
                                          projectToken: "team/a b", cookie: "id=1&x+y/ü?#")
        #expect(request.url.absoluteString == "https://eu.example.com/proxy/webxp/projects/team%2Fa%20b/segments?cookie=id%3D1%26x%2By%2F%C3%BC%3F%23")
        let query = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems
        #expect(query == [URLQueryItem(name: "cookie", value: "id=1&x+y/ü?#")], "the cookie comes back whole")
    }

    @Test(arguments: [
        ("ftp://api.exponea.com", "token", "cookie", "base"),
        ("https://api.exponea.com", " ", "cookie", "projectToken"),
        ("https://api.exponea.com", "token", "", "cookie"),
    ])
    func refusesWhatCannotBeSent(base: String, token: String, cookie: String, parameter: String) {
        #expect {
            try SegmentsRequest(base: URL(string: base)!, projectToken: token, cookie: cookie)
        } throws: { error in
            (error as? BloomreachError)?.parameter == parameter
        }
    }

    @Test func theURLSessionFetcherRefusesABadRequestBeforeTheNetwork() async {
        let fetcher = HTTPSegmentsFetcher(base: URL(string: "https://api.exponea.com")!, projectToken: "")
        await #expect {
            try await fetcher.fetchSegments(cookie: "b5e2a9d0")
        } throws: { error in
            (error as? BloomreachError)?.parameter == "projectToken"
        }
    }
}
