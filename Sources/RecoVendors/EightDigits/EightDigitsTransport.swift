import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends 8digits requests and returns the reply's bytes: the one point where ``EightDigitsTracker``
/// touches the network, so tests and other HTTP clients can stand in.
public protocol EightDigitsTransport: Sendable {
    /// Sends a request and returns the reply's body.
    /// - Throws: ``EightDigitsError`` (`transport`) when no reply came back.
    func send(_ request: EightDigitsRequest) async throws(EightDigitsError) -> Data
}

/// Sends 8digits requests with `URLSession`.
public struct URLSessionEightDigitsTransport: EightDigitsTransport {
    private let session: URLSession

    /// A transport over `session`.
    public init(session: URLSession = .shared) { self.session = session }

    public func send(_ request: EightDigitsRequest) async throws(EightDigitsError) -> Data {
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request.urlRequest)
        } catch {
            throw .transport(String(describing: error))
        }
        if let http = response as? HTTPURLResponse, !(200..<300).contains(http.statusCode) {
            throw .transport("HTTP \(http.statusCode)")
        }
        return data
    }
}
