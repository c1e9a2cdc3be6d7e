/// What a ``RecommendationsCache`` has done since it was made.
public struct CacheStatistics: Hashable, Sendable, CustomStringConvertible {
    /// Answers served fresh from the cache.
    public var hits = 0
    /// Requests the cache could not answer (each joined or started a fetch).
    public var misses = 0
    /// Misses that joined a fetch already under way (single flight) instead of starting one.
    public var joined = 0
    /// Answers served past their time to live, within the stale-while-revalidate window.
    public var staleServed = 0
    /// Kept answers served because the vendor failed, within the stale-if-error window.
    public var staleIfErrorServed = 0
    /// Fetches started in the background to refresh a stale answer.
    public var refreshes = 0
    /// Fetches that failed (outage, error, undecodable answer) and so were not cached.
    public var failuresNotCached = 0
    /// Personal requests, which never use the cache.
    public var bypassed = 0
    /// Entries dropped to stay within the entry and byte bounds.
    public var evictions = 0
    /// Entries held now.
    public var entries = 0
    /// Bytes held now (vendor answers and rendered HTML).
    public var bytes = 0

    /// No activity.
    public init() {}

    public var description: String {
        "hits \(hits), misses \(misses) (joined \(joined)), stale served \(staleServed), "
            + "stale-if-error served \(staleIfErrorServed), refreshes \(refreshes), "
            + "failures not cached \(failuresNotCached), bypassed \(bypassed), evictions \(evictions), "
            + "\(entries) entries, \(bytes) bytes"
    }
}
