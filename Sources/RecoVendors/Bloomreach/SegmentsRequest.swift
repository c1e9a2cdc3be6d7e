import Foundation
import RecoHTTP
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The request for a customer's real-time segments:
/// `GET {base}/webxp/projects/{projectToken}/segments?cookie={cookieId}`, the token and the cookie
/// percent-encoded (only letters, digits and `-._~` stay as they are).
///
/// ```swift
/// let request = try SegmentsRequest(base: URL(string: "https://api.exponea.com")!,
///                                   projectToken: "a1b2c3", cookie: "cookie 1/2")
/// request.url   // https://api.exponea.com/webxp/projects/a1b2c3/segments?cookie=cookie%201%2F2
/// ```
public struct SegmentsRequest: Hashable, Sendable {
    /// The HTTP method: `GET`.
    public let method = "GET"
    /// The full URL.
    public let url: URL
    /// The headers to send.
    public let headers: [String: String] = ["Accept": "application/json"]

    /// Describes the request.
    /// - Parameters:
    ///   - base: The API base, `http` or `https`, possibly with a path (a trailing `/` is ignored).
    ///   - projectToken: The Bloomreach project token.
    ///   - cookie: The customer's cookie id.
    /// - Throws: ``BloomreachError`` naming the parameter that is empty or malformed.
    public init(base: URL, projectToken: String, cookie: String) throws(BloomreachError) {
        guard let scheme = base.scheme?.lowercased(), scheme == "http" || scheme == "https", base.host != nil else {
            throw .invalidParameter("base", "expected an http or https URL with a host, got \"\(base.absoluteString)\"")
        }
        guard !projectToken.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw .invalidParameter("projectToken", "must not be empty")
        }
        guard !cookie.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw .invalidParameter("cookie", "must not be empty")
        }
        var prefix = base.absoluteString
        while prefix.hasSuffix("/") { prefix.removeLast() }
        let text = prefix + "/webxp/projects/" + PercentEncoding.encode(projectToken) + "/segments?cookie=" + PercentEncoding.encode(cookie)
        guard let url = URL(string: text) else {
            throw .invalidParameter("base", "cannot form a URL from \"\(base.absoluteString)\"")
        }
        self.url = url
    }

    /// The request for a RecoTracking ``Transport`` (the toolkit's HTTP client).
    public var request: VendorRequest {
        VendorRequest(method: method, url: url, headers: headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, body: Data())
    }

    /// The request as a `URLRequest`.
    public var urlRequest: URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return request
    }
}
