import Foundation

/// Why a transport gave up on a reply.
///
/// ```swift
/// do {
///     let reply = try await transport.send(request, timeout: .seconds(2))
///     print(reply.status)
/// } catch let error as TransportError where error.kind == .replyTooLarge {
///     print(error)   // the vendor sent more than request.maxReplyBytes
/// }
/// ```
public struct TransportError: Error, Hashable, Sendable, CustomStringConvertible, LocalizedError {
    /// What kind of failure this is; compare with the static members (`error.kind == .replyTooLarge`).
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        fileprivate let name: String
        /// The reply's body would pass the most bytes the transport reads (``TransportError/limit``).
        public static let replyTooLarge = Kind(name: "replyTooLarge")
        public var description: String { name }
    }

    private let base: Kind
    /// The most bytes of a reply's body the transport would read, for ``Kind/replyTooLarge``.
    public let limit: Int

    /// A reply whose body would pass `limit` bytes.
    public static func replyTooLarge(limit: Int) -> TransportError { TransportError(base: .replyTooLarge, limit: limit) }

    /// The kind of failure.
    public var kind: Kind {
        base
    }

    public var description: String { "the reply is larger than \(limit) bytes" }

    /// The same words as ``description`` (what `localizedDescription` gives, as in a tracker's
    /// `lastError`).
    public var errorDescription: String? { description }
}
