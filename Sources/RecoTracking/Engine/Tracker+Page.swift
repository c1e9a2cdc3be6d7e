import Foundation

extension Tracker {
    /// Validates every impression of a page and stores them all as one record: one append, one
    /// encoding of the shared context. Each impression is still an event of its own, with its own id
    /// (consecutive, in the page's order), delivered, retried, bisected and dead-lettered alone.
    ///
    /// All or none: when one impression is invalid nothing is stored. Durability is as ``track(_:)``'s.
    /// Returns the ids in the order of ``PageImpressions/impressions`` (empty for an empty page).
    /// - Throws: as ``track(_:)``; ``TrackingError/invalid(_:)`` names the first bad impression
    ///   (``PageImpressions/place(of:)``) and its error: shape errors before the destination's.
    @discardableResult
    public func track(_ page: PageImpressions) throws(TrackingError) -> [EventID] {
        let count = page.impressions.count
        guard count > 0 else { return [] }
        do {
            // The shapes of the impressions first, then the destination's rules (its shared context once).
            try page.checkShapes()
            try destination.validate(page)
        } catch {
            counters.withLock { $0.refusedInvalid += count }
            throw .invalid(error)
        }
        let first = try number(events: count, taking: true)
        do {
            if let journalStore {
                try PageRecordCodec.withRecord(page, run: first.run, firstSequence: first.sequence) { (bytes) throws(TrackingError) in
                    try journalStore.append(bytes: bytes)
                }
            } else {
                try store.append(StoredRecord(bytes: PageRecordCodec.encode(page, run: first.run, firstSequence: first.sequence),
                                              firstEvent: first, events: count))
            }
        } catch {
            refused(events: count, error)
            throw error
        }
        if page.forcePush { requestForcedFlush() }
        return (0..<UInt64(count)).map { EventID(run: first.run, sequence: first.sequence + $0) }
    }

    /// Validates and numbers a page's impressions and encodes their record, without storing it (see
    /// ``record(_:)-(Interaction)``); nil for a page without impressions.
    public func record(_ page: PageImpressions) throws(TrackingError) -> StoredRecord? {
        guard !page.impressions.isEmpty else { return nil }
        do {
            try page.checkShapes()
            try destination.validate(page)
        } catch {
            throw .invalid(error)
        }
        let first = try number(events: page.impressions.count, taking: false)
        return StoredRecord(bytes: PageRecordCodec.encode(page, run: first.run, firstSequence: first.sequence), firstEvent: first,
                            events: page.impressions.count)
    }
}
