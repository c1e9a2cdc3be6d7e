import Foundation
import RecoHTTP
@testable import RecoTracking

/// What these tests give to make a running tracker: its store's settings (a journal in a directory, or
/// memory) and its delivery configuration, written as one value (`configuration.flushInterval = …`
/// reaches the delivery part).
@dynamicMemberLookup
struct TrackerSetup {
    var journal: URL?
    var durability: Durability
    var maxJournalBytes = 512 << 20
    var segmentBytes = 8 << 20
    var delivery = TrackerConfiguration()

    init(journal: URL?, durability: Durability = .batched) {
        self.journal = journal
        self.durability = durability
    }

    subscript<Value>(dynamicMember path: WritableKeyPath<TrackerConfiguration, Value>) -> Value {
        get { delivery[keyPath: path] }
        set { delivery[keyPath: path] = newValue }
    }

    func store(storage: (any JournalStorage)? = nil) throws(TrackingError) -> JournalStore {
        if let storage {
            return try JournalStore(storage: storage, durability: durability, maxBytes: maxJournalBytes, segmentBytes: segmentBytes)
        }
        return try JournalStore(directory: journal, durability: durability, maxBytes: maxJournalBytes, segmentBytes: segmentBytes)
    }
}

/// What a tracker's run achieved by the time it stopped.
struct ShutdownSummary: Equatable, CustomStringConvertible {
    var delivered: Int
    var pending: Int
    var deadLettered: Int
    var description: String { "delivered \(delivered), pending \(pending), dead-lettered \(deadLettered)" }
}

extension Tracker {
    /// A tracker over a journal store made from `configuration` (over `storage` when given), already
    /// running: its ``Tracker/run()`` goes on in a task of these tests' until ``shutdown(deadline:)``.
    convenience init(destination: any TrackingDestination, configuration: TrackerSetup, storage: (any JournalStorage)? = nil,
                     transport: any Transport = URLSessionTransport.shared, clock: any TrackingClock = SystemTrackingClock()) throws(TrackingError) {
        self.init(destination: destination, store: try configuration.store(storage: storage), configuration: configuration.delivery,
                  transport: transport, clock: clock)
        RunningTrackers.start(self)
    }

    /// What opening its journal found.
    var recoveryReport: JournalRecoveryReport { (store as! JournalStore).recoveryReport }

    /// Stops the run: no more events are taken, delivery goes on for at most `deadline`, the store is
    /// closed. Calling it again returns the same summary.
    @discardableResult
    func shutdown(deadline: Duration) async -> ShutdownSummary {
        drain(within: deadline)
        await RunningTrackers.stop(self)
        let statistics = statistics
        return ShutdownSummary(delivered: statistics.delivered, pending: statistics.pending, deadLettered: statistics.deadLettered)
    }
}

/// The runs of the trackers these tests started, by tracker.
enum RunningTrackers {
    private static let runs = Locked([ObjectIdentifier: Task<Void, Never>]())

    static func start(_ tracker: Tracker) {
        let task = Task { _ = try? await tracker.run() }
        runs.withLock { $0[ObjectIdentifier(tracker)] = task }
    }

    static func stop(_ tracker: Tracker) async {
        guard let task = runs.withLock({ $0[ObjectIdentifier(tracker)] }) else { return }
        task.cancel()
        await task.value
    }
}
