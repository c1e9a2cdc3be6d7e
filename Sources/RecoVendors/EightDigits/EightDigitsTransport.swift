import Foundation
import RecoHTTP

/// Sends 8digits requests and returns the reply's bytes: the one point where ``EightDigitsTracker``
/// touches the network, so tests and other HTTP clients can stand in.
public protocol EightDigitsTransport: Sendable {
    /// Sends a request and returns the reply's body.
    /// - Throws: ``EightDigitsError`` (`transport`) when no reply came back.
    func send(_ request: EightDigitsRequest) async throws(EightDigitsError) -> Data
}

/// Sends 8digits requests over HTTP through a RecoTracking ``Transport`` (by default the shared
/// `URLSessionTransport`, the one session the toolkit's trackers use).
public struct HTTPEightDigitsTransport: EightDigitsTransport {
    private let transport: any Transport
    /// How long a request may take.
    public let timeout: Duration

    /// Requests sent through `transport`.
    public init(transport: any Transport = URLSessionTransport.shared, timeout: Duration = .seconds(60)) {
        self.transport = transport
        self.timeout = timeout
    }

    public func send(_ request: EightDigitsRequest) async throws(EightDigitsError) -> Data {
        let reply: VendorReply
        do {
            reply = try await transport.send(request.request, timeout: timeout)
        } catch {
            throw .transport(ErrorWords.of(error))
        }
        guard (200..<300).contains(reply.status) else { throw .transport("HTTP \(reply.status)") }
        guard !reply.isWebPage else {
            throw .transport("HTTP \(reply.status): the address answered with a web page, not 8digits' API (is it the right address?)")
        }
        return reply.body
    }
}
