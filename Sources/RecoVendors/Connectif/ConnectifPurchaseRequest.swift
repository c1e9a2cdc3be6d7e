import Foundation
import RecoKit
import RecoHTTP

/// A purchase as Connectif's public HTTP API creates it ("create purchase"), described completely
/// before it is sent.
///
/// `POST {baseURL}/purchases/?triggerPurchaseEvent=true|false` with `Authorization: apiKey {key}`,
/// `Content-Type: application/json` and `Accept: application/json`. The body is the purchase
/// (`purchaseId`, `cartId`, `totalQuantity`, `totalPrice`, `products`, optional `purchaseDate` and
/// `paymentMethod`, as ``ConnectifPurchaseEvent`` writes them) plus the contact who bought:
/// `contactEmail`, or `contactExternalId`. `source_name` and `source_type` belong to the web
/// tracking event, not to the API's purchase, and are left out.
///
/// Connectif answers 400 with a JSON body whose `code` says why (`E0101`: the contact does not
/// exist, create it first; `E0102`: a product is not in the catalog; `E0103`: a product URL is not from
/// an authorised domain), 401 or 403 for the key, 429 past the rate limit.
///
/// ```swift
/// let request = try ConnectifPurchaseRequest(purchase: purchase, contact: .email("ana@example.com"), apiKey: key)
/// let reply = try await URLSessionTransport.shared.send(request.request, timeout: .seconds(10))
/// ```
public struct ConnectifPurchaseRequest: Hashable, Sendable {
    /// Connectif's API, used unless another base URL is given.
    public static let defaultBaseURL = URL(string: "https://api.connectif.cloud")!

    /// Who made the purchase; the contact must already exist in Connectif.
    public enum Contact: Hashable, Sendable {
        /// The contact's e-mail address (`contactEmail`).
        case email(String)
        /// The contact's id in your systems (`contactExternalId`).
        case externalId(String)
    }

    /// The purchase, validated.
    public let purchase: Purchase
    /// Who made it.
    public let contact: Contact
    /// The API key (`Authorization: apiKey …`).
    public let apiKey: String
    /// Whether Connectif runs its on-purchase workflows for it (`triggerPurchaseEvent`).
    public let triggerPurchaseEvent: Bool
    /// Where the API is.
    public let baseURL: URL

    /// Describes the request.
    /// - Throws: ``ConnectifError`` naming the first field of the purchase that breaks a rule, a blank
    ///   contact or api key, or a base URL that is not http(s).
    public init(purchase: Purchase, contact: Contact, apiKey: String, triggerPurchaseEvent: Bool = true,
                baseURL: URL = ConnectifPurchaseRequest.defaultBaseURL) throws(ConnectifError) {
        try purchase.validate()
        switch contact {
        case .email(let value), .externalId(let value):
            if value.allSatisfy(\.isWhitespace) { throw .missingField(contact.field) }
        }
        if apiKey.allSatisfy(\.isWhitespace) { throw .missingField("apiKey") }
        guard let scheme = baseURL.scheme?.lowercased(), scheme == "http" || scheme == "https", baseURL.host != nil else {
            throw .invalidField("baseURL", "must be an absolute http or https URL, got \"\(baseURL.absoluteString)\"")
        }
        self.purchase = purchase
        self.contact = contact
        self.apiKey = apiKey
        self.triggerPurchaseEvent = triggerPurchaseEvent
        self.baseURL = baseURL
    }

    /// `{baseURL}/purchases/?triggerPurchaseEvent=…` (a path in the base URL is kept).
    public var url: URL {
        var base = baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        return URL(string: base + "/purchases/?triggerPurchaseEvent=\(triggerPurchaseEvent)")!
    }

    /// The headers, in the order they are sent.
    public var headers: [(name: String, value: String)] {
        [("Authorization", "apiKey \(apiKey)"), ("Content-Type", "application/json"), ("Accept", "application/json")]
    }

    /// The body as a JSON value.
    public var bodyJSON: JSONValue {
        guard case .object(var members) = ConnectifPurchaseEvent.json(purchase) else { return .null }
        members["source_name"] = nil
        members["source_type"] = nil
        switch contact {
        case .email(let email): members["contactEmail"] = .string(email)
        case .externalId(let id): members["contactExternalId"] = .string(id)
        }
        return .object(members)
    }

    /// The body bytes: compact JSON, UTF-8, keys sorted.
    public var body: Data { Data(JSONWriter.string(bodyJSON).utf8) }

    /// The request as RecoHTTP's value, for any ``RecoHTTP/Transport``.
    public var request: VendorRequest { VendorRequest(url: url, headers: headers, body: body) }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.purchase == rhs.purchase && lhs.contact == rhs.contact && lhs.apiKey == rhs.apiKey
            && lhs.triggerPurchaseEvent == rhs.triggerPurchaseEvent && lhs.baseURL == rhs.baseURL
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(purchase)
        hasher.combine(contact)
    }
}

extension ConnectifPurchaseRequest.Contact {
    /// The body field that names the contact.
    var field: String {
        switch self {
        case .email: "contactEmail"
        case .externalId: "contactExternalId"
        }
    }
}
