import Foundation
import RecoHTTP
import RecoKit
import RecoTracking

/// Segmentify's `statusCode` error replies, sorted by whose fault they are. Every verdict's reason ends
/// with the vendor's own reply (`HTTP 400: {"statusCode":"BAD_INPUT",…}`), so a dead letter keeps what
/// Segmentify said, not only what RecoKit makes of the code.
///
/// - The events' fault (`NO_USERID`, `NO_SESSIONID`, `NO_EVENT`, `BAD_INPUT`): the batch is bisected
///   and each bad event dead-lettered with the code, its meaning and the reply.
/// - The sender's setup (`NO_API_KEY`, `NO_ACCOUNT`, `UNVERIFIED_ACCOUNT`, `FAILED_ACCOUNT`,
///   `NO_DOMAIN_APIKEY_MATCH`): no event is dead-lettered (they would all be, silently emptying the
///   journal); the destination pauses, events stay pending, and the code shows in
///   ``TrackingStatistics/lastError`` and ``TrackingStatistics/configurationFaults``.
/// - A code not listed here, in a 4xx reply that concerns the request's content (any 4xx but 401, 403,
///   404, 405 and 407, which say the request cannot reach the account, and the passing 408 and 429):
///   the batch is refused like an event fault, bisected, and the culprit dead-lettered with the
///   vendor's message. One bad event no longer stalls the destination.
/// - A code not listed here in any other reply (a 2xx, 401, 403…): a setup fault, as above.
enum SegmentifyReplyCode {
    static let eventFaults: [String: String] = [
        "NO_USERID": "an event has no userId",
        "NO_SESSIONID": "an event has no sessionId",
        "NO_EVENT": "the request holds no event",
        "BAD_INPUT": "the body is not a valid JSON array of events",
    ]

    static let setupFaults: [String: String] = [
        "NO_API_KEY": "the request has no apiKey parameter",
        "NO_ACCOUNT": "the apiKey belongs to no Segmentify account",
        "UNVERIFIED_ACCOUNT": "the account is not verified",
        "FAILED_ACCOUNT": "the account is not active",
        "NO_DOMAIN_APIKEY_MATCH": "the Origin header does not match the account's domain",
    ]

    /// 4xx statuses that say the request cannot reach the account, whatever its events.
    static let setupStatuses: Set<Int> = [401, 403, 404, 405, 407]

    /// The verdict for a reply whose body's `statusCode` is `code`; nil for `SUCCESS`.
    static func verdict(code: String, reply: VendorReply) -> DeliveryVerdict? {
        if code == "SUCCESS" { return nil }
        let said = "HTTP \(reply.status): \(reply.bodyText())"
        // Segmentify's codes are a few words; any length may come (the reply's body holds it whole).
        let code = code.shortened(to: String.quotedCodeLength)
        if let meaning = eventFaults[code] { return .rejected(reason: "Segmentify \(code): \(meaning) (\(said))") }
        if let meaning = setupFaults[code] { return .misconfigured(reason: "Segmentify \(code): \(meaning) (\(said))") }
        if (400..<500).contains(reply.status), !setupStatuses.contains(reply.status) {
            return .rejected(reason: "Segmentify \(code), a code RecoKit does not know, refused the batch (\(said))")
        }
        return .misconfigured(reason: "Segmentify answered unknown statusCode \(code) (\(said))")
    }
}
