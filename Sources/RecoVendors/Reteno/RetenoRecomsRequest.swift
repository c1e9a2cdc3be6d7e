import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A Reteno getRecoms request, described completely before anything is sent: method, URL, headers and
/// body bytes. Send it with any HTTP client (``urlRequest`` for `URLSession`), or inspect it in tests.
///
/// `POST {baseURL}/api/v1/recoms/{variantId}/request`, with the headers `Content-Type:
/// application/json`, `X-Reteno-Access-Key`, `X-Reteno-SDK-Version` and, when given,
/// `X-Reteno-Device-ID`. The body is a JSON object with sorted keys:
///
/// - `products`: always present, `[]` for personal recommendations;
/// - `category`: only when not blank (empty or white space only);
/// - `filters`: only when there is at least one filter, each `{"name":…,"values":[…]}`;
/// - `fields`: from ``FieldSelection``: absent for ``FieldSelection/all`` (the server sends every
///   field), `[]` for ``FieldSelection/productIdOnly``, otherwise the listed names. `productId` is put
///   first in a list that lacks it, because a product without it cannot be shown or tracked.
///
/// ```swift
/// #if canImport(FoundationNetworking)
/// import FoundationNetworking   // URLSession on Linux
/// #endif
/// let request = try RetenoRecomsRequest(
///     variantId: RetenoVariantId("r1105v1480"), accessKey: key,
///     productIds: ["240-LV09"], fields: .only(["name", "descr", "imageUrl", "price"]))
/// let (data, _) = try await URLSession.shared.data(for: request.urlRequest)
/// let recoms = try RetenoRecoms.decode(data, variantId: request.variantId)
/// ```
public struct RetenoRecomsRequest: Hashable, Sendable {
    /// Reteno's mobile API, used unless another base URL is given.
    public static let defaultBaseURL = URL(string: "https://mobile-api.reteno.com")!
    /// The value of `X-Reteno-SDK-Version` unless another is given.
    public static let defaultSDKVersion = "RecoKit-Swift/0.1.0"

    /// Which recommendation variant to ask for; it goes only in the URL path.
    public var variantId: RetenoVariantId
    /// Your Reteno access key (`X-Reteno-Access-Key`).
    public var accessKey: String
    /// The products a product-based algorithm starts from (`products`).
    public var productIds: [String]
    /// The category a category-based algorithm starts from (`category`).
    public var category: String?
    /// Extra algorithm filters (`filters`).
    public var filters: [ProductFilter]
    /// Which product fields to receive (`fields`).
    public var fields: FieldSelection
    /// The visitor's device id (`X-Reteno-Device-ID`), when known.
    public var deviceId: String?
    /// Where Reteno's API is: ``defaultBaseURL``, or a local server standing in for it.
    public let baseURL: URL
    /// The value of `X-Reteno-SDK-Version`.
    public var sdkVersion: String

    /// Describes a request.
    /// - Throws: ``RetenoError`` when `baseURL` is not an absolute http or https URL.
    public init(
        variantId: RetenoVariantId, accessKey: String, productIds: [String] = [], category: String? = nil,
        filters: [ProductFilter] = [], fields: FieldSelection = .all, deviceId: String? = nil,
        baseURL: URL = RetenoRecomsRequest.defaultBaseURL, sdkVersion: String = RetenoRecomsRequest.defaultSDKVersion
    ) throws(RetenoError) {
        guard let scheme = baseURL.scheme?.lowercased(), scheme == "http" || scheme == "https", baseURL.host != nil else {
            throw .invalidBaseURL(baseURL.absoluteString)
        }
        self.variantId = variantId
        self.accessKey = accessKey
        self.productIds = productIds
        self.category = category
        self.filters = filters
        self.fields = fields
        self.deviceId = deviceId
        self.baseURL = baseURL
        self.sdkVersion = sdkVersion
    }

    /// Always `POST`.
    public var method: String { "POST" }

    /// `{baseURL}/api/v1/recoms/{variantId}/request` (a path in the base URL is kept).
    public var url: URL {
        var base = baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        return URL(string: base + "/api/v1/recoms/\(variantId)/request")!
    }

    /// The headers, by name.
    public var headers: [String: String] {
        var headers = [
            "Content-Type": "application/json",
            "X-Reteno-Access-Key": accessKey,
            "X-Reteno-SDK-Version": sdkVersion,
        ]
        if let deviceId { headers["X-Reteno-Device-ID"] = deviceId }
        return headers
    }

    /// The body as a JSON value, with the presence rules above.
    public var bodyJSON: JSONValue {
        var body: [String: JSONValue] = ["products": .array(productIds.map(JSONValue.string))]
        if let category, !category.allSatisfy(\.isWhitespace) {
            body["category"] = .string(category)
        }
        if !filters.isEmpty {
            body["filters"] = .array(filters.map { ["name": .string($0.name), "values": .array($0.values.map(JSONValue.string))] })
        }
        if var list = fields.fields {
            if !list.isEmpty && !list.contains("productId") { list.insert("productId", at: 0) }
            body["fields"] = .array(list.map(JSONValue.string))
        }
        return .object(body)
    }

    /// The body bytes: compact JSON, UTF-8, keys sorted.
    public var body: Data { Data(JSONWriter.string(bodyJSON).utf8) }

    /// The request for `URLSession`.
    public var urlRequest: URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body
        return request
    }
}
