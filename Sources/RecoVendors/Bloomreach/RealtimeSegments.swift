/// A customer's real-time segments, kept fresh and announced to callbacks, as Bloomreach's guide
/// describes, without the official SDK's misses.
///
/// - **Cache**: ``segments(in:force:)`` answers from a cache that lives ``cacheLifetime`` (5 s), belongs
///   to one customer and is never served for another; `force` goes to Bloomreach.
/// - **Callbacks**: ``register(category:includeFirstLoad:onNewData:)`` listens to one category. After
///   each reload a callback is notified when its category changed: a different set of segments (order
///   and duplicates do not count), or the category appeared or disappeared. With `includeFirstLoad` it
///   is also notified once on its first reload, changed or not. Callbacks run in their own task, one
///   update after the other, never on the caller's task.
/// - **Reloads**: registering, ``identify(cookie:)`` and ``requestReload()`` (after an event was
///   tracked) start a reload that waits ``reloadDelay`` (5 s); a new request restarts the wait
///   (trailing debounce). A customer change cancels a waiting reload, and an answer that arrives for a
///   previous customer is ignored.
///
/// All timing goes through the clock given at creation, so tests drive it by hand.
///
/// ```swift
/// let segments = RealtimeSegments(fetcher: HTTPSegmentsFetcher(base: URL(string: "https://api.exponea.com")!,
///                                                                     projectToken: "your-project-token"),
///                                 cookie: "cookie-42")
/// let callback = await segments.register(category: .discovery, includeFirstLoad: true) { update in
///     print(update.segments ?? [])
/// }
/// ```
public actor RealtimeSegments<C: Clock> where C.Duration == Duration {
    /// How long a fetched answer is served from the cache: 5 seconds.
    public let cacheLifetime: Duration
    /// How long a reload waits for further reload requests before fetching: 5 seconds.
    public let reloadDelay: Duration

    private struct Registration {
        let callback: SegmentsCallback
        let onNewData: @Sendable (SegmentsUpdate) async -> Void
        var awaitingFirstLoad: Bool
    }

    private struct CachedAnswer {
        let cookie: String
        let segments: CustomerSegments
        let fetchedAt: C.Instant
    }

    private struct PendingReload {
        let task: Task<Void, Never>
        let deadline: C.Instant
        let generation: Int
    }

    private let fetcher: any SegmentsFetcher
    private let clock: C
    private var cookie: String?
    private var cache: CachedAnswer?
    private var known = CustomerSegments()
    private var registrations: [Int: Registration] = [:]
    private var nextCallbackId = 1
    private var reloads: [PendingReload] = []
    private var generation = 0
    private var delivery: Task<Void, Never>?

    /// The notices of the last answer: segments left out and unknown categories, with their paths.
    public private(set) var lastNotices: [DecodingNotice] = []
    /// Why the last reload failed, if it did; cleared by the next successful one.
    public private(set) var lastReloadError: BloomreachError?
    /// How many reloads have fetched from Bloomreach (cache reads not included).
    public private(set) var reloadCount = 0

    /// Segments for the customer with `cookie` (none yet when nil), fetched through `fetcher`, timed by `clock`.
    public init(fetcher: any SegmentsFetcher, clock: C, cookie: String? = nil,
                cacheLifetime: Duration = .seconds(5), reloadDelay: Duration = .seconds(5)) {
        self.fetcher = fetcher
        self.clock = clock
        self.cookie = cookie
        self.cacheLifetime = cacheLifetime
        self.reloadDelay = reloadDelay
    }

    /// The current customer's cookie id.
    public var currentCookie: String? { cookie }

    // MARK: Cache

    /// The segments of a category for the current customer; nil when the answer does not name it.
    ///
    /// Served from the cache when it was fetched for this same customer less than ``cacheLifetime``
    /// ago, unless `force` is true.
    /// - Throws: ``BloomreachError`` when no customer is identified or the fetch fails.
    public func segments(in category: SegmentCategory, force: Bool = false) async throws(BloomreachError) -> [Segment]? {
        try await allSegments(force: force).segments(in: category)
    }

    /// Every category's segments for the current customer, with the same cache rules as ``segments(in:force:)``.
    public func allSegments(force: Bool = false) async throws(BloomreachError) -> CustomerSegments {
        guard let cookie else { throw .invalidParameter("cookie", "no customer identified") }
        if !force, let cache, cache.cookie == cookie, cache.fetchedAt.duration(to: clock.now) < cacheLifetime {
            return cache.segments
        }
        let decoded = try await fetcher.fetchSegments(cookie: cookie)
        store(decoded, for: cookie)
        return decoded.segments
    }

    private func store(_ decoded: BloomreachSegments.Decoded, for fetchedCookie: String) {
        lastNotices = decoded.notices
        guard fetchedCookie == cookie else { return }
        cache = CachedAnswer(cookie: fetchedCookie, segments: decoded.segments, fetchedAt: clock.now)
    }

    // MARK: Customer

    /// Makes `cookie` the current customer. A different customer cancels a waiting reload; a reload for
    /// the new customer is then requested (when callbacks are registered).
    public func identify(cookie newCookie: String) {
        if newCookie != cookie {
            cookie = newCookie
            cancelReloads(includingRunning: true)
        }
        requestReload()
    }

    /// Forgets the current customer: a waiting reload is cancelled and nothing is fetched until the next
    /// ``identify(cookie:)``.
    public func anonymize() {
        cookie = nil
        cancelReloads(includingRunning: true)
    }

    // MARK: Callbacks

    /// Registers a callback for one category and requests a reload.
    /// - Parameters:
    ///   - includeFirstLoad: Notify on the first reload even when nothing changed (once).
    ///   - onNewData: Called in its own task with each update.
    /// - Returns: The registration, to pass to ``unregister(_:)``.
    @discardableResult
    public func register(category: SegmentCategory, includeFirstLoad: Bool,
                         onNewData: @escaping @Sendable (SegmentsUpdate) async -> Void) -> SegmentsCallback {
        let callback = SegmentsCallback(id: nextCallbackId, category: category, includeFirstLoad: includeFirstLoad)
        nextCallbackId += 1
        registrations[callback.id] = Registration(callback: callback, onNewData: onNewData, awaitingFirstLoad: includeFirstLoad)
        requestReload()
        return callback
    }

    /// Stops a callback: it receives nothing more, not even an update already on its way.
    public func unregister(_ callback: SegmentsCallback) {
        registrations[callback.id] = nil
        if registrations.isEmpty { cancelReloads(includingRunning: false) }
    }

    /// The callbacks currently registered.
    public var callbacks: [SegmentsCallback] { registrations.values.map(\.callback).sorted { $0.id < $1.id } }

    // MARK: Reloads

    /// Requests a reload (for example after an event was tracked): it starts after ``reloadDelay``
    /// unless another request comes first, which restarts the wait. Nothing happens without a customer
    /// or without callbacks.
    public func requestReload() {
        guard cookie != nil, !registrations.isEmpty else { return }
        cancelReloads(includingRunning: false)
        let deadline = clock.now.advanced(by: reloadDelay)
        let clock = self.clock
        let myGeneration = generation
        let task = Task {
            do {
                try await clock.sleep(until: deadline, tolerance: nil)
            } catch {
                return
            }
            await self.reload(generation: myGeneration)
        }
        reloads.append(PendingReload(task: task, deadline: deadline, generation: myGeneration))
    }

    /// Cancels the reloads still waiting; with `includingRunning`, those already fetching too (their
    /// answers would be ignored anyway, as they belong to a previous customer).
    private func cancelReloads(includingRunning: Bool) {
        generation += 1
        let now = clock.now
        for reload in reloads where includingRunning || reload.deadline > now {
            reload.task.cancel()
        }
        reloads.removeAll { includingRunning || $0.deadline > now }
    }

    private func reload(generation reloadGeneration: Int) async {
        defer { reloads.removeAll { $0.generation == reloadGeneration } }
        guard reloadGeneration == generation, let fetchedCookie = cookie else { return }
        reloadCount += 1
        let decoded: BloomreachSegments.Decoded
        do {
            decoded = try await fetcher.fetchSegments(cookie: fetchedCookie)
        } catch {
            if fetchedCookie == cookie { lastReloadError = error }
            return
        }
        // An answer for a customer who is no longer current is ignored.
        guard fetchedCookie == cookie else { return }
        store(decoded, for: fetchedCookie)
        lastReloadError = nil
        announce(decoded.segments, cookie: fetchedCookie)
    }

    private func announce(_ segments: CustomerSegments, cookie: String) {
        var batch: [(id: Int, onNewData: @Sendable (SegmentsUpdate) async -> Void, update: SegmentsUpdate)] = []
        for id in registrations.keys.sorted() {
            guard var registration = registrations[id] else { continue }
            let category = registration.callback.category
            let changed = segments.differs(from: known, in: category)
            guard changed || registration.awaitingFirstLoad else { continue }
            let update = SegmentsUpdate(cookie: cookie, category: category, segments: segments.segments(in: category),
                                        isFirstLoad: registration.awaitingFirstLoad)
            registration.awaitingFirstLoad = false
            registrations[id] = registration
            batch.append((id, registration.onNewData, update))
        }
        known = segments
        guard !batch.isEmpty else { return }
        let previous = delivery
        delivery = Task.detached {
            await previous?.value
            for item in batch where await self.isRegistered(item.id) {
                await item.onNewData(item.update)
            }
        }
    }

    private func isRegistered(_ id: Int) -> Bool { registrations[id] != nil }

    /// Waits until every reload that is due by the clock has finished and its callbacks have run.
    /// A reload still waiting for its delay is not waited for.
    public func settled() async {
        while true {
            if let due = reloads.first(where: { $0.deadline <= clock.now }) {
                await due.task.value
                reloads.removeAll { $0.task == due.task }
                continue
            }
            guard let running = delivery else { return }
            await running.value
            if delivery == running { return }
        }
    }
}

extension RealtimeSegments where C == ContinuousClock {
    /// Segments on the real clock.
    public init(fetcher: any SegmentsFetcher, cookie: String? = nil) {
        self.init(fetcher: fetcher, clock: ContinuousClock(), cookie: cookie)
    }
}
