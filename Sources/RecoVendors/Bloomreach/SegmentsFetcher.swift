/// Fetches a customer's segments from Bloomreach: the one point where ``RealtimeSegments`` touches
/// the network, so tests and other HTTP clients can stand in.
///
/// ``HTTPSegmentsFetcher`` is the ready-made one.
public protocol SegmentsFetcher: Sendable {
    /// The segments of the customer with this cookie id.
    /// - Throws: ``BloomreachError`` when the answer cannot be had or read.
    func fetchSegments(cookie: String) async throws(BloomreachError) -> BloomreachSegments.Decoded
}
