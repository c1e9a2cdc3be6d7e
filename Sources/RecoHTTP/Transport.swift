/// Sends a request and returns the reply; throws for network errors (no reply at all).
///
/// The tracker and the recommendations client use ``URLSessionTransport`` unless you inject another
/// (tests script replies with one; a server may bring its own HTTP client).
public protocol Transport: Sendable {
    /// Sends `request`, giving up after `timeout`.
    func send(_ request: VendorRequest, timeout: Duration) async throws -> VendorReply
}
