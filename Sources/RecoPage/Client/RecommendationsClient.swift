import Foundation
import RecoKit
import RecoHTTP

/// Fetches a page's recommendations within a budget: one call per page, several vendors asked at
/// once, each answer decoded into your model, or a typed reason (``NoWidgets``) why a vendor gave none.
///
/// ```swift
/// let client = RecommendationsClient(cache: RecommendationsCache(timeToLive: .seconds(60)))
/// let products = try await client.widgets(for: segmentify, as: Product.self, budget: .milliseconds(300))
/// ```
///
/// - The budget covers the whole answer, headers and body: at the budget the page goes on without it,
///   whatever the transport does. A vendor that fails fast (refused connection, error code) answers
///   at once and does not hold the page.
/// - At most ``maxInFlightPerVendor`` requests to one vendor are under way at a time; the others wait
///   their turn within their budget.
/// - A request marked shared is answered from the ``cache`` when it can be (see
///   ``RecommendationsCache``); its fetch is not cancelled at one page's budget (other pages, and the
///   next ones, want it), but is bounded by ``sharedFetchTimeout``.
public final class RecommendationsClient: @unchecked Sendable {
    /// How requests are sent.
    public let transport: any Transport
    /// Where shared answers are kept, if anywhere.
    public let cache: RecommendationsCache?
    /// The most requests to one vendor under way at a time.
    public let maxInFlightPerVendor: Int
    /// The most bytes of an answer used; a larger one is ``NoWidgets/Kind/tooLarge``.
    public let maxReplyBytes: Int
    /// How long a shared fetch (one that fills the cache) may take, whatever the budgets of the pages
    /// waiting for it.
    public let sharedFetchTimeout: Duration

    private let lock = NSLock()
    private var limits: [Vendor: InFlightLimit] = [:]

    /// A client.
    /// - Parameters:
    ///   - transport: how requests are sent (``URLSessionTransport/shared`` unless given).
    ///   - cache: where shared answers are kept (none unless given).
    ///   - maxInFlightPerVendor: the most requests to one vendor at a time.
    ///   - maxReplyBytes: the most bytes of an answer used (4 MiB by default).
    ///   - sharedFetchTimeout: how long a fetch that fills the cache may take.
    public init(transport: any Transport = URLSessionTransport.shared, cache: RecommendationsCache? = nil,
                maxInFlightPerVendor: Int = 16, maxReplyBytes: Int = 4 << 20, sharedFetchTimeout: Duration = .seconds(5)) {
        self.transport = transport
        self.cache = cache
        self.maxInFlightPerVendor = max(1, maxInFlightPerVendor)
        self.maxReplyBytes = max(1, maxReplyBytes)
        self.sharedFetchTimeout = sharedFetchTimeout
    }

    /// One vendor's widgets for a page, decoded into `type` with `fields` and `filters` applied.
    /// - Returns: the widgets and the report of what did not decode (products left out, with where and why).
    /// - Throws: ``NoWidgets``: out of budget, an error code or HTTP status, no answer, too large, or
    ///   nothing that decoded.
    public func widgets<Product: RecommendableProduct>(for request: RecommendationsRequest, as type: Product.Type,
                                                       fields: FieldSelection = .all, filters: [ProductFilter] = [],
                                                       budget: Duration) async throws(NoWidgets) -> Recommendations<Product> {
        try Self.decoded(try await stored(for: request, budget: budget).answer.recommendations, as: type, fields: fields,
                         filters: filters, vendor: request.vendor)
    }

    /// Several vendors' widgets for one page, asked at once within one budget, in the order of `requests`.
    public func widgets<Product: RecommendableProduct>(for requests: [RecommendationsRequest], as type: Product.Type,
                                                       fields: FieldSelection = .all, filters: [ProductFilter] = [],
                                                       budget: Duration) async -> [VendorWidgets<Product>] {
        await withTaskGroup(of: (Int, VendorWidgets<Product>).self) { group in
            for (index, request) in requests.enumerated() {
                group.addTask {
                    do throws(NoWidgets) {
                        let widgets = try await self.widgets(for: request, as: type, fields: fields, filters: filters, budget: budget)
                        return (index, VendorWidgets(vendor: request.vendor, result: .success(widgets)))
                    } catch {
                        return (index, VendorWidgets(vendor: request.vendor, result: .failure(error)))
                    }
                }
            }
            var results: [VendorWidgets<Product>?] = Array(repeating: nil, count: requests.count)
            for await (index, result) in group { results[index] = result }
            return results.compactMap { $0 }
        }
    }

