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
/// - Each vendor's part of a page goes down the fallback chain (``ServedBlock``): the vendor's answer
///   (fresh, cached, or stale while it is refreshed), else the last good answer kept for the cache's
///   stale-if-error window, else the shop's own lists given with the request
///   (``RecommendationsRequest/fallback``), else no block. Each part says which step served it.
/// - An ``observer`` is told each answer, budget miss, cache miss and step served, for metrics.
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
    /// Who is told what the client does, if anyone (``PageObserver``).
    public let observer: (any PageObserver)?

    private let lock = NSLock()
    private var limits: [Vendor: InFlightLimit] = [:]

    /// A client.
    /// - Parameters:
    ///   - transport: how requests are sent (``URLSessionTransport/shared`` unless given).
    ///   - cache: where shared answers are kept (none unless given).
    ///   - maxInFlightPerVendor: the most requests to one vendor at a time.
    ///   - maxReplyBytes: the most bytes of an answer used (4 MiB by default).
    ///   - sharedFetchTimeout: how long a fetch that fills the cache may take.
    ///   - observer: who is told each answer, budget miss, cache miss and step served (none unless given).
    public init(transport: any Transport = URLSessionTransport.shared, cache: RecommendationsCache? = nil,
                maxInFlightPerVendor: Int = 16, maxReplyBytes: Int = 4 << 20, sharedFetchTimeout: Duration = .seconds(5),
                observer: (any PageObserver)? = nil) {
        self.transport = transport
        self.cache = cache
        self.maxInFlightPerVendor = max(1, maxInFlightPerVendor)
        self.maxReplyBytes = max(1, maxReplyBytes)
        self.sharedFetchTimeout = sharedFetchTimeout
        self.observer = observer
    }

    /// One vendor's widgets for a page, decoded into `type` with `fields` and `filters` applied: the first
    /// step of the fallback chain that serves (the vendor's answer, a kept one, the shop's lists; see
    /// ``ServedBlock``). To know which, ask with ``widgets(for:as:fields:filters:budget:)-([RecommendationsRequest],_,_,_,_)``.
    /// - Returns: the widgets and the report of what did not decode (products left out, with where and why).
    /// - Throws: ``NoWidgets`` when no step served: the vendor's reason (out of budget, an error code or
    ///   HTTP status, no answer, too large, or nothing that decoded).
    public func widgets<Product: RecommendableProduct>(for request: RecommendationsRequest, as type: Product.Type,
                                                       fields: FieldSelection = .all, filters: [ProductFilter] = [],
                                                       budget: Duration) async throws(NoWidgets) -> Recommendations<Product> {
        try serve(await settle(begin(request), request, budget: budget), request, as: type, fields: fields, filters: filters).result.get()
    }

    /// Several vendors' widgets for one page, asked at once within one budget, in the order of `requests`:
    /// each part served by the first step of the fallback chain that can, and saying which
    /// (``VendorWidgets/served``).
    public func widgets<Product: RecommendableProduct>(for requests: [RecommendationsRequest], as type: Product.Type,
                                                       fields: FieldSelection = .all, filters: [ProductFilter] = [],
                                                       budget: Duration) async -> [VendorWidgets<Product>] {
        let settled = await settleAll(requests.map { begin($0) }, requests, budget: budget)
        return zip(settled, requests).map { serve($0, $1, as: type, fields: fields, filters: filters) }
    }

    /// One vendor's widgets and their HTML, rendered by `render`: the first step of the fallback chain
    /// that serves (``RenderedRecommendations/served`` says which). For a shared request the HTML is kept
    /// in the cache beside the answer under `name` (say, the template's name), so later pages with the
    /// same answer do not render again; the shop's lists are rendered each time. Requests that waited on
    /// the same fetch render side by side; each is served the rendering kept first.
    /// - Throws: ``NoWidgets`` when no step served, or what `render` throws.
    public func rendered<Product: RecommendableProduct>(for request: RecommendationsRequest, as type: Product.Type,
                                                        fields: FieldSelection = .all, filters: [ProductFilter] = [],
                                                        budget: Duration, name: String,
                                                        render: (Recommendations<Product>) throws -> String) async throws -> RenderedRecommendations<Product> {
        let settled = await settle(begin(request), request, budget: budget)
        let label = RecommendationsCache.RenderingName(name: name, product: ObjectIdentifier(Product.self), fields: fields, filters: filters, others: [])
        let key = request.cacheKey
        if let key, let cache, let generation = settled.generation,
           let kept = cache.rendered(key, name: label, generation: generation), let recommendations = kept.shown as? Recommendations<Product> {
            return RenderedRecommendations(recommendations: recommendations, html: kept.html, htmlFromCache: true, served: served(settled))
        }
        let part = serve(settled, request, as: type, fields: fields, filters: filters)
        let recommendations = try part.result.get()
        let html = try render(recommendations)
        if let key, let cache, let generation = settled.generation, part.served.step.isVendorAnswer,
           let first = cache.keepRendered(.init(html: html, shown: recommendations, others: []), key, name: label, generation: generation),
           let kept = first.shown as? Recommendations<Product> {
            return RenderedRecommendations(recommendations: kept, html: first.html, htmlFromCache: true, served: part.served)
        }
        return RenderedRecommendations(recommendations: recommendations, html: html, htmlFromCache: false, served: part.served)
    }

    /// Requests to `vendor` under way now.
    public func inFlight(to vendor: Vendor) -> Int { limit(for: vendor).inFlight }

    // MARK: - Fetching

    /// Where a request's raw answer stands once the cache has been asked (synchronously).
    enum Pending: Sendable {
        /// From the cache: fresh (``ServedBlock/Step/cached``) or stale while it is refreshed.
        case ready(RecommendationsCache.Stored, step: ServedBlock.Step, age: Duration)
        /// A shared fetch to wait for (started now, or joined), and what the cache kept for stale-if-error.
        case waiting(RecommendationsCache.Load, kept: RecommendationsCache.Kept)
        /// Not cached: to be fetched for this page alone (`why` no answer is kept for it).
        case fetch(why: NoKeptAnswer)
    }

    /// Why a request has no answer kept for stale-if-error.
    enum NoKeptAnswer: Sendable {
        case noCache, personal, none, expired(age: Duration)
    }

    /// A request's answer once settled: the answer to serve and the step it comes from, or the vendor's
    /// failure and why no kept answer stands in.
    struct Settled: Sendable {
        let vendor: Vendor
        var answer: Result<RecommendationsCache.Stored, NoWidgets>
        var step: ServedBlock.Step
        var age: Duration?
        /// The vendor's failure now, when the answer is a kept one (stale-if-error).
        var failure: NoWidgets?
        /// Why no kept answer stands in, when the answer is a failure.
        var noKept: NoKeptAnswer?

        /// The generation of the answer, when it is kept in the cache (renderings belong to one).
        var generation: UInt64? {
            guard case .success(let stored) = answer, stored.generation != 0 else { return nil }
            return stored.generation
        }
    }

    /// A request's raw answer as a fetch ends, with the bytes of the reply's body received.
    struct Fetched: Sendable {
        var result: Result<RecommendationsCache.Answer, NoWidgets>
        var bytes: Int
    }

    /// Asks the cache for a shared request's answer (starting or joining its fetch on a miss).
    func begin(_ request: RecommendationsRequest) -> Pending {
        let vendor = request.vendor
        guard let cache else { return .fetch(why: .noCache) }
        guard let key = request.cacheKey else {
            cache.countBypass()
            return .fetch(why: .personal)
        }
        let (sharedTimeout, observer) = (sharedFetchTimeout, observer)
        let lookup = cache.lookup(key, fetch: {
            let started = observer == nil ? nil : ContinuousClock.now
            let fetched: Fetched
            switch await BudgetRace.race(sharedTimeout, { await self.fetch(request, timeout: Self.transportTimeout(for: sharedTimeout)) }) {
            case .late: fetched = Fetched(result: .failure(.outOfBudget(vendor, budget: sharedTimeout)), bytes: 0)
            case .done(let done): fetched = done
            }
            guard let observer, let started else { return (fetched.result, nil) }
            let answer = Self.vendorAnswer(fetched, vendor: vendor, started: started, shared: true)
            return (fetched.result, { observer.vendorAnswered(answer) })
        })
        switch lookup {
        case .fresh(let stored, let age): return .ready(stored, step: .cached, age: age)
        case .stale(let stored, let age): return .ready(stored, step: .staleWhileRevalidate, age: age)
        case .wait(let load, let joined, let kept):
            observer?.cacheMissed(vendor: vendor, joined: joined)
            return .waiting(load, kept: kept)
        }
    }

    /// The answer once ready: kept, waited for, or fetched, within the budget; a kept answer when the
    /// vendor failed and one is kept for stale-if-error.
    func settle(_ pending: Pending, _ request: RecommendationsRequest, budget: Duration) async -> Settled {
        let vendor = request.vendor
        switch pending {
        case .ready(let stored, let step, let age):
            return Settled(vendor: vendor, answer: .success(stored), step: step, age: age)
        case .waiting(let load, let kept):
            let result: Result<RecommendationsCache.Stored, NoWidgets>
            switch await BudgetRace.race(budget, { await load.value }) {
            case .late:
                observer?.budgetMissed(vendor: vendor, budget: budget)
                result = .failure(.outOfBudget(vendor, budget: budget))
            case .done(let done):
                result = done
            }
            switch (result, kept) {
            case (.success(let stored), _):
                return Settled(vendor: vendor, answer: .success(stored), step: .fresh)
            case (.failure(let failure), .answer(let stored, let age)):
                return Settled(vendor: vendor, answer: .success(stored), step: .staleIfError, age: age, failure: failure)
            case (.failure(let failure), .expired(let age)):
                return Settled(vendor: vendor, answer: .failure(failure), step: .none, noKept: .expired(age: age))
            case (.failure(let failure), .none):
                return Settled(vendor: vendor, answer: .failure(failure), step: .none, noKept: NoKeptAnswer.none)
            }
        case .fetch(let why):
            let timeout = Self.transportTimeout(for: budget)
            let started = observer == nil ? nil : ContinuousClock.now
            let fetched: Fetched
            switch await BudgetRace.race(budget, { await self.fetch(request, timeout: timeout) }) {
            case .late:
                observer?.budgetMissed(vendor: vendor, budget: budget)
                fetched = Fetched(result: .failure(.outOfBudget(vendor, budget: budget)), bytes: 0)
            case .done(let done):
                fetched = done
            }
            if let observer, let started { observer.vendorAnswered(Self.vendorAnswer(fetched, vendor: vendor, started: started, shared: false)) }
            switch fetched.result {
            case .success(let answer):
                return Settled(vendor: vendor, answer: .success(RecommendationsCache.Stored(answer: answer, generation: 0)), step: .fresh)
            case .failure(let failure):
                return Settled(vendor: vendor, answer: .failure(failure), step: .none, noKept: why)
            }
        }
    }

    /// What the observer is told of a fetch that ended.
    private static func vendorAnswer(_ fetched: Fetched, vendor: Vendor, started: ContinuousClock.Instant, shared: Bool) -> VendorAnswer {
        let failure: NoWidgets.Kind?
        switch fetched.result {
        case .success: failure = nil
        case .failure(let reason): failure = reason.kind
        }
        return VendorAnswer(vendor: vendor, failure: failure, duration: .now - started, bytes: fetched.bytes, shared: shared)
    }

    /// Sends the request (waiting for a slot), checks the answer and decodes it into raw products.
    private func fetch(_ request: RecommendationsRequest, timeout: Duration) async -> Fetched {
        let vendor = request.vendor
        let limit = limit(for: vendor)
        do {
            try await limit.acquire()
        } catch {
            return Fetched(result: .failure(.outOfBudget(vendor, budget: timeout)), bytes: 0)
        }
        defer { limit.release() }
        let reply: VendorReply
        var http = request.http
        http.maxReplyBytes = min(http.maxReplyBytes ?? .max, maxReplyBytes)
        do {
            reply = try await transport.send(http, timeout: timeout)
        } catch is CancellationError {
            return Fetched(result: .failure(.outOfBudget(vendor, budget: timeout)), bytes: 0)
        } catch let error as TransportError where error.kind == .replyTooLarge {
            return Fetched(result: .failure(.tooLarge(vendor, limit: maxReplyBytes)), bytes: 0)
        } catch {
            return Fetched(result: .failure(.network(vendor, error)), bytes: 0)
        }
        return Fetched(result: answer(to: request, reply), bytes: reply.body.count)
    }

    /// The reply checked and decoded into raw products.
    private func answer(to request: RecommendationsRequest, _ reply: VendorReply) -> Result<RecommendationsCache.Answer, NoWidgets> {
        let vendor = request.vendor
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
