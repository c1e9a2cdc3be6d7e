import Foundation
import RecoHTTP
import RecoKit

/// Accepts interactions, keeps them in a store, and delivers them to one destination in batches,
/// retrying until the vendor stores them or refuses them for a reason (then they are dead-lettered).
///
/// ```swift
/// let store = try JournalStore(directory: URL(fileURLWithPath: "/var/lib/shop/tracking/segmentify"))
/// let tracker = Tracker(destination: SegmentifyDestination(dataCenter: url, apiKey: key, origin: "shop.example"),
///                       store: store)
/// try await withThrowingDiscardingTaskGroup { group in
///     group.addTask { try await tracker.run() }     // delivers until cancelled, then drains
///     try tracker.track(.widgetView(of: widget, context: context))
///     group.cancelAll()
/// }
/// ```
///
/// ``track(_:)`` works from any thread, at any time: before ``run()`` starts, the events wait in the store.
/// ``run()`` delivers until its task is cancelled, then goes on for ``TrackerConfiguration/drainDeadline``
/// and closes the store; it is a swift-service-lifecycle `Service` as it is
/// (`extension Tracker: @retroactive Service {}`). A tracker runs once.
///
/// One tracker delivers to one destination from one store: to deliver the same interactions to two
/// vendors, run two trackers over two stores (each pauses on its own when its vendor fails).
public final class Tracker: Sendable {
    /// Where events go.
    public let destination: any TrackingDestination
    /// Where they wait until they are delivered.
    public let store: any TrackingStore
    /// How they are sent.
    public let configuration: TrackerConfiguration

    let transport: any Transport
    let clock: any TrackingClock
    /// The store, when it is RecoKit's own journal (files or memory): `track` then appends a record from
    /// the room it is written in (``JournalStore/append(bytes:)``), with no array made and freed per
    /// event as a ``StoredRecord`` needs.
    let journalStore: JournalStore?
    /// The first half of every event id this tracker gives: random, so that ids from several processes
    /// (and runs) appending to one store never meet.
    let idRun = UInt64.random(in: 1...UInt64.max)
    let counters = Locked(TrackingStatistics())
    let control = Locked(Control())
    /// Rung when the delivery gate changes (opens, or its probe is free again), for senders waiting on it.
    let gateBell = Doorbell()
    /// Rung when a batch is settled (delivered or dead-lettered), for ``waitUntilIdle(timeout:)``.
    let settledBell = Doorbell()
    /// Rung to commit now (a forced push), and when the run is asked to stop.
    let runBell = Doorbell()

    struct Control {
        var gate = DeliveryGate()
        var nextSequence: UInt64 = 1
        /// Events numbered for this tracker's own appends, less those its store refused: what
        /// ``TrackingStatistics/accepted`` reports. Counted in the round that numbers them (one round of the
        /// lock a `track`, not two), so a snapshot taken while a `track` is under way may count its event
        /// before the store holds it.
        var accepted = 0
        var forceFlush = false
        var lastForcePush: Duration?
        var phase = Phase.idle
        /// Events of claimed batches already delivered, by claim: no longer pending, though their batch is
        /// not settled yet (a page's record goes out in several requests).
        var deliveredUnsettled: [UInt64: Int] = [:]
        /// How long the stop drains (``TrackerConfiguration/drainDeadline`` unless a caller says otherwise).
        var drainDeadline: Duration = .seconds(5)
    }

    enum Phase: Equatable {
        /// Not run yet: events are taken and wait.
        case idle
        case running
        /// Asked to stop: the rest is delivered until the deadline; no event is taken.
        case draining
        case stopped
    }

    /// A tracker over `store`; nothing is delivered until ``run()`` runs.
    /// - Parameters:
    ///   - transport: how requests are sent (``URLSessionTransport/shared`` unless given).
    ///   - clock: the time of retries, backoff and the dead letters.
    public init(destination: any TrackingDestination, store: any TrackingStore, configuration: TrackerConfiguration = TrackerConfiguration(),
                transport: any Transport = URLSessionTransport.shared, clock: any TrackingClock = SystemTrackingClock()) {
        self.destination = destination
        self.store = store
        self.configuration = configuration
        self.transport = transport
        self.clock = clock
        journalStore = store as? JournalStore
        control.withLock { $0.drainDeadline = configuration.drainDeadline }
    }

    /// What ``track(_:)`` checks before it stores: the interaction's shape and the destination's own
    /// rules. Nothing is stored or counted; a caller that must take several events all or none checks
    /// each first.
    /// - Throws: ``TrackingError/invalid(_:)`` naming what is wrong.
    public func check(_ interaction: Interaction) throws(TrackingError) {
        do {
            try interaction.checkShape()
            try destination.validate(interaction)
        } catch {
            throw .invalid(error)
        }
    }

    /// Validates the interaction, gives it an id, and hands it to the store.
    ///
    /// Returns the event's id once the store has it: as durable as the store promises for an append (a
    /// ``JournalStore``'s ``Durability``), durable in any store after the next ``commit()``. It never
    /// waits for the network, so a caller on any actor (a request handler's) tracks without hopping.
    /// - Throws: ``TrackingError/invalid(_:)`` for a bad interaction, ``TrackingError/queueFull`` when the
    ///   store is at its limit, ``TrackingError/shutDown`` once ``run()`` has begun to stop.
    @discardableResult
    public func track(_ interaction: Interaction) throws(TrackingError) -> EventID {
        do {
            try check(interaction)
        } catch {
            counters.withLock { $0.refusedInvalid += 1 }
            throw error
        }
        // Numbered, encoded and stored here rather than in a closure handed on: a closure that captures
        // the interaction is given a copy of it (its dozen strings retained and released).
        let first = try number(events: 1, taking: true)
        do {
            if let journalStore {
                try EventCodec.withRecord(id: first, interaction: interaction) { (bytes) throws(TrackingError) in try journalStore.append(bytes: bytes) }
            } else {
                try store.append(StoredRecord(bytes: EventCodec.encode(id: first, interaction: interaction), firstEvent: first, events: 1))
            }
        } catch {
            refused(events: 1, error)
            throw error
        }
        if interaction.forcePush { requestForcedFlush() }
        return first
    }

