/// Sends a request and returns the reply; throws for network errors (no reply at all).
///
/// The tracker uses ``URLSessionTransport`` unless you inject another (tests script replies with one).
public protocol Transport: Sendable {
    /// Sends `request`, giving up after `timeout`.
    func send(_ request: TrackingRequest, timeout: Duration) async throws -> TrackingReply
}
