import Foundation
import RecoKit
import RecoTracking

/// Where a server records its visitors' interactions through the impression policy and consent: a
/// bot's or a prefetch's interactions are not recorded; a visitor whose consent is pending has theirs
/// kept aside, sent when they grant it and discarded when they refuse it; after a refusal nothing more
/// is recorded.
///
/// ```swift
/// let gate = ImpressionGate(tracker: tracker, initialConsent: .pending)
/// let visit = ImpressionPolicy().visit(headers: headers)
/// for widget in reply.widgets { try gate.record(.impression(of: widget, context: context), visitor: cookie, visit: visit) }
/// // later, from the consent banner:
/// try gate.setConsent(.granted, visitor: cookie)   // sends what was kept aside
/// ```
///
/// Bounded: at most `maxVisitors` visitors with a pending consent or an answer are remembered (the
/// least recent ones are forgotten, with what they kept aside, and counted); each keeps at most
/// `maxBufferedPerVisitor` interactions aside.
public final class ImpressionGate: @unchecked Sendable {
    /// What the gate did with one interaction.
    public enum Outcome: Hashable, Sendable {
        /// Sent to the tracker.
        case sent
        /// Kept aside until the visitor answers the consent question.
        case buffered
        /// Not recorded: the request came from a bot or a prefetch (``PageVisit``).
        case skipped(PageVisit)
        /// Not recorded: the visitor refused consent.
        case refused
    }

    /// What the gate has done since it was made.
    public struct Statistics: Hashable, Sendable {
        /// Interactions sent.
        public var sent = 0
        /// Interactions kept aside (some later sent, some discarded).
        public var buffered = 0
        /// Interactions of bots and prefetches, not recorded.
        public var skipped = 0
        /// Interactions not recorded or discarded because consent was refused, or dropped because a
        /// buffer or the visitor table was full.
        public var discarded = 0
    }

    private let send: @Sendable (Interaction) throws -> Void
    /// The consent of a visitor the gate has not heard of.
    public let initialConsent: Consent
    /// The most visitors remembered.
    public let maxVisitors: Int
    /// The most interactions kept aside per visitor.
    public let maxBufferedPerVisitor: Int
    private let lock = NSLock()
    private var visitors: [String: (consent: VisitorConsent, lastUsed: UInt64)] = [:]
    private var tick: UInt64 = 0
    private var counts = Statistics()

    /// A gate that records with `send`.
    public init(initialConsent: Consent, maxVisitors: Int = 100_000, maxBufferedPerVisitor: Int = 200,
                send: @escaping @Sendable (Interaction) throws -> Void) {
        self.send = send
        self.initialConsent = initialConsent
        self.maxVisitors = max(1, maxVisitors)
        self.maxBufferedPerVisitor = max(1, maxBufferedPerVisitor)
    }

    /// A gate that records into `tracker`.
    public convenience init(tracker: Tracker, initialConsent: Consent, maxVisitors: Int = 100_000, maxBufferedPerVisitor: Int = 200) {
        self.init(initialConsent: initialConsent, maxVisitors: maxVisitors, maxBufferedPerVisitor: maxBufferedPerVisitor) { interaction in
            _ = try tracker.track(interaction)
        }
    }

    /// What the gate has done.
    public var statistics: Statistics { lock.locked { counts } }

    /// The visitor's consent now.
    public func consent(of visitor: String) -> Consent {
        lock.locked { visitors[visitor]?.consent.consent ?? initialConsent }
    }

    /// How many of the visitor's interactions are kept aside now.
    public func bufferedCount(of visitor: String) -> Int {
        lock.locked { visitors[visitor]?.consent.buffered.count ?? 0 }
    }

    /// Records an interaction of `visitor` during `visit`, as the policy and consent allow.
    /// - Throws: what the tracker throws when sending (the interaction is then not recorded).
    @discardableResult
    public func record(_ interaction: Interaction, visitor: String, visit: PageVisit) throws -> Outcome {
        guard visit.records else {
            lock.locked { counts.skipped += 1 }
            return .skipped(visit)
        }
        let action: VisitorConsent.Action = lock.locked {
            var state = take(visitor)
            let overflowBefore = state.overflowed
            let action = state.record(interaction)
            counts.discarded += state.overflowed - overflowBefore
            switch action {
            case .send: counts.sent += 1
            case .buffered: counts.buffered += 1
            case .discarded: counts.discarded += 1
            }
            put(visitor, state)
            return action
        }
        switch action {
        case .send:
            try send(interaction)
            return .sent
        case .buffered:
            return .buffered
        case .discarded:
            return .refused
        }
    }

    /// Sets the visitor's consent: granting sends what was kept aside (returned, oldest first);
    /// revoking discards it; pending starts keeping aside again.
    /// - Throws: what the tracker throws; interactions after the one that failed are not sent.
    @discardableResult
    public func setConsent(_ consent: Consent, visitor: String) throws -> [Interaction] {
        let toSend: [Interaction] = lock.locked {
            var state = take(visitor)
            var toSend: [Interaction] = []
            switch consent {
            case .granted:
                toSend = state.grant()
                counts.sent += toSend.count
            case .revoked:
                counts.discarded += state.revoke()
            case .pending:
                state = VisitorConsent(.pending, limit: maxBufferedPerVisitor)
            }
            put(visitor, state)
            return toSend
        }
        for interaction in toSend { try send(interaction) }
        return toSend
    }

    /// The visitor's state (new ones start at ``initialConsent``). Called with the lock held.
    private func take(_ visitor: String) -> VisitorConsent {
        visitors[visitor]?.consent ?? VisitorConsent(initialConsent, limit: maxBufferedPerVisitor)
    }

    /// Stores the visitor's state, forgetting the least recent visitor when over the bound. Called with the lock held.
    private func put(_ visitor: String, _ state: VisitorConsent) {
        tick += 1
        visitors[visitor] = (state, tick)
        guard visitors.count > maxVisitors else { return }
        // The least recent 1% at once (at least one), so a full table is sorted once per many visitors.
        let excess = visitors.count - maxVisitors + max(0, maxVisitors / 100)
        for oldest in visitors.filter({ $0.key != visitor }).sorted(by: { $0.value.lastUsed < $1.value.lastUsed }).prefix(excess) {
            counts.discarded += oldest.value.consent.buffered.count
            visitors[oldest.key] = nil
        }
    }
}
