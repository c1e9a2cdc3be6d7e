import Foundation
import RecoKit
import RecoHTTP

/// Delivers purchases of one contact through Connectif's public HTTP API (``ConnectifPurchaseRequest``),
/// for ``Connectif``: make one per purchase, naming who bought.
///
/// ```swift
/// let connectif = Connectif(sender: ConnectifAPISender(apiKey: key, contact: .email("ana@example.com")),
///                           context: .collected(appVersion: "2.4.1"))
/// if case .failure(let error) = await connectif.sendPurchase(purchase) { print(error) }
/// ```
///
/// A reply other than 2xx is ``ConnectifError/sendFailed(_:)`` naming the status and, for a 400,
/// Connectif's `code` and `detail` (`HTTP 400 E0101: Contact ana@example.com does not exist.`).
public struct ConnectifAPISender: ConnectifEventSender {
    /// The API key.
    public let apiKey: String
    /// Who made the purchases sent.
    public let contact: ConnectifPurchaseRequest.Contact
    /// Whether Connectif runs its on-purchase workflows.
    public let triggerPurchaseEvent: Bool
    /// Where the API is.
    public let baseURL: URL
    /// How requests are sent.
    public let transport: any Transport
    /// How long one request may take.
    public let timeout: Duration

    /// A sender for `contact`'s purchases.
    public init(apiKey: String, contact: ConnectifPurchaseRequest.Contact, triggerPurchaseEvent: Bool = true,
                baseURL: URL = ConnectifPurchaseRequest.defaultBaseURL, transport: any Transport = URLSessionTransport.shared,
                timeout: Duration = .seconds(10)) {
        self.apiKey = apiKey
        self.contact = contact
        self.triggerPurchaseEvent = triggerPurchaseEvent
        self.baseURL = baseURL
        self.transport = transport
        self.timeout = timeout
    }

    /// Creates the event's purchase in Connectif.
    /// - Throws: ``ConnectifError``: the purchase or contact refused before sending, or `sendFailed`
    ///   with the status and Connectif's reason.
    public func send(_ event: ConnectifPurchaseEvent) async throws(ConnectifError) {
        let request = try ConnectifPurchaseRequest(purchase: event.purchase, contact: contact, apiKey: apiKey,
                                                   triggerPurchaseEvent: triggerPurchaseEvent, baseURL: baseURL)
        let reply: VendorReply
        do {
            reply = try await transport.send(request.request, timeout: timeout)
        } catch {
            throw .sendFailed("Connectif unreachable: \(ErrorWords.of(error))")
        }
        guard (200..<300).contains(reply.status) else { throw .sendFailed(Self.reason(reply)) }
        guard !reply.isWebPage else {
            throw .sendFailed("HTTP \(reply.status): the address answered with a web page, not Connectif's API (is it the right address?)")
        }
    }

    /// The status, with Connectif's `code` and `detail` when the body has them.
    static func reason(_ reply: VendorReply) -> String {
        // An error body is a few fields: one over 1 MiB is not made into a tree, only shown as text.
        guard let json = try? JSONValue(parsing: reply.body, limits: JSONLimits(maximumInputBytes: 1 << 20)) else { return "HTTP \(reply.status): \(reply.bodyText(limit: 200))" }
        let code = json["code"]?.stringValue?.shortened(to: String.quotedCodeLength)
        let detail = (json["detail"]?.stringValue ?? json["title"]?.stringValue)?.shortened(to: String.quotedWordsLength)
        switch (code, detail) {
        case let (code?, detail?): return "HTTP \(reply.status) \(code): \(detail)"
        case let (nil, detail?): return "HTTP \(reply.status): \(detail)"
        case let (code?, nil): return "HTTP \(reply.status) \(code)"
        case (nil, nil): return "HTTP \(reply.status): \(reply.bodyText(limit: 200))"
        }
    }
}
