import Foundation
import Logging
import RecoKit
import RecoTracking
import RecoVendors

/// Fetches a product page's recommendation blocks from Segmentify and Reteno at once, each within
/// the settings' timeout, and decodes them into ``StoreProduct``. A vendor that fails, answers an
/// error, is too slow (headers or body), or answers more than ``VendorSettings/maxReplyBytes``
/// contributes no block; a block or product over ``StorefrontLimits`` is left out. What went wrong is
/// logged, never thrown.
public struct RecommendationSource: Sendable {
    /// Where the vendors are.
    public let settings: VendorSettings
    /// How requests are sent (RecoKit's transport).
    public let transport: any Transport
    /// What is taken from a reply at most.
    public let limits: StorefrontLimits
    let logger: Logger

    /// A source sending through `transport`.
    public init(settings: VendorSettings, transport: any Transport = URLSessionTransport.shared, limits: StorefrontLimits = StorefrontLimits(),
                logger: Logger = Logger(label: "storefront.recommendations")) {
        self.settings = settings
        self.transport = transport
        self.limits = limits
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
            let decoded = try StageClock.shared.measure(.decode) {
                let (reply, leftOut) = SegmentifyCountCheck.check(try JSONValue(parsing: body), maxItemCount: limits.maxItemCount)
                return (try keep(SegmentifyRecommendations.decode(reply, language: settings.language), vendor: "segmentify"), leftOut)
            }
            for reason in decoded.1 { logger.warning("segmentify block left out: \(reason)") }
            return decoded.0
        } catch {
            logger.warning("segmentify reply not usable: \(Self.brief(error))")
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
            return try StageClock.shared.measure(.decode) {
                keep(try RetenoRecoms.decode(body, variantId: settings.retenoVariant, title: "Customers also viewed"), vendor: "reteno")
            }
        } catch {
            logger.warning("reteno reply not usable: \(Self.brief(error))")
            return []
        }
    }

    /// Decodes into the shop's model, drops products out of stock and whatever is over ``limits``, and
    /// logs what the report says and what was left out.
    private func keep(_ reply: Recommendations<RawProduct>, vendor: String) -> [Widget<StoreProduct>] {
        let decoded = reply.decoded(as: StoreProduct.self)
        for failure in decoded.report.failures.prefix(20) { logger.notice("\(vendor): product skipped: \(Self.brief(failure))") }
        var kept: [Widget<StoreProduct>] = []
        for widget in decoded.widgets {
            if let reason = limits.refusal(of: widget) {
                logger.warning("\(vendor) block left out: \(reason)")
                continue
            }
            guard kept.count < limits.maxBlocks else {
                logger.warning("\(vendor) block left out: \(String(widget.instanceId.prefix(64))) is past the \(limits.maxBlocks) blocks a page shows")
                continue
            }
            var widget = widget
            var items: [WidgetItem<StoreProduct>] = []
            for item in widget.items where item.product.inStock != false {
                if let reason = limits.refusal(of: item) {
                    logger.notice("\(vendor): product skipped in \(widget.instanceId): \(reason)")
                } else if items.count < limits.maxProductsPerBlock {
                    items.append(item)
                }
            }
            widget.items = items
            if !items.isEmpty { kept.append(widget) }
        }
        return kept
    }

    /// The reply's body on a 2xx answer, whole within the timeout and within the size limit; nil (logged)
    /// otherwise.
    private func send(_ request: TrackingRequest, vendor: String) async -> Data? {
        let timeout = settings.timeout
        let transport = self.transport
        // The page's budget is kept here, whatever the transport does with its timeout (a caller's own
        // transport may ignore it, or read a slow body for longer): see ``Deadline``. The transport gets
        // a whole second more as its own limit.
        let transportTimeout = Duration.seconds(max(1, timeout.components.seconds + 1))
        let outcome = await Deadline.race(timeout) { try await transport.send(request, timeout: transportTimeout) }
        switch outcome {
        case .late:
            logger.warning("\(vendor) did not answer within \(timeout): page rendered without its blocks")
            return nil
        case .failed(let error as ReplyTooLarge):
            logger.warning("\(vendor) unusable (\(error)): page rendered without its blocks")
            return nil
        case .failed(let error):
            logger.warning("\(vendor) unreachable (\(Self.brief(error))): page rendered without its blocks")
            return nil
        case .done(let reply):
            guard (200..<300).contains(reply.status) else {
                logger.warning("\(vendor) answered HTTP \(reply.status): page rendered without its blocks")
                return nil
            }
            guard reply.body.count <= settings.maxReplyBytes else {
                logger.warning("\(vendor) unusable (\(ReplyTooLarge(limit: settings.maxReplyBytes))): page rendered without its blocks")
                return nil
            }
            return reply.body
        }
    }

    /// A vendor's error or failure for the log: control characters escaped, cut after 400 characters.
    static func brief(_ value: Any) -> String {
        let text = String(describing: value)
        var out = ""
        for scalar in text.unicodeScalars.prefix(400) {
            if scalar.value < 0x20 || scalar.value == 0x7F { out += "\\u{\(String(scalar.value, radix: 16))}" } else { out.unicodeScalars.append(scalar) }
        }
        return text.unicodeScalars.count > 400 ? out + "…" : out
    }
}
