import Foundation

/// The storefront's command-line options; each also reads an environment variable (the flag wins).
public struct StorefrontOptions: Sendable, Equatable {
    /// The storefront's port on 127.0.0.1.
    public var port = 8080
    /// The stand-in vendor's port on 127.0.0.1.
    public var vendorPort = 8081
    /// A real vendor base URL for both vendors (no stand-in is started).
    public var vendorURL: URL?
    /// Segmentify's data center, overriding ``vendorURL``.
    public var segmentifyURL: URL?
    /// Reteno's API base, overriding ``vendorURL``.
    public var retenoURL: URL?
    /// Segmentify API key.
    public var segmentifyApiKey = "storefront-sample-key"
    /// The shop's domain for Segmentify's `Origin`.
    public var segmentifyOrigin = "storefront.example"
    /// Reteno access key.
    public var retenoAccessKey = "storefront-sample-key"
    /// Reteno variant shown on product pages.
    public var retenoVariant = "r1105v1480"
    /// The tracking journal's directory.
    public var journal = URL(fileURLWithPath: ".storefront-journal", isDirectory: true)
    /// The vendor timeout for a page, in milliseconds.
    public var timeoutMilliseconds = 300
    /// How long a click-through link is accepted, in seconds.
    public var clickLifetimeSeconds = 3600
    /// How long shutting down may spend delivering events, in seconds.
    public var drainSeconds = 5
    /// The HTTP client for vendors: `ahc` (AsyncHTTPClient) or `urlsession` (``CappedURLSessionTransport``).
    public var transport = "ahc"
    /// How long a product's blocks are reused between pages, in seconds (0: never).
    public var cacheSeconds = 0
    /// The stand-in vendor's payload folder.
    public var payloads: URL?
    /// The stand-in vendor's delay before answering recommendation requests, in milliseconds.
    public var vendorDelayMilliseconds = 0
    /// Whether the stand-in vendor answers recommendation requests with 503.
    public var vendorFails = false
    /// A file served as is at `GET /static` (the measurement's reference: the same bytes, no work).
    public var staticPage: URL?
    /// The most bytes of a vendor's reply read, in KiB.
    public var maxReplyKilobytes = VendorSettings.defaultMaxReplyBytes / 1024
    /// The key that signs visitor cookies (32 bytes from 64 hex digits); nil draws one at start.
    public var secret: [UInt8]?
    /// Whether to print the help and stop.
    public var help = false

    /// The defaults.
    public init() {}