    /// One vendor's widgets and their HTML, rendered by `render`; for a shared request the HTML is kept
    /// in the cache beside the answer under `name` (say, the template's name), so later pages with the
    /// same answer do not render again. Requests that waited on the same fetch render side by side; each
    /// is served the rendering kept first.
    /// - Throws: ``NoWidgets``, or what `render` throws.
    public func rendered<Product: RecommendableProduct>(for request: RecommendationsRequest, as type: Product.Type,
                                                        fields: FieldSelection = .all, filters: [ProductFilter] = [],
                                                        budget: Duration, name: String,
                                                        render: (Recommendations<Product>) throws -> String) async throws -> RenderedRecommendations<Product> {
        let stored = try await stored(for: request, budget: budget)
        let label = RecommendationsCache.RenderingName(name: name, product: ObjectIdentifier(Product.self), fields: fields, filters: filters, others: [])
        guard let key = request.cacheKey, let cache, stored.generation != 0 else {
            let recommendations = try Self.decoded(stored.answer.recommendations, as: type, fields: fields, filters: filters, vendor: request.vendor)
            return RenderedRecommendations(recommendations: recommendations, html: try render(recommendations), htmlFromCache: false)
        }
        if let kept = cache.rendered(key, name: label, generation: stored.generation), let recommendations = kept.shown as? Recommendations<Product> {
            return RenderedRecommendations(recommendations: recommendations, html: kept.html, htmlFromCache: true)
        }
        let recommendations = try Self.decoded(stored.answer.recommendations, as: type, fields: fields, filters: filters, vendor: request.vendor)
        let html = try render(recommendations)
        if let first = cache.keepRendered(.init(html: html, shown: recommendations, others: []), key, name: label, generation: stored.generation),
           let kept = first.shown as? Recommendations<Product> {
            return RenderedRecommendations(recommendations: kept, html: first.html, htmlFromCache: true)
        }
        return RenderedRecommendations(recommendations: recommendations, html: html, htmlFromCache: false)
    }

    /// Requests to `vendor` under way now.
    public func inFlight(to vendor: Vendor) -> Int { limit(for: vendor).inFlight }

    // MARK: - Fetching

    /// Where a request's raw answer stands once the cache has been asked (synchronously).
    enum Pending: Sendable {
        /// Fresh or stale from the cache.
        case ready(RecommendationsCache.Stored)
        /// A shared fetch to wait for (started now, or joined).
        case waiting(RecommendationsCache.Load)
        /// Not cached: to be fetched for this page alone.
        case fetch
    }

    /// The raw answer: from the cache for a shared request, else fetched within the budget.
    func stored(for request: RecommendationsRequest, budget: Duration) async throws(NoWidgets) -> RecommendationsCache.Stored {
        try await settle(begin(request), request, budget: budget)
    }

    /// Asks the cache for a shared request's answer (starting or joining its fetch on a miss).
    func begin(_ request: RecommendationsRequest) -> Pending {
        let vendor = request.vendor
        guard let key = request.cacheKey, let cache else {
            cache?.countBypass()
            return .fetch
        }
        let sharedTimeout = sharedFetchTimeout
        let lookup = cache.lookup(key) {
            switch await BudgetRace.race(sharedTimeout, { await self.fetch(request, timeout: Self.transportTimeout(for: sharedTimeout)) }) {
            case .late: .failure(.outOfBudget(vendor, budget: sharedTimeout))
            case .done(let result): result
            }
        }
        switch lookup {
        case .fresh(let stored), .stale(let stored): return .ready(stored)
        case .wait(let load): return .waiting(load)
        }
    }

    /// The answer once ready: kept, waited for, or fetched, within the budget.
    func settle(_ pending: Pending, _ request: RecommendationsRequest, budget: Duration) async throws(NoWidgets) -> RecommendationsCache.Stored {
        let vendor = request.vendor
        switch pending {
        case .ready(let stored):
            return stored
        case .waiting(let load):
            switch await BudgetRace.race(budget, { await load.value }) {
            case .late: throw .outOfBudget(vendor, budget: budget)
            case .done(let result): return try result.get()
            }
        case .fetch:
            let timeout = Self.transportTimeout(for: budget)
            switch await BudgetRace.race(budget, { await self.fetch(request, timeout: timeout) }) {
            case .late: throw .outOfBudget(vendor, budget: budget)
            case .done(let result): return try result.map { RecommendationsCache.Stored(answer: $0, generation: 0) }.get()
            }
        }
    }

