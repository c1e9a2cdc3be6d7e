import Foundation

extension Tracker {
    /// Validates every impression of a page and journals them all as one record: one append, one
    /// encoding of the shared context. Each impression is still an event of its own, with its own id
    /// (consecutive, in the page's order), delivered, retried, bisected and dead-lettered alone.
    ///
    /// All or none: when one impression is invalid nothing is journaled. Durability is as ``track(_:)``'s.
    /// Returns the ids in the order of ``PageImpressions/impressions`` (empty for an empty page).
    /// - Throws: as ``track(_:)``; ``TrackingError/invalid(_:)`` names the first bad impression's error.
    @discardableResult
    public func track(_ page: PageImpressions) throws(TrackingError) -> [EventID] {
        let count = page.impressions.count
        guard count > 0 else { return [] }
        do {
            // One interaction, its per-impression fields changed in place: the context is copied once a page.
            var interaction = page.interaction(0)
            for impression in page.impressions {
                interaction.instanceId = impression.instanceId
                interaction.interactionId = impression.interactionId
                interaction.productId = impression.productId
                interaction.position = impression.position
                try check(interaction)
            }
        } catch {
            counters.withLock { $0.refusedInvalid += count }
            throw error
        }
        let appended: (serial: Int, sequence: UInt64, wakesSenders: Bool)
        do {
            appended = try journal.append(PageRecordCodec.encode(page, run: run), assigningSequence: true, events: count)
        } catch {
            if error.isQueueFull { counters.withLock { $0.refusedQueueFull += count } }
            throw error
        }
        if configuration.durability == .strict { try journal.makeDurable(upTo: appended.serial) }
        if appended.wakesSenders { senderBell.ring() }
        counters.withLock { $0.accepted += count }
        if page.forcePush { try requestForcedFlush() }
        return (0..<UInt64(count)).map { EventID(run: run, sequence: appended.sequence + $0) }
    }
}
