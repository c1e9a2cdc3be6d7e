import Foundation

/// The storefront's settings, as ``StorefrontCommand`` reads them from the command line and the environment.
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
    /// The HTTP client for vendors: `ahc` (AsyncHTTPClient) or `urlsession` (RecoKit's `URLSessionTransport`).
    public var transport = "ahc"
    /// How long a product's blocks are reused between pages, in seconds (0: never).
    public var cacheSeconds = 0
    /// How long past ``cacheSeconds`` a product's blocks are still served while one fetch refreshes them.
    public var staleWhileRevalidateSeconds = 0
    /// How long past ``cacheSeconds`` a vendor's last good answer is kept for when it fails.
    public var staleIfErrorSeconds = 0
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
    /// How long a connection may sit idle, or take to send a request's headers, in seconds.
    public var idleTimeoutSeconds = 30
    /// Whether to keep and log each stage's CPU time per page (``StageClock``).
    public var profile = false
    /// Whether to run only the stand-in vendor (on ``vendorPort``), as a remote vendor would be.
    public var standInOnly = false

    /// The defaults.
    public init() {}

    /// Whether a stand-in vendor is needed (some vendor has no real URL).
    public var needsStandIn: Bool { standInOnly || (segmentifyURL ?? vendorURL) == nil || (retenoURL ?? vendorURL) == nil }
}

/// A command-line option or environment variable the storefront cannot use: which, its value, what was expected.
public struct OptionsError: Error, CustomStringConvertible, Equatable {
    private enum Kind: Equatable {
        case invalid(String, String, String)
    }

    private let kind: Kind

    static func invalid(_ flag: String, _ value: String, _ expected: String) -> OptionsError {
        OptionsError(kind: .invalid(flag, value, expected))
    }

    /// The option, its value and what was expected, in one line.
    public var description: String {
        switch kind {
        case .invalid(let flag, let value, let expected): "\(flag) \(value): expected \(expected)"
        }
    }
}
