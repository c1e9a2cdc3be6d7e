import Foundation
import FuzzSupport
import RecoDestinations
import RecoHTTP
import RecoTracking

/// A vendor's reply to a tracking request, as the sender judges it: the input is a status line, header
/// lines (`name: value`) and, after a blank line, the body. Every destination's verdict (Segmentify reads
/// its `statusCode`, Reteno the HTTP rules) and what a message takes of a reply (`Retry-After`, a
/// redirect's target, the body as text) must answer, never crash, and say it in bounded words: a reason
/// goes into the dead letter of every event of its batch, and a reply may be 16 MiB.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTrackingReplies(_ pointer: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(pointer, size)
    let reply = parse(input.data)
    let now = Date(timeIntervalSince1970: 1_764_000_000)
    for count in [1, 100] {
        for verdict in [DeliveryVerdict.standard(for: reply, now: now),
                        segmentify.verdict(for: reply, eventCount: count, now: now),
                        reteno.verdict(for: reply, eventCount: count, now: now)] {
            let words = verdict.description
            fuzzCheck(words.count <= DeliveryVerdict.longestReason + 40, "a verdict of \(words.count) characters: \(words.prefix(300))")
        }
    }
    if let wait = reply.retryAfter(now: now) { fuzzCheck(wait >= .zero, "a negative Retry-After: \(wait)") }
    if let target = reply.redirectTarget { fuzzCheck(target.count <= 200 && !target.contains("?"), "a redirect target of \(target.count) characters, or with its query: \(target.prefix(300))") }
    for limit in [0, 1, 7, 300] {
        let text = reply.bodyText(limit: limit)
        fuzzCheck(text.count <= limit + 1, "bodyText(limit: \(limit)) gave \(text.count) characters")
    }
    _ = reply.isWebPage
    return 0
}

private let segmentify = SegmentifyDestination(dataCenter: URL(string: "https://gandalf.example")!, apiKey: "k", origin: "shop.example")
private let reteno = RetenoDestination(base: URL(string: "https://api.reteno.example")!, accessKey: "k")

/// The reply the input spells: its first line's number (taken modulo 1000) as the status, then header
/// lines up to a blank line, then the body.
private func parse(_ data: Data) -> VendorReply {
    let bytes = [UInt8](data)
    var lines: [ArraySlice<UInt8>] = []
    var start = 0
    var bodyStart = bytes.count
    var index = 0
    while index < bytes.count {
        if bytes[index] == UInt8(ascii: "\n") {
            if index == start { bodyStart = index + 1; break }
            lines.append(bytes[start..<index])
            start = index + 1
        }
        index += 1
    }
    if index >= bytes.count, start < bytes.count, bodyStart == bytes.count { lines.append(bytes[start...]) }
    let statusText = lines.first.map { String(decoding: $0.prefix(9), as: UTF8.self) } ?? ""
    let status = (Int(statusText.trimmingCharacters(in: .whitespaces)) ?? 200) % 1000
    var headers: [String: String] = [:]
    for line in lines.dropFirst() {
        let text = String(decoding: line, as: UTF8.self)
        guard let colon = text.firstIndex(of: ":") else { continue }
        headers[String(text[..<colon])] = String(text[text.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
    }
    return VendorReply(status: abs(status), headers: headers, body: Data(bytes[min(bodyStart, bytes.count)...]))
}
