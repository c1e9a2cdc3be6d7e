/// A place in the journal: a segment number and a byte offset in it.
struct JournalPosition: Hashable, Comparable, Sendable {
    var segment: UInt64
    var offset: Int

    static func < (lhs: JournalPosition, rhs: JournalPosition) -> Bool {
        (lhs.segment, lhs.offset) < (rhs.segment, rhs.offset)
    }
}

/// Records taken from the journal for one delivery; acknowledged as a whole.
struct JournalBatch: Sendable {
    let start: JournalPosition
    let payloads: [ArraySlice<UInt8>]
    /// The events the payloads hold (a page's record holds its impressions), as counted when they were read.
    let events: Int
    /// The disk error that ended the batch early (reading on into the next segment, or keeping damage
    /// found there): what was read goes out, the rest is read again by the next take, and the error is
    /// reported all the same.
    var readError: TrackingError?
}
