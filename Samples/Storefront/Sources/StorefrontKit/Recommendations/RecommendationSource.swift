import Foundation
import Logging
import RecoKit
import RecoKitAsyncHTTPClient
import RecoPage
import RecoTracking
import RecoVendors

/// Asks Segmentify and Reteno at once for a product page's recommendation blocks, through RecoPage's
/// ``RecoPage/RecommendationsClient`` (the budget race, requests per vendor bounded), and decodes them
/// into ``StoreProduct``. With a ``cache`` (`--cache-ttl`, off by default) both requests are marked
/// shared, keyed by the product alone, so every visitor of a product page sees the blocks (and their
/// ids) rendered for the first: RecoPage keeps the answers and the rendered blocks beside them, asks
/// once for pages that miss together, and never keeps an outage. A vendor that fails, answers an error, is too slow (headers or body), or
/// answers more than ``VendorSettings/maxReplyBytes`` contributes no block; a block or product over
/// ``StorefrontLimits`` is left out. What went wrong is logged, never thrown.
///
/// A vendor that fails is served down RecoPage's fallback chain (``RecoPage/ServedBlock``): with a cache,
/// its last good answer while the cache keeps it (stale-while-revalidate, then stale-if-error); then the
/// ``shopList`` (the shop's best sellers, marked as the shop's own), shown once however many vendors
/// failed; then no block.
public struct RecommendationSource: Sendable {
    /// Where the vendors are.
    public let settings: VendorSettings
    /// How requests are sent (RecoKit's transport).
    public let transport: any Transport
    /// What is taken from a reply at most.
    public let limits: StorefrontLimits
    /// Where answers and rendered blocks are kept between pages, when caching is on (off by default).
    public let cache: RecommendationsCache?
    /// Shown in a failed vendor's place when no answer of it is kept; none by default.
    public let shopList: ShopList?
    let logger: Logger
    let client: RecommendationsClient

    /// A source sending through `transport` (AsyncHTTPClient's unless given: on Linux a reply header can
    /// stop a process that sends through `URLSessionTransport`), keeping what all visitors may share in
    /// `cache` if given, showing `shopList` where a vendor failed and nothing of it is kept, and telling
    /// `observer` each answer and which step served each block (``StorefrontMetrics/pages``).
    public init(settings: VendorSettings, transport: any Transport = AsyncHTTPClientTransport.shared, limits: StorefrontLimits = StorefrontLimits(),
                cache: RecommendationsCache? = nil, shopList: ShopList? = nil, observer: (any PageObserver)? = nil,
                logger: Logger = Logger(label: "storefront.recommendations")) {
        self.settings = settings
        self.transport = transport
        self.limits = limits
        self.cache = cache
        self.shopList = shopList
        self.logger = logger
        client = RecommendationsClient(transport: transport, cache: cache, maxInFlightPerVendor: 64, maxReplyBytes: settings.maxReplyBytes,
                                       observer: observer)
    }

    /// The blocks for a product page, Segmentify's first, within ``StorefrontLimits``, as `render`
    /// renders them (named `name` in the cache); none when no vendor answered in time or rendering
    /// failed. Kept and served from the ``cache`` when there is one and both vendors answered.
    public func blocks(forProduct productId: String, visitor: Visitor, pageURL: String, name: String,
                       render: ([Widget<StoreProduct>]) throws -> RenderedPage<StoreProduct>) async -> RenderedPage<StoreProduct> {
        let shared = cache != nil
        if shared, let kept = StageClock.shared.measure(.lookup, {
            client.keptPage(for: cacheKeys(productId: productId), as: StoreProduct.self, name: name)
        }) { return kept }
        var requests = [segmentifyRequest(productId: productId, visitor: visitor, pageURL: pageURL, shared: shared),
                        retenoRequest(productId: productId, shared: shared)].compactMap { $0 }
        for index in requests.indices { requests[index].fallback = shopList.map { [$0] } ?? [] }
        do {
            return try await client.renderedPage(for: requests, as: StoreProduct.self, budget: settings.timeout, name: name) { parts in
                try render(kept(parts))
            }
        } catch {
            logger.error("blocks not rendered: \(error)")
            return .none
        }
    }

    /// The keys of a product page's answers when shared, Segmentify's and Reteno's: the product alone
    /// (and Reteno's variant), whoever the visitor. Known without building the requests, so a page
    /// served from the cache builds none.
    func cacheKeys(productId: String) -> [RecommendationsCacheKey] {
        [RecommendationsCacheKey(vendor: .segmentify, kind: "PRODUCT_VIEW", subject: "product:\(productId)"),
         RecommendationsCacheKey(vendor: .reteno, kind: "recoms", subject: "product:\(productId)", variant: settings.retenoVariant.description)]
    }

