import Foundation
import RecoKit

/// Keeps vendors' answers that many visitors may share, so that pages asking the same thing within a
/// while ask the vendor once, and keeps rendered HTML beside them.
///
/// - Keys say what determines an answer (``RecommendationsCacheKey``); a request marked
///   ``RecommendationsRequest/Sharing/personal`` never enters or comes from the cache.
/// - An answer is fresh for ``timeToLive``; for ``staleWhileRevalidate`` after that it is still served,
///   at once, while one fetch in the background refreshes it.
/// - Pages that miss at the same moment share one fetch (single flight).
/// - A fetch that fails (outage, error code, an answer that does not decode) is not cached: the next
///   page asks again, and a stale answer keeps being served until its window ends.
/// - For ``staleIfError`` after ``timeToLive`` the last good answer is kept for when the vendor fails:
///   a page past the stale-while-revalidate window asks the vendor (waiting within its budget), and is
///   served the kept answer if the vendor fails or the budget passes (``ServedBlock/Step/staleIfError``).
///   It is a longer window than stale-while-revalidate (hours, say, where that is minutes), and costs no
///   memory of its own: the kept answers are the same entries, within the same bounds.
/// - Bounded by ``maxEntries`` and ``maxBytes`` (vendor answer bytes plus rendered HTML); the entry
///   used least recently goes first. An answer larger than ``maxBytes`` alone is not kept.
///
/// ```swift
/// let cache = RecommendationsCache(timeToLive: .seconds(60), staleWhileRevalidate: .seconds(240),
///                                  staleIfError: .seconds(6 * 3600))
/// let client = RecommendationsClient(cache: cache)
/// print(cache.statistics)   // hits 120, misses 4 (joined 2), stale served 7, stale-if-error served 0, …
/// ```
public final class RecommendationsCache: @unchecked Sendable {
    /// How long an answer is fresh.
    public let timeToLive: Duration
    /// How long after ``timeToLive`` an answer is still served while it is refreshed.
    public let staleWhileRevalidate: Duration
    /// How long after ``timeToLive`` the last good answer is kept, to be served when the vendor fails
    /// (an error, no answer within the page's budget). Within ``staleWhileRevalidate`` an answer is
    /// served anyway, so this window matters when it is the longer one.
    public let staleIfError: Duration
    /// The most entries kept.
    public let maxEntries: Int
    /// The most bytes kept (vendor answers and rendered HTML).
    public let maxBytes: Int
    let clock: CacheClock

    private let lock = NSLock()
    private var entries: [RecommendationsCacheKey: Entry] = [:]
    private var counts = CacheStatistics()
    private var bytes = 0
    private var tick: UInt64 = 0
    private var serial: UInt64 = 0

    /// A vendor's answer as kept: its widgets of raw products and the size of the bytes they came from.
    struct Answer: Sendable {
        let recommendations: Recommendations<RawProduct>
        let bytes: Int
    }

    /// An answer with the generation it was stored under (rendered HTML belongs to one generation).
    struct Stored: Sendable {
        let answer: Answer
        let generation: UInt64
    }

    /// The last good answer for a key that the cache could not serve at once, for stale-if-error.
    enum Kept: Sendable {
        /// Kept, this old: serve it if the vendor fails.
        case answer(Stored, age: Duration)
        /// None kept (never fetched, evicted, or emptied).
        case none
        /// The last one was this old, past every window, and is forgotten.
        case expired(age: Duration)
    }

    typealias Load = Task<Result<Stored, NoWidgets>, Never>

    /// HTML rendered from an answer, with what the caller keeps beside it (the widgets it shows, so a
    /// later page needs neither decoding nor rendering), and the generations of any other answers the
    /// rendering used (a page of several vendors is kept beside its first vendor's answer).
    /// What a rendering is kept under beside an answer: the caller's name, the model, fields and
    /// filters it was decoded with, and the keys of any other answers it used (a struct, so no text
    /// is formatted per page).
    struct RenderingName: Hashable, Sendable {
        let name: String
        let product: ObjectIdentifier
        let fields: FieldSelection
        let filters: [ProductFilter]
        let others: [RecommendationsCacheKey]
    }

    struct Rendering: Sendable {
        let html: String
        let shown: any Sendable
        let others: [UInt64]
    }

    private struct Entry {
        var answer: Answer?
        var storedAt = Duration.zero
        var generation: UInt64 = 0
        var rendered: [RenderingName: Rendering] = [:]
        var renderedBytes = 0
        var loading: (id: UInt64, task: Load)?
        var lastUsed: UInt64 = 0
        var size: Int { (answer?.bytes ?? 0) + renderedBytes }
    }