    /// What `--help` prints.
    public static let usage = """
        USAGE: swift run Storefront [options]

        A storefront on 127.0.0.1 whose product pages carry RecoKit recommendation blocks, with
        click-through (/r/{token}) and widget-view (/beacon) tracking. By default a stand-in vendor
        answers Segmentify and Reteno from Samples/Payloads/ on its own port.

        OPTIONS (environment variable in brackets; a flag wins over its variable):
          --port N                  storefront port (default 8080) [STOREFRONT_PORT]
          --vendor-port N           stand-in vendor port (default 8081) [STOREFRONT_VENDOR_PORT]
          --vendor-url URL          a real vendor base URL for both vendors; no stand-in is started [STOREFRONT_VENDOR_URL]
          --segmentify-url URL      Segmentify data center (overrides --vendor-url) [STOREFRONT_SEGMENTIFY_URL]
          --reteno-url URL          Reteno API base (overrides --vendor-url) [STOREFRONT_RETENO_URL]
          --segmentify-api-key KEY  Segmentify API key [STOREFRONT_SEGMENTIFY_API_KEY]
          --segmentify-origin HOST  shop domain sent to Segmentify as Origin (default storefront.example) [STOREFRONT_SEGMENTIFY_ORIGIN]
          --reteno-access-key KEY   Reteno access key [STOREFRONT_RETENO_ACCESS_KEY]
          --reteno-variant ID       Reteno variant on product pages (default r1105v1480) [STOREFRONT_RETENO_VARIANT]
          --journal DIR             tracking journal directory (default .storefront-journal) [STOREFRONT_JOURNAL]
          --timeout MS              vendor timeout per page, milliseconds (default 300) [STOREFRONT_TIMEOUT_MS]
          --click-ttl SECONDS       click-through link lifetime (default 3600) [STOREFRONT_CLICK_TTL]
          --transport ahc|urlsession  HTTP client for vendor requests and tracking: AsyncHTTPClient (default) or
                                    URLSession (both read at most --max-reply-kb of a reply) [STOREFRONT_TRANSPORT]
          --cache-ttl SECONDS       reuse a product's blocks for this long, for every visitor (default 0: off) [STOREFRONT_CACHE_TTL]
          --drain SECONDS           time allowed to deliver events on SIGTERM/SIGINT (default 5) [STOREFRONT_DRAIN]
          --payloads DIR            stand-in vendor payload folder (default Samples/Payloads) [STOREFRONT_PAYLOADS]
          --vendor-delay MS         stand-in vendor waits this long before answering recommendations [STOREFRONT_VENDOR_DELAY_MS]
          --vendor-fail             stand-in vendor answers recommendation requests with 503 [STOREFRONT_VENDOR_FAIL=1]
          --static-page FILE        serve FILE as is at GET /static, read at its first request (measure.sh's
                                    reference: a page's bytes with no work) [STOREFRONT_STATIC_PAGE]
          --max-reply-kb N          read at most N KiB of a vendor's reply; a larger one gives no block
                                    (default 4096) [STOREFRONT_MAX_REPLY_KB]
          --secret HEX              64 hex digits: the key that signs visitor cookies, so they outlive a
                                    restart (default: drawn at random at each start) [STOREFRONT_SECRET]
          -h, --help                print this help

        ROUTES:
          GET  /products/{id}       product page with its blocks (?blocks=off renders it without them)
          GET  /r/{token}           records the click, 302 to the product; 404 for a bad or expired token
          POST /beacon              instanceId, interactionId (form): a widget-view for a block shown to this visitor

        """

