import NIOConcurrencyHelpers

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// CPU time spent by a page's synchronous stages (decoding a vendor's reply, rendering the blocks,
/// tracking their impressions, finding them in the cache, remembering them for the visitor), summed over every page while enabled (`--profile`, for `measure.sh`).
/// Each stage is measured with the calling thread's CPU clock, so time spent waiting is not counted.
/// Off by default: then ``measure(_:_:)`` only runs its body.
public final class StageClock: Sendable {
    /// A stage of a page.
    public enum Stage: String, Sendable, CaseIterable {
        /// Parsing and decoding a vendor's reply into the shop's model.
        case decode
        /// Rendering the blocks' HTML.
        case render
        /// Journaling the page's impressions.
        case track
        /// Finding the page's blocks in the cache by the product alone (cached pages only).
        case lookup
        /// Remembering which blocks the visitor was shown (for their widget-view reports).
        case remember
    }

    private struct Totals {
        var enabled = false
        var nanoseconds: [Stage: UInt64] = [:]
        var counts: [Stage: Int] = [:]
    }

    private let totals = NIOLockedValueBox(Totals())

    /// The process's clock (what ``StorefrontServer`` enables and the profile route reports).
    public static let shared = StageClock()

    /// A clock, off.
    public init() {}

    /// Starts summing.
    public func enable() { totals.withLockedValue { $0.enabled = true } }

    /// Whether it is summing.
    public var isEnabled: Bool { totals.withLockedValue { $0.enabled } }

    /// Runs `body`, adding its thread CPU time to `stage` when enabled.
    public func measure<Result, Failure: Error>(_ stage: Stage, _ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        guard isEnabled else { return try body() }
        let start = Self.threadCPUNanoseconds()
        defer {
            let spent = Self.threadCPUNanoseconds() &- start
            totals.withLockedValue {
                $0.nanoseconds[stage, default: 0] &+= spent
                $0.counts[stage, default: 0] += 1
            }
        }
        return try body()
    }

    /// The sums so far: per stage, nanoseconds of CPU and how many times it ran.
    public var snapshot: [Stage: (nanoseconds: UInt64, count: Int)] {
        totals.withLockedValue { totals in
            Dictionary(uniqueKeysWithValues: Stage.allCases.map { ($0, (totals.nanoseconds[$0] ?? 0, totals.counts[$0] ?? 0)) })
        }
    }

    /// The sums as one line of JSON: `{"decode_ns":…,"decode_count":…,…}`.
    public var json: String {
        let parts = snapshot.sorted { $0.key.rawValue < $1.key.rawValue }
            .map { "\"\($0.key.rawValue)_ns\":\($0.value.nanoseconds),\"\($0.key.rawValue)_count\":\($0.value.count)" }
        return "{" + parts.joined(separator: ",") + "}\n"
    }

    static func threadCPUNanoseconds() -> UInt64 {
        var time = timespec()
        guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time) == 0 else { return 0 }
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }
}
