import Foundation

/// An HTTP request to a vendor, described completely before it is sent: a recommendations fetch, a
/// tracking batch, a segments lookup.
public struct VendorRequest: Sendable, Hashable {
    /// The HTTP method (`POST` unless given).
    public var method: String
    /// The full URL, query included.
    public var url: URL
    /// Header names and values, in the order they are sent.
    public var headers: [(name: String, value: String)]
    /// The body bytes (empty for none).
    public var body: Data
    /// The most bytes of the reply's body the transport reads, if fewer than its own limit
    /// (``URLSessionTransport/maxReplyBytes``); past them it gives up with ``TransportError/Kind/replyTooLarge``.
    public var maxReplyBytes: Int?

    /// A request.
    public init(method: String = "POST", url: URL, headers: [(name: String, value: String)], body: Data, maxReplyBytes: Int? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.maxReplyBytes = maxReplyBytes
    }

    /// The value of a header (case-insensitive name).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    public static func == (lhs: VendorRequest, rhs: VendorRequest) -> Bool {
        lhs.method == rhs.method && lhs.url == rhs.url && lhs.body == rhs.body && lhs.maxReplyBytes == rhs.maxReplyBytes
            && lhs.headers.map(\.name) == rhs.headers.map(\.name) && lhs.headers.map(\.value) == rhs.headers.map(\.value)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(method)
        hasher.combine(url)
        hasher.combine(body)
    }
}

/// The HTTP answer to a ``VendorRequest``.
public struct VendorReply: Sendable, Hashable {
    /// The HTTP status code.
    public var status: Int
    /// Header values by lower-cased name.
    public var headers: [String: String]
    /// The body bytes.
    public var body: Data

    /// A reply.
    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
        self.body = body
    }

    /// The `Retry-After` header as a duration: delay-seconds, or an HTTP date relative to `now`.
    public func retryAfter(now: Date) -> Duration? {
        guard let value = headers["retry-after"]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Int(value) { return .seconds(max(0, seconds)) }
        guard let date = Self.httpDate(value) else { return nil }
        // Bounded before the conversion, which would trap on a time no Int64 of milliseconds holds (a NaN
        // comes out of `max(0, _)` as 0).
        let seconds = min(max(0, date - now.timeIntervalSince1970), 1e15)
        return .milliseconds(Int64(seconds * 1000))
    }

    /// An HTTP date in the form every server sends (RFC 9110's IMF-fixdate, `Wed, 01 May 2024 12:35:26 GMT`)
    /// as seconds since 1970, or nil for any other text. Read by hand: Foundation's `DateFormatter` on
    /// Linux leaked memory at every date it read (found by `FuzzTrackingReplies`), and a formatter was
    /// made for every reply.
    static func httpDate(_ text: String) -> Double? {
        let fields = text.split(separator: " ", omittingEmptySubsequences: false)
        let days = ["Mon,", "Tue,", "Wed,", "Thu,", "Fri,", "Sat,", "Sun,"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func digits(_ field: Substring, _ count: Int) -> Int? {
            field.utf8.count == count && field.utf8.allSatisfy({ (0x30...0x39).contains($0) }) ? Int(field) : nil
        }
        guard fields.count == 6, days.contains(String(fields[0])), fields[5] == "GMT",
              let day = digits(fields[1], 2), (1...31).contains(day),
              let monthIndex = months.firstIndex(of: String(fields[2])),
              let year = digits(fields[3], 4) else { return nil }
        let clock = fields[4].split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 3, let hour = digits(clock[0], 2), let minute = digits(clock[1], 2), let second = digits(clock[2], 2),
              (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second) else { return nil }
        // Days from 1970-01-01 to the civil date (Howard Hinnant's days_from_civil).
        let month = monthIndex + 1
        let shifted = month <= 2 ? year - 1 : year
        let era = (shifted >= 0 ? shifted : shifted - 399) / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days1970 = era * 146_097 + dayOfEra - 719_468
        return Double(days1970 * 86_400 + hour * 3600 + minute * 60 + second)
    }

    /// Whether the body is a web page (markup: its first byte after white space, and a byte order mark,
    /// is `<`), which no vendor's API answers (they answer JSON or nothing): a 200 that is one comes from
    /// a wrong address (a vendor's website, whose pages answer any path) or a proxy's login page, and says
    /// nothing of what was sent.
    public var isWebPage: Bool {
        var bytes = body[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        return bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } == UInt8(ascii: "<")
    }

    /// Where a redirect (3xx) points, for messages: its `Location` without the query, which may carry
    /// the request's own key (Segmentify's `apiKey`) into a log, and at most 200 characters; nil for
    /// another status or without the header.
    public var redirectTarget: String? {
        guard (300..<400).contains(status), let location = headers["location"] else { return nil }
        return String(location.prefix { $0 != "?" }.prefix(200))
    }

    /// The body as text, at most `limit` characters (for reasons in dead letters).
    ///
    /// Only the body's first bytes are read (four a character, as UTF-8 takes at most): a body of
    /// megabytes is not made into text whole to show 300 characters of it.
    public func bodyText(limit: Int = 300) -> String {
        let limit = max(0, min(limit, 1 << 40))
        let read = body.prefix(limit * 4 + 4)
        let text = String(decoding: read, as: UTF8.self)
        guard let end = text.index(text.startIndex, offsetBy: limit, limitedBy: text.endIndex), end < text.endIndex else {
            return read.count < body.count ? text + "…" : text
        }
        return String(text[..<end]) + "…"
    }
}
