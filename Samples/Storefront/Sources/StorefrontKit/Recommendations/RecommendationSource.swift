import Foundation
import Logging
import RecoKit
import RecoTracking
import RecoVendors

/// Fetches a product page's recommendation blocks from Segmentify and Reteno at once, each within
/// the settings' timeout, and decodes them into ``StoreProduct``. A vendor that fails, answers an
/// error or is too slow contributes no block; what went wrong is logged, never thrown.
public struct RecommendationSource: Sendable {
    /// Where the vendors are.
    public let settings: VendorSettings
    /// How requests are sent (RecoKit's transport).
    public let transport: any Transport
    let logger: Logger

    /// A source sending through `transport`.
    public init(settings: VendorSettings, transport: any Transport = URLSessionTransport.shared,
                logger: Logger = Logger(label: "storefront.recommendations")) {
        self.settings = settings
        self.transport = transport
        self.logger = logger
    }

    /// The blocks for a product page, Segmentify's first; empty when no vendor answered in time.
    public func blocks(forProduct productId: String, visitor: Visitor, pageURL: String) async -> [Widget<StoreProduct>] {
        async let segmentify = segmentifyBlocks(productId: productId, visitor: visitor, pageURL: pageURL)
        async let reteno = retenoBlocks(productId: productId)
        return await segmentify + reteno
    }

    func segmentifyBlocks(productId: String, visitor: Visitor, pageURL: String) async -> [Widget<StoreProduct>] {
        let request = SegmentifyRecommendationRequest(dataCenter: settings.segmentify, apiKey: settings.segmentifyApiKey,
                                            origin: settings.segmentifyOrigin, productId: productId, visitor: visitor,
                                            language: settings.language, pageURL: pageURL).request
        guard let body = await send(request, vendor: "segmentify") else { return [] }
        do {
            return keep(try SegmentifyRecommendations.decode(body, language: settings.language), vendor: "segmentify")
        } catch {
            logger.warning("segmentify reply not usable: \(error)")
            return []
        }
    }

    func retenoBlocks(productId: String) async -> [Widget<StoreProduct>] {
        let recoms: RetenoRecomsRequest
        do {
            recoms = try RetenoRecomsRequest(variantId: settings.retenoVariant, accessKey: settings.retenoAccessKey,
                                             productIds: [productId], baseURL: settings.reteno)
        } catch {
            logger.warning("reteno request not built: \(error)")
            return []
        }
        let request = TrackingRequest(method: recoms.method, url: recoms.url,
                                      headers: recoms.headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) },
                                      body: recoms.body)
        guard let body = await send(request, vendor: "reteno") else { return [] }
        do {
            return keep(try RetenoRecoms.decode(body, variantId: settings.retenoVariant, title: "Customers also viewed"), vendor: "reteno")
        } catch {
            logger.warning("reteno reply not usable: \(error)")
            return []
        }
    }

    /// Decodes into the shop's model, drops products out of stock, and logs what the report says.
    private func keep(_ reply: Recommendations<RawProduct>, vendor: String) -> [Widget<StoreProduct>] {
        let decoded = reply.decoded(as: StoreProduct.self)
        for failure in decoded.report.failures { logger.notice("\(vendor): product skipped: \(failure)") }
        return decoded.widgets.compactMap { widget in
            var widget = widget
            widget.items = widget.items.filter { $0.product.inStock != false }
            return widget.items.isEmpty ? nil : widget
        }
    }

    /// The reply's body on a 2xx answer within the timeout; nil (logged) otherwise.
    private func send(_ request: TrackingRequest, vendor: String) async -> Data? {
        let timeout = settings.timeout
        let transport = self.transport
        // The page's budget is kept here, whatever the transport does with its timeout (a caller's own
        // transport may ignore it): the request races a timer, and the loser is cancelled. The transport
        // gets a whole second more as its own limit.
        let transportTimeout = Duration.seconds(max(1, timeout.components.seconds + 1))
        do {
            let reply = try await withThrowingTaskGroup(of: TrackingReply?.self) { group in
                group.addTask { try await transport.send(request, timeout: transportTimeout) }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    return nil
                }
                defer { group.cancelAll() }
                return try await group.next() ?? nil
            }
            guard let reply else {
                logger.warning("\(vendor) did not answer within \(timeout): page rendered without its blocks")
                return nil
            }
            guard (200..<300).contains(reply.status) else {
                logger.warning("\(vendor) answered HTTP \(reply.status): page rendered without its blocks")
                return nil
            }
            return reply.body
        } catch {
            logger.warning("\(vendor) unreachable (\(error)): page rendered without its blocks")
            return nil
        }
    }
}