    /// What the cache has for a key.
    enum Lookup {
        /// Fresh, this old: serve it.
        case fresh(Stored, age: Duration)
        /// Stale, this old: serve it (a refresh is under way).
        case stale(Stored, age: Duration)
        /// Nothing to serve at once: wait for this fetch (`joined` when it was under way), and serve
        /// what is `kept` if it fails.
        case wait(Load, joined: Bool, kept: Kept)
    }

    /// A cache.
    /// - Parameters:
    ///   - timeToLive: how long an answer is fresh.
    ///   - staleWhileRevalidate: how long after that it is served while being refreshed (zero: never).
    ///   - staleIfError: how long after the time to live the last good answer is kept, to be served when
    ///     the vendor fails (zero: never).
    ///   - maxEntries: the most entries kept.
    ///   - maxBytes: the most bytes kept (64 MiB by default).
    ///   - clock: where time is read (``CacheClock/continuous`` unless a test moves it).
    public init(timeToLive: Duration, staleWhileRevalidate: Duration = .zero, staleIfError: Duration = .zero,
                maxEntries: Int = 10_000, maxBytes: Int = 64 << 20, clock: CacheClock = .continuous) {
        self.timeToLive = max(.zero, timeToLive)
        self.staleWhileRevalidate = max(.zero, staleWhileRevalidate)
        self.staleIfError = max(.zero, staleIfError)
        self.maxEntries = max(1, maxEntries)
        self.maxBytes = max(1, maxBytes)
        self.clock = clock
    }

    /// What the cache has done, and holds now.
    public var statistics: CacheStatistics {
        lock.locked {
            var statistics = counts
            statistics.entries = entries.count
            statistics.bytes = bytes
            return statistics
        }
    }

    /// Forgets every answer (fetches under way still finish, and are kept).
    public func removeAll() {
        lock.locked {
            entries = entries.filter { $0.value.loading != nil }.mapValues { entry in
                var entry = entry
                entry.answer = nil
                entry.rendered = [:]
                entry.renderedBytes = 0
                return entry
            }
            bytes = 0
        }
    }

    /// Counts a personal request, which passed the cache by.
    func countBypass() { lock.locked { counts.bypassed += 1 } }

    /// Counts a kept answer served because the vendor failed.
    func countStaleIfError() { lock.locked { counts.staleIfErrorServed += 1 } }

    /// The answer for `key`: fresh, stale (starting one refresh with `load`), or a fetch to wait for
    /// (joined, or started with `load`) with the answer kept for stale-if-error, if any.
    func lookup(_ key: RecommendationsCacheKey, load: @escaping @Sendable () async -> Result<Answer, NoWidgets>) -> Lookup {
        lookup(key, fetch: { (await load(), nil) })
    }

    /// A fetch's result, and what to do once it is stored and the entry's fetch is over (tell an
    /// observer: whoever hears of the answer and asks again then starts a fetch of its own, where
    /// told before they would join the one ending).
    typealias Fetch = @Sendable () async -> (Result<Answer, NoWidgets>, ended: (@Sendable () -> Void)?)

    /// ``lookup(_:load:)`` with `fetch` telling what to do once its answer is stored.
    func lookup(_ key: RecommendationsCacheKey, fetch load: @escaping Fetch) -> Lookup {
        lock.locked {
            let now = clock.now()
            tick += 1
            var entry = entries[key] ?? Entry()
            entry.lastUsed = tick
            defer { entries[key] = entry }
            var kept = Kept.none
            if let answer = entry.answer {
                let age = now - entry.storedAt
                let stored = Stored(answer: answer, generation: entry.generation)
                if age < timeToLive {
                    counts.hits += 1
                    return .fresh(stored, age: age)
                }
                if age < timeToLive + staleWhileRevalidate {
                    counts.staleServed += 1
                    if entry.loading == nil {
                        counts.refreshes += 1
                        entry.loading = start(key, load)
                    }
                    return .stale(stored, age: age)
                }
                if age < timeToLive + staleIfError {
                    kept = .answer(stored, age: age)
                } else {
                    drop(&entry)
                    kept = .expired(age: age)
                }
            }
            counts.misses += 1
            if let loading = entry.loading {
                counts.joined += 1
                return .wait(loading.task, joined: true, kept: kept)
            }
            let loading = start(key, load)
            entry.loading = loading
            return .wait(loading.task, joined: false, kept: kept)
        }
    }

    /// What was rendered as `name` from the answer of `generation` (and, for a page of several
    /// answers, from the other answers of generations `others`), if kept.
    func rendered(_ key: RecommendationsCacheKey, name: RenderingName, generation: UInt64, others: [UInt64] = []) -> Rendering? {
        lock.locked {
            guard let entry = entries[key], entry.answer != nil, entry.generation == generation,
                  let rendering = entry.rendered[name], rendering.others == others else { return nil }
            return rendering
        }
    }

