import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Fetches segments over HTTP with `URLSession`.
public struct URLSessionSegmentsFetcher: SegmentsFetcher {
    /// The API base (for example `https://api.exponea.com`).
    public let base: URL
    /// The Bloomreach project token.
    public let projectToken: String
    private let session: URLSession

    /// A fetcher for one project.
    public init(base: URL, projectToken: String, session: URLSession = .shared) {
        self.base = base
        self.projectToken = projectToken
        self.session = session
    }

    public func fetchSegments(cookie: String) async throws(BloomreachError) -> BloomreachSegments.Decoded {
        let request = try SegmentsRequest(base: base, projectToken: projectToken, cookie: cookie)
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request.urlRequest)
        } catch {
            throw .transport(String(describing: error))
        }
        if let http = response as? HTTPURLResponse, !(200..<300).contains(http.statusCode) {
            throw .httpStatus(http.statusCode)
        }
        do {
            return try BloomreachSegments.decode(data)
        } catch {
            throw .payload(error)
        }
    }
}