    /// Options from the command line and the environment.
    /// - Throws: ``OptionsError`` for an unknown flag, a missing value or a malformed number or URL.
    public init(arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment) throws(OptionsError) {
        var values: [String: String] = [:]
        for flag in Self.valueFlags {
            if let value = environment[flag.variable] { values[flag.name] = value }
        }
        if let fail = environment["STOREFRONT_VENDOR_FAIL"] { vendorFails = ["1", "true", "yes"].contains(fail.lowercased()) }
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            switch argument {
            case "-h", "--help": help = true
            case "--vendor-fail": vendorFails = true
            default:
                var name = argument
                var value: String?
                if let equals = argument.firstIndex(of: "=") {
                    name = String(argument[..<equals])
                    value = String(argument[argument.index(after: equals)...])
                }
                guard Self.valueFlags.contains(where: { $0.name == name }) else { throw .unknown(argument) }
                if value == nil {
                    guard index < arguments.count else { throw .missingValue(name) }
                    value = arguments[index]
                    index += 1
                }
                values[name] = value
            }
        }
        for (name, value) in values { try set(name, value) }
        // A cached block's links were signed when it was rendered: they must outlive the cache entry.
        if cacheSeconds >= clickLifetimeSeconds {
            throw .invalid("--cache-ttl", String(cacheSeconds), "fewer seconds than --click-ttl (\(clickLifetimeSeconds)), so cached links outlive the cache")
        }
    }

    private static let valueFlags: [(name: String, variable: String)] = [
        ("--port", "STOREFRONT_PORT"), ("--vendor-port", "STOREFRONT_VENDOR_PORT"), ("--vendor-url", "STOREFRONT_VENDOR_URL"),
        ("--segmentify-url", "STOREFRONT_SEGMENTIFY_URL"), ("--reteno-url", "STOREFRONT_RETENO_URL"),
        ("--segmentify-api-key", "STOREFRONT_SEGMENTIFY_API_KEY"), ("--segmentify-origin", "STOREFRONT_SEGMENTIFY_ORIGIN"),
        ("--reteno-access-key", "STOREFRONT_RETENO_ACCESS_KEY"), ("--reteno-variant", "STOREFRONT_RETENO_VARIANT"),
        ("--journal", "STOREFRONT_JOURNAL"), ("--timeout", "STOREFRONT_TIMEOUT_MS"), ("--click-ttl", "STOREFRONT_CLICK_TTL"),
        ("--drain", "STOREFRONT_DRAIN"), ("--cache-ttl", "STOREFRONT_CACHE_TTL"), ("--transport", "STOREFRONT_TRANSPORT"), ("--payloads", "STOREFRONT_PAYLOADS"), ("--vendor-delay", "STOREFRONT_VENDOR_DELAY_MS"),
        ("--static-page", "STOREFRONT_STATIC_PAGE"), ("--max-reply-kb", "STOREFRONT_MAX_REPLY_KB"), ("--secret", "STOREFRONT_SECRET"),
    ]

    private mutating func set(_ name: String, _ value: String) throws(OptionsError) {
        func number(min: Int = 0, max: Int = 65_535) throws(OptionsError) -> Int {
            guard let number = Int(value), (min...max).contains(number) else { throw .invalid(name, value, "a whole number from \(min) to \(max)") }
            return number
        }
        func url() throws(OptionsError) -> URL {
            guard let url = URL(string: value), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
                throw .invalid(name, value, "an http(s) URL")
            }
            return url
        }
        switch name {
        case "--port": port = try number()
        case "--vendor-port": vendorPort = try number()
        case "--vendor-url": vendorURL = try url()
        case "--segmentify-url": segmentifyURL = try url()
        case "--reteno-url": retenoURL = try url()
        case "--segmentify-api-key": segmentifyApiKey = value
        case "--segmentify-origin": segmentifyOrigin = value
        case "--reteno-access-key": retenoAccessKey = value
        case "--reteno-variant": retenoVariant = value
        case "--journal": journal = URL(fileURLWithPath: value, isDirectory: true)
        case "--timeout": timeoutMilliseconds = try number(min: 1, max: 600_000)
        case "--click-ttl": clickLifetimeSeconds = try number(min: 1, max: 365 * 86_400)
        case "--drain": drainSeconds = try number(max: 3600)
        case "--cache-ttl": cacheSeconds = try number(max: 365 * 86_400)
        case "--transport":
            guard ["ahc", "urlsession"].contains(value) else { throw .invalid(name, value, "ahc or urlsession") }
            transport = value
        case "--payloads": payloads = URL(fileURLWithPath: value, isDirectory: true)
        case "--vendor-delay": vendorDelayMilliseconds = try number(max: 600_000)
        case "--static-page": staticPage = URL(fileURLWithPath: value)
        case "--max-reply-kb": maxReplyKilobytes = try number(min: 1, max: 1 << 20)
        case "--secret":
            let digits = Array(value.utf8)
            guard digits.count == 64, let key = Self.bytes(hex: digits) else { throw .invalid(name, "(hidden)", "64 hex digits") }
            secret = key
        default: throw .unknown(name)
        }
    }

    private static func bytes(hex digits: [UInt8]) -> [UInt8]? {
        func nibble(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var out: [UInt8] = []
        for index in stride(from: 0, to: digits.count - 1, by: 2) {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            out.append(high << 4 | low)
        }
        return out
    }

    /// Whether a stand-in vendor is needed (some vendor has no real URL).
    public var needsStandIn: Bool { (segmentifyURL ?? vendorURL) == nil || (retenoURL ?? vendorURL) == nil }
}

/// A command-line option the storefront cannot use.
public struct OptionsError: Error, CustomStringConvertible, Equatable {
    private enum Kind: Equatable {
        case unknown(String)
        case missingValue(String)
        case invalid(String, String, String)
    }

    private let kind: Kind

    static func unknown(_ flag: String) -> OptionsError { OptionsError(kind: .unknown(flag)) }
    static func missingValue(_ flag: String) -> OptionsError { OptionsError(kind: .missingValue(flag)) }
    static func invalid(_ flag: String, _ value: String, _ expected: String) -> OptionsError {
        OptionsError(kind: .invalid(flag, value, expected))
    }

    public var description: String {
        switch kind {
        case .unknown(let flag): "unknown option \(flag) (see --help)"
        case .missingValue(let flag): "\(flag) needs a value"
        case .invalid(let flag, let value, let expected): "\(flag) \(value): expected \(expected)"
        }
    }
}