    /// Every vendor's blocks within ``limits``, in order (at most ``StorefrontLimits/maxBlocks`` from each),
    /// the shop's list once however many vendors it stands in for; why a vendor gave no answer of its own
    /// is logged with what served its place.
    func kept(_ parts: [VendorWidgets<StoreProduct>]) -> [Widget<StoreProduct>] {
        var widgets: [Widget<StoreProduct>] = []
        for part in parts {
            if let reason = part.failure { log(reason, servedBy: part.served.step) }
            guard case .success(let recommendations) = part.result else { continue }
            let shown = keep(recommendations, vendor: part.vendor.rawValue)
            widgets += shown.filter { widget in !widget.isShopBlock || !widgets.contains { $0.instanceId == widget.instanceId } }
        }
        return widgets
    }

    /// Segmentify's request: a `PRODUCT_VIEW` of the product alone (the sample has no catalog for the
    /// fields a full product view carries), whose reply is checked for absurd `itemCount`s before decoding.
    /// Shared, it is keyed by the product alone (the cache's promise: every visitor sees the same blocks).
    func segmentifyRequest(productId: String, visitor: Visitor, pageURL: String, shared: Bool = false) -> RecommendationsRequest? {
        let event: JSONValue = .object([
            "name": "PRODUCT_VIEW", "productId": .string(productId), "userId": .string(visitor.id),
            "sessionId": .string(visitor.session), "lang": .string(settings.language), "pageUrl": .string(pageURL),
        ])
        let segmentify: SegmentifyRecommendationsRequest
        do {
            segmentify = try SegmentifyRecommendationsRequest(dataCenter: settings.segmentify, apiKey: settings.segmentifyApiKey,
                                                              origin: settings.segmentifyOrigin, objects: [event], language: settings.language)
        } catch {
            logger.warning("segmentify request not built: \(error)")
            return nil
        }
        let (language, maxItemCount, logger) = (settings.language, limits.maxItemCount, logger)
        let sharing: RecommendationsRequest.Sharing = shared ? .shared(cacheKeys(productId: productId)[0]) : .personal
        return RecommendationsRequest(vendor: .segmentify, http: segmentify.request, sharing: sharing) { (body: Data) throws(PayloadError) in
            try StageClock.shared.measure(.decode) { () throws(PayloadError) in
                let (reply, leftOut) = SegmentifyCountCheck.check(try JSONValue(parsing: body), maxItemCount: maxItemCount)
                for reason in leftOut { logger.warning("segmentify block left out: \(reason)") }
                return try SegmentifyRecommendations.decode(reply, language: language)
            }
        }
    }

    /// Reteno's request for products like this one (shared: keyed by its variant and the product).
    func retenoRequest(productId: String, shared: Bool = false) -> RecommendationsRequest? {
        do {
            let recoms = try RetenoRecomsRequest(variantId: settings.retenoVariant, accessKey: settings.retenoAccessKey,
                                                 productIds: [productId], baseURL: settings.reteno)
            let variant = recoms.variantId
            return RecommendationsRequest(vendor: .reteno, http: recoms.request, sharing: shared ? .shared(cacheKeys(productId: productId)[1]) : .personal) { (body: Data) throws(PayloadError) in
                try StageClock.shared.measure(.decode) { () throws(PayloadError) in
                    try RetenoRecoms.decode(body, variantId: variant, title: "Customers also viewed")
                }
            }
        } catch {
            logger.warning("reteno request not built: \(error)")
            return nil
        }
    }

    /// Logs why a vendor gave no answer of its own, and what served its place (`step`: no block, a kept
    /// answer, or the shop's list).
    private func log(_ reason: NoWidgets, servedBy step: ServedBlock.Step) {
        let vendor = reason.vendor
        let outcome = step == .none ? "page rendered without its blocks" : "its place served by \(step)"
        switch reason.kind {
        case .outOfBudget:
            logger.warning("\(vendor) did not answer within \(settings.timeout): \(outcome)")
        case .tooLarge:
            logger.warning("\(vendor) unusable (\(TransportError.replyTooLarge(limit: settings.maxReplyBytes))): \(outcome)")
        case .network:
            logger.warning("\(vendor) unreachable (\(Self.brief(reason.networkError ?? reason))): \(outcome)")
        case .httpStatus:
            logger.warning("\(vendor) answered HTTP \(reason.status ?? 0): \(outcome)")
        default:
            if let report = reason.report {
                for failure in report.failures.prefix(20) { logger.notice("\(vendor): product skipped: \(Self.brief(failure))") }
            }
            logger.warning("\(vendor) reply not usable: \(Self.brief(reason.payloadError.map { $0 as any Error } ?? reason)); \(outcome)")
        }
    }

    /// Drops products out of stock and whatever is over ``limits``, and logs what the report says and
    /// what was left out.
    private func keep(_ decoded: Recommendations<StoreProduct>, vendor: String) -> [Widget<StoreProduct>] {
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
