import Foundation
import RecoKit

/// What a destination concludes from a reply to a batch.
///
/// The engine acts on it: ``delivered`` forgets the batch; ``retry(after:)`` backs off (pausing only
/// this destination); ``rejected(reason:)`` bisects a multi-event batch and dead-letters a single event
/// with the reason; ``tooLarge`` splits; ``misconfigured(reason:)`` keeps every event and pauses for the
/// retry policy's longest delay, because the fault is the sender's setup, not the events.
public struct DeliveryVerdict: Sendable, Hashable, CustomStringConvertible {
    enum Base: Hashable, Sendable {
        case delivered
        case retry(after: Duration?)
        case rejected(reason: String)
        case tooLarge
        case misconfigured(reason: String)
    }

    let base: Base

    /// The verdict as an observer's outcome.
    var outcome: TrackingRequestEnd.Outcome {
        switch base {
        case .delivered: .delivered
        case .retry: .retry
        case .rejected: .rejected
        case .tooLarge: .tooLarge
        case .misconfigured: .misconfigured
        }
    }

    /// The vendor stored the batch.
    public static let delivered = DeliveryVerdict(base: .delivered)
    /// A passing fault (network, 408, 429, 5xx); `after` is the vendor's `Retry-After`, used as a floor.
    public static func retry(after: Duration? = nil) -> DeliveryVerdict { DeliveryVerdict(base: .retry(after: after)) }
    /// The most characters of a reason kept (``rejected(reason:)``, ``misconfigured(reason:)``): a longer
    /// one is cut there, with "…". A reason quotes the vendor, whose reply may be megabytes, and a
    /// rejected batch's reason goes into the dead letter of each of its bad events.
    public static let longestReason = 1_000

    /// Some event of the batch is bad (400, 422, Segmentify NO_USERID, BAD_INPUT…); the reason is kept
    /// to ``longestReason`` characters.
    public static func rejected(reason: String) -> DeliveryVerdict {
        DeliveryVerdict(base: .rejected(reason: reason.shortened(to: longestReason)))
    }
    /// The batch is too large (413).
    public static let tooLarge = DeliveryVerdict(base: .tooLarge)
    /// The request can never succeed as configured (wrong key, account, origin or URL); the reason is
    /// kept to ``longestReason`` characters.
    public static func misconfigured(reason: String) -> DeliveryVerdict {
        DeliveryVerdict(base: .misconfigured(reason: reason.shortened(to: longestReason)))
    }

    /// The HTTP rules every vendor shares: 2xx delivered (but a web page, which no events API answers,
    /// misconfigured); network-like 408, 429 and 5xx (except 501 and
    /// 505) retried with `Retry-After`; 413 too large; 401, 403, 404, 405 and 407 (the request cannot
    /// reach the account), a redirect (3xx, saying where to), 501, 505 and anything not 4xx misconfigured;
    /// every other 4xx (400, 409, 422…) rejected. Each reason holds the status and the vendor's body.
    public static func standard(for reply: VendorReply, now: Date) -> DeliveryVerdict {
        switch reply.status {
        case 200..<300 where reply.isWebPage:
            // A web server's page (a wrong address on the vendor's website, whose pages answer any path, or
            // a proxy's login page), not an API's answer: its 200 says nothing of the events.
            return .misconfigured(reason: "HTTP \(reply.status): the address answered with a web page, not the vendor's API "
                                  + "(is it the right address?): \(reply.bodyText(limit: 120))")
        case 200..<300: return .delivered
        case 408, 429: return .retry(after: reply.retryAfter(now: now))
        case 501, 505: return .misconfigured(reason: "HTTP \(reply.status): \(reply.bodyText())")
        case 500..<600: return .retry(after: reply.retryAfter(now: now))
        case 413: return .tooLarge
        case 401, 403, 404, 405, 407: return .misconfigured(reason: "HTTP \(reply.status): \(reply.bodyText())")
        case 400..<500: return .rejected(reason: "HTTP \(reply.status): \(reply.bodyText())")
        case 300..<400:
            // Not followed: a redirected request goes on without its body (see `URLSessionTransport`).
            let location = reply.redirectTarget.map { " to \($0)" } ?? ""
            return .misconfigured(reason: "HTTP \(reply.status): the vendor redirects\(location); events are not sent on after a redirect "
                                  + "(it would drop their body): set the destination's address to where it points")
        default: return .misconfigured(reason: "HTTP \(reply.status): \(reply.bodyText())")
        }
    }

    /// Whether the batch was stored.
    public var isDelivered: Bool { base == .delivered }

    public var description: String {
        switch base {
        case .delivered: "delivered"
        case .retry(let after): after.map { "retry after \($0)" } ?? "retry"
        case .rejected(let reason): "rejected: \(reason)"
        case .tooLarge: "too large"
        case .misconfigured(let reason): "misconfigured: \(reason)"
        }
    }
}
