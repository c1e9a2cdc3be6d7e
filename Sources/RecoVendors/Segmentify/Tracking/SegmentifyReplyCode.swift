import RecoTracking

/// Segmentify's `statusCode` error replies, sorted by whose fault they are.
///
/// - The events' fault (`NO_USERID`, `NO_SESSIONID`, `NO_EVENT`, `BAD_INPUT`): the batch is bisected
///   and each bad event dead-lettered with the code and its meaning.
/// - The sender's setup (`NO_API_KEY`, `NO_ACCOUNT`, `UNVERIFIED_ACCOUNT`, `FAILED_ACCOUNT`,
///   `NO_DOMAIN_APIKEY_MATCH`) and any code not listed here: no event is dead-lettered (they would all
///   be, silently emptying the journal); the destination pauses, events stay pending, and the code shows
///   in ``TrackingStatistics/lastError`` and ``TrackingStatistics/configurationFaults``.
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

    static func verdict(code: String) -> DeliveryVerdict? {
        if code == "SUCCESS" { return nil }
        if let meaning = eventFaults[code] { return .rejected(reason: "Segmentify \(code): \(meaning)") }
        if let meaning = setupFaults[code] { return .misconfigured(reason: "Segmentify \(code): \(meaning)") }
        return .misconfigured(reason: "Segmentify answered unknown statusCode \(code)")
    }
}