    /// Sends the request (waiting for a slot), checks the answer and decodes it into raw products.
    private func fetch(_ request: RecommendationsRequest, timeout: Duration) async -> Result<RecommendationsCache.Answer, NoWidgets> {
        let vendor = request.vendor
        let limit = limit(for: vendor)
        do {
            try await limit.acquire()
        } catch {
            return .failure(.outOfBudget(vendor, budget: timeout))
        }
        defer { limit.release() }
        let reply: VendorReply
        var http = request.http
        http.maxReplyBytes = min(http.maxReplyBytes ?? .max, maxReplyBytes)
        do {
            reply = try await transport.send(http, timeout: timeout)
        } catch is CancellationError {
            return .failure(.outOfBudget(vendor, budget: timeout))
        } catch let error as TransportError where error.kind == .replyTooLarge {
            return .failure(.tooLarge(vendor, limit: maxReplyBytes))
        } catch {
            return .failure(.network(vendor, error))
        }
        guard reply.body.count <= maxReplyBytes else { return .failure(.tooLarge(vendor, limit: maxReplyBytes)) }
        let decoded: Recommendations<RawProduct>
        do {
            decoded = try request.decode(reply.body)
        } catch {
            if let code = error.vendorCode { return .failure(.vendorError(vendor, code: code, message: error.message)) }
            guard (200..<300).contains(reply.status) else { return .failure(.httpStatus(vendor, status: reply.status, body: Self.said(reply))) }
            return .failure(.decodingFailed(vendor, error: error, report: DecodingReport()))
        }
        guard (200..<300).contains(reply.status) else { return .failure(.httpStatus(vendor, status: reply.status, body: Self.said(reply))) }
        guard !decoded.widgets.isEmpty else { return .failure(.decodingFailed(vendor, error: nil, report: decoded.report)) }
        return .success(RecommendationsCache.Answer(recommendations: decoded, bytes: reply.body.count))
    }

    /// The answer decoded into the caller's model; no widget left is a failure with the report.
    static func decoded<Product: RecommendableProduct>(_ raw: Recommendations<RawProduct>, as type: Product.Type, fields: FieldSelection,
                                                               filters: [ProductFilter], vendor: Vendor) throws(NoWidgets) -> Recommendations<Product> {
        let decoded = raw.decoded(as: type, fields: fields, filters: filters)
        guard !decoded.widgets.isEmpty else { throw .decodingFailed(vendor, error: nil, report: decoded.report) }
        return decoded
    }

    private func limit(for vendor: Vendor) -> InFlightLimit {
        lock.locked {
            if let limit = limits[vendor] { return limit }
            let limit = InFlightLimit(limit: maxInFlightPerVendor)
            limits[vendor] = limit
            return limit
        }
    }

    /// The transport's own timeout: the budget rounded up to whole seconds plus one (the budget itself
    /// is kept here, by the race; the transport's timeout is a backstop).
    private static func transportTimeout(for budget: Duration) -> Duration {
        let (seconds, attoseconds) = budget.components
        return .seconds(max(1, seconds + (attoseconds > 0 ? 1 : 0) + 1))
    }

    /// An error in one line, in words (``ErrorWords``: never a dump of Foundation's user info, which holds
    /// the request's address and a vendor's API key with it): control characters escaped, at most 300
    /// characters.
    static func brief(_ error: any Error) -> String {
        var text = ""
        for scalar in ErrorWords.of(error).unicodeScalars.prefix(300) {
            if scalar.value < 0x20 || scalar.value == 0x7F { text += "\\u{\(String(scalar.value, radix: 16))}" } else { text.unicodeScalars.append(scalar) }
        }
        return text
    }
}

extension RecommendationsClient {
    /// What a reply that is not 2xx said: its body, or for a redirect not followed (a request with a
    /// body: see `URLSessionTransport`) where it points.
    static func said(_ reply: VendorReply) -> String {
        guard let target = reply.redirectTarget else { return reply.bodyText(limit: 200) }
        return "a redirect to \(target) (a request with a body is not sent on: set the vendor's address to it)"
    }
}
