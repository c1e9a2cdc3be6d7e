import Foundation
import RecoHTTP

/// Fetches segments over HTTP through a RecoTracking ``Transport`` (by default the shared
/// `URLSessionTransport`, the one session the toolkit's trackers use).
public struct HTTPSegmentsFetcher: SegmentsFetcher {
    /// The API base (for example `https://api.exponea.com`).
    public let base: URL
    /// The Bloomreach project token.
    public let projectToken: String
    /// How long a fetch may take.
    public let timeout: Duration
    private let transport: any Transport

    /// A fetcher for one project.
    public init(base: URL, projectToken: String, transport: any Transport = URLSessionTransport.shared, timeout: Duration = .seconds(60)) {
        self.base = base
        self.projectToken = projectToken
        self.transport = transport
        self.timeout = timeout
    }

    public func fetchSegments(cookie: String) async throws(BloomreachError) -> BloomreachSegments.Decoded {
        let request = try SegmentsRequest(base: base, projectToken: projectToken, cookie: cookie)
        let reply: VendorReply
        do {
            reply = try await transport.send(request.request, timeout: timeout)
        } catch {
            throw .transport(ErrorWords.of(error))
        }
        guard (200..<300).contains(reply.status) else { throw .httpStatus(reply.status) }
        do {
            return try BloomreachSegments.decode(reply.body)
        } catch {
            throw .payload(error)
        }
    }
}
