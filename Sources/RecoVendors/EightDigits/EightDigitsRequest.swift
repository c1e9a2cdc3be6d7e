import Foundation
import RecoHTTP
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One 8digits API call, described without sending it: method, URL and form fields.
///
/// The tracking API takes `application/x-www-form-urlencoded` POST bodies; the badge image is a GET.
public struct EightDigitsRequest: Hashable, Sendable {
    /// `POST`, or `GET` for a badge image.
    public let method: String
    /// The full URL.
    public let url: URL
    /// The form fields, sorted by name (absent optional fields are left out).
    public let form: [FormField]

    /// One field of a form body.
    public struct FormField: Hashable, Sendable {
        /// The field's name.
        public let name: String
        /// The field's value.
        public let value: String
    }

    init(method: String = "POST", url: URL, fields: [String: String?]) {
        self.method = method
        self.url = url
        self.form = fields.compactMap { name, value in value.map { FormField(name: name, value: $0) } }.sorted { $0.name < $1.name }
    }

    /// The value of a form field, nil when absent.
    public subscript(field name: String) -> String? { form.first { $0.name == name }?.value }

    /// The form fields by name.
    public var fields: [String: String] { Dictionary(uniqueKeysWithValues: form.map { ($0.name, $0.value) }) }

    /// The body's content type: `application/x-www-form-urlencoded; charset=utf-8` (nil for a GET).
    public var contentType: String? { method == "GET" ? nil : "application/x-www-form-urlencoded; charset=utf-8" }

    /// The form body: `name=value&…`, percent-encoded (nil for a GET).
    public var body: Data? {
        guard method != "GET" else { return nil }
        return Data(form.map { PercentEncoding.encode($0.name) + "=" + PercentEncoding.encode($0.value) }.joined(separator: "&").utf8)
    }

    /// The request for a RecoTracking ``Transport`` (the toolkit's HTTP client).
    public var request: VendorRequest {
        var headers: [(name: String, value: String)] = [("Accept", "application/json")]
        if let contentType { headers.append(("Content-Type", contentType)) }
        return VendorRequest(method: method, url: url, headers: headers, body: body ?? Data())
    }

    /// The request as a `URLRequest`.
    public var urlRequest: URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let contentType { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
        request.httpBody = body
        return request
    }
}