    /// Keeps what was rendered as `name` from the answer of `generation` (not when the answer changed
    /// since); its HTML counts towards the bytes kept. The first rendering kept for an answer stays:
    /// when pages that waited on the same fetch render side by side, the one kept first is returned to
    /// the others, so every visitor is served the same HTML (a rendering may differ by the moment it
    /// was made: links that expire, say). Nil when `rendering` itself is what the page serves.
    @discardableResult
    func keepRendered(_ rendering: Rendering, _ key: RecommendationsCacheKey, name: RenderingName, generation: UInt64) -> Rendering? {
        lock.locked {
            guard var entry = entries[key], entry.answer != nil, entry.generation == generation else { return nil }
            if let first = entry.rendered[name], first.others == rendering.others { return first }
            let size = rendering.html.utf8.count
            if let old = entry.rendered.removeValue(forKey: name) {
                entry.renderedBytes -= old.html.utf8.count
                bytes -= old.html.utf8.count
            }
            guard entry.size + size <= maxBytes else {
                entries[key] = entry
                return nil
            }
            entry.rendered[name] = rendering
            entry.renderedBytes += size
            bytes += size
            entries[key] = entry
            evict(keeping: key)
            return nil
        }
    }

    /// The rendering kept under `name` beside the answer for `keys[0]`, when the answers for all of
    /// `keys` are fresh and it was rendered from them (counted as a hit for each): a page served
    /// without building its requests. Nil when anything is missing or stale (ask the usual way).
    func keptRendering(_ keys: [RecommendationsCacheKey], name: RenderingName) -> Rendering? {
        lock.locked {
            // Each key's entry is found once, then read and marked where it stands: an entry taken out of
            // the dictionary is a copy of all it holds (its answer, renderings, loading task).
            guard let first = keys.first, let firstPlace = entries.index(forKey: first),
                  let rendering = entries.values[firstPlace].rendered[name], rendering.others.count == keys.count - 1 else { return nil }
            let now = clock.now()
            var places: [Dictionary<RecommendationsCacheKey, Entry>.Index] = []
            places.reserveCapacity(keys.count)
            for number in keys.indices {
                guard let place = number == 0 ? firstPlace : entries.index(forKey: keys[number]),
                      entries.values[place].answer != nil, now - entries.values[place].storedAt < timeToLive,
                      number == 0 || entries.values[place].generation == rendering.others[number - 1] else { return nil }
                places.append(place)
            }
            for place in places {
                tick += 1
                entries.values[place].lastUsed = tick
            }
            counts.hits += keys.count
            return rendering
        }
    }

    /// Starts a fetch for `key` whose result is stored when it ends. Called with the lock held.
    private func start(_ key: RecommendationsCacheKey, _ load: @escaping Fetch) -> (id: UInt64, task: Load) {
        serial += 1
        let id = serial
        let task = Load { [self] in
            let (result, ended) = await load()
            let stored = finish(key, id: id, result)
            ended?()
            return stored
        }
        return (id, task)
    }

    /// Stores a fetch's answer (a failure is not stored), and gives its generation.
    private func finish(_ key: RecommendationsCacheKey, id: UInt64, _ result: Result<Answer, NoWidgets>) -> Result<Stored, NoWidgets> {
        lock.locked {
            serial += 1
            let generation = serial
            guard var entry = entries[key], entry.loading?.id == id else {
                // The entry was dropped meanwhile (evicted, or the cache emptied): answer, keep nothing.
                return result.map { Stored(answer: $0, generation: 0) }
            }
            entry.loading = nil
            switch result {
            case .failure(let reason):
                counts.failuresNotCached += 1
                if entry.answer == nil { entries[key] = nil } else { entries[key] = entry }
                return .failure(reason)
            case .success(let answer):
                drop(&entry)
                guard answer.bytes <= maxBytes else {
                    entries[key] = nil
                    return .success(Stored(answer: answer, generation: 0))
                }
                entry.answer = answer
                entry.storedAt = clock.now()
                entry.generation = generation
                bytes += answer.bytes
                entries[key] = entry
                evict(keeping: key)
                return .success(Stored(answer: answer, generation: generation))
            }
        }
    }

    /// Forgets an entry's answer and HTML. Called with the lock held.
    private func drop(_ entry: inout Entry) {
        bytes -= entry.size
        entry.answer = nil
        entry.rendered = [:]
        entry.renderedBytes = 0
    }

    /// Drops the least recently used entries (not `key`, none with a fetch under way) until within
    /// bounds. Called with the lock held.
    private func evict(keeping key: RecommendationsCacheKey) {
        while entries.count > maxEntries || bytes > maxBytes {
            let victim = entries.filter { $0.key != key && $0.value.loading == nil }.min { $0.value.lastUsed < $1.value.lastUsed }
            guard let victim else { return }
            bytes -= victim.value.size
            entries[victim.key] = nil
            counts.evictions += 1
        }
    }
}