    /// Tracks an interaction after checking it against the widget it names: the widget's instance id
    /// and, for a click, a product the widget holds (the position is filled in from the widget).
    @discardableResult
    public func track<P>(_ interaction: Interaction, shownIn widget: Widget<P>) throws(TrackingError) -> EventID {
        var checked = interaction
        do { try checked.check(against: widget) } catch {
            counters.withLock { $0.refusedInvalid += 1 }
            throw .invalid(error)
        }
        return try track(checked)
    }

    /// Validates and numbers `interaction` and encodes its record, without storing it: for an append of
    /// your own, such as a PostgreSQL store's inside the transaction of the order the event belongs to. The
    /// record goes out like any other once it is in the store the tracker delivers from.
    /// - Throws: ``TrackingError/invalid(_:)`` for a bad interaction.
    public func record(_ interaction: Interaction) throws(TrackingError) -> StoredRecord {
        try check(interaction)
        let first = try number(events: 1, taking: false)
        return StoredRecord(bytes: EventCodec.encode(id: first, interaction: interaction), firstEvent: first, events: 1)
    }

    /// Gives `events` consecutive ids; the first. `taking`: for a record this tracker appends itself
    /// (``append(_:)``), refused with ``TrackingError/shutDown`` once the tracker has begun to stop, and
    /// counted accepted, all in the same round of the lock.
    func number(events: Int, taking: Bool) throws(TrackingError) -> EventID {
        let sequence = try control.withLock { (state: inout Control) throws(TrackingError) -> UInt64 in
            if taking {
                guard state.phase == .idle || state.phase == .running else { throw .shutDown }
                state.accepted += events
            }
            defer { state.nextSequence += UInt64(events) }
            return state.nextSequence
        }
        return EventID(run: idRun, sequence: sequence)
    }

    /// The store refused a record numbered by ``number(events:taking:)`` (which counted its events
    /// accepted) with `error`: its events are no longer counted accepted, and are counted refused when the
    /// store is full.
    func refused(events: Int, _ error: TrackingError) {
        control.withLock { $0.accepted -= events }
        if error.isQueueFull { counters.withLock { $0.refusedQueueFull += events } }
    }

    /// A forced push: commit now and send what there is without waiting for full batches, at most once a
    /// ``TrackerConfiguration/forcePushInterval``.
    func requestForcedFlush() {
        let now = clock.continuousTime()
        let allowed = control.withLock { state -> Bool in
            if let last = state.lastForcePush, now - last < configuration.forcePushInterval, now >= last { return false }
            state.lastForcePush = now
            state.forceFlush = true
            return true
        }
        guard allowed else { return }
        runBell.ring()
        store.wake()
    }

    /// Makes every accepted event durable now, whatever the store's own schedule.
    public func commit() async throws(TrackingError) {
        try await store.commit()
    }

    /// Commits, then sends what the store holds now without waiting for full batches.
    public func flush() async throws(TrackingError) {
        try await store.commit()
        control.withLock { $0.forceFlush = true }
        store.wake()
    }

    /// The counters since the tracker was made, and what its store holds now.
    public var statistics: TrackingStatistics {
        var snapshot = counters.withLock { $0 }
        let status = store.status
        let (accepted, deliveredUnsettled, paused) = control.withLock { ($0.accepted, $0.deliveredUnsettled.values.reduce(0, +), !$0.gate.isOpen) }
        snapshot.accepted = accepted
        snapshot.deliveryPaused = paused
        snapshot.pending = max(0, status.pendingEvents - deliveredUnsettled)
        snapshot.journalBytes = status.pendingBytes
        snapshot.oldestPendingAge = status.oldestPendingAge(now: clock.now())
        snapshot.diskError = status.error
        snapshot.damage = status.damage
        if status.deliveryFaults > 0 {
            snapshot.deliveryDiskErrors += status.deliveryFaults
            snapshot.deliveryDiskError = snapshot.deliveryDiskError ?? status.lastDeliveryFault
        }
        return snapshot
    }

    /// The dead letters, oldest first, in one array. They accumulate for as long as a vendor refuses
    /// events: to go through many, see ``deadLetters(each:)``.
    public func deadLetters() async throws(TrackingError) -> [DeadLetter] {
        var letters: [DeadLetter] = []
        _ = try await store.deadLetters { letters.append($0) }
        return letters
    }

    /// Hands each dead letter to `body`, oldest first, without keeping them; returns how many.
    @discardableResult
    public func deadLetters(each body: (DeadLetter) -> Void) async throws(TrackingError) -> Int {
        try await store.deadLetters(each: body)
    }

    /// Moves every dead letter back into the store (same ids) for another try; returns how many.
    @discardableResult
    public func requeueDeadLetters() async throws(TrackingError) -> Int {
        let count = try await store.requeueDeadLetters()
        store.wake()
        return count
    }
}
