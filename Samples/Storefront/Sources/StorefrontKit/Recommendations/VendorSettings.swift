import Foundation
import RecoVendors

/// Where the vendors are and who the shop is to them.
public struct VendorSettings: Sendable {
    /// Segmentify's data center (the stand-in vendor by default).
    public var segmentify: URL
    /// Reteno's API base (the stand-in vendor by default).
    public var reteno: URL
    /// The Segmentify API key.
    public var segmentifyApiKey: String
    /// The shop's domain, sent to Segmentify as `Origin`.
    public var segmentifyOrigin: String
    /// The Reteno access key.
    public var retenoAccessKey: String
    /// The Reteno recommendation variant shown on product pages.
    public var retenoVariant: RetenoVariantId
    /// The language asked of Segmentify.
    public var language: String
    /// How long a page waits for a vendor's recommendations before rendering without them: the whole
    /// reply, body included, must be in by then.
    public var timeout: Duration
    /// The most bytes of a vendor's reply read (`--max-reply-kb`); a larger reply gives no block.
    public var maxReplyBytes: Int
    /// The default ``maxReplyBytes``: 4 MiB (the sample's Segmentify reply is 111 KB).
    public static let defaultMaxReplyBytes = 4 << 20

    /// Settings for vendors at these base URLs.
    public init(segmentify: URL, reteno: URL, segmentifyApiKey: String = "storefront-sample-key",
                segmentifyOrigin: String = "storefront.example", retenoAccessKey: String = "storefront-sample-key",
                retenoVariant: RetenoVariantId = try! RetenoVariantId("r1105v1480"), language: String = "TR",
                timeout: Duration = .milliseconds(300), maxReplyBytes: Int = VendorSettings.defaultMaxReplyBytes) {
        self.segmentify = segmentify
        self.reteno = reteno
        self.segmentifyApiKey = segmentifyApiKey
        self.segmentifyOrigin = segmentifyOrigin
        self.retenoAccessKey = retenoAccessKey
        self.retenoVariant = retenoVariant
        self.language = language
        self.timeout = timeout
        self.maxReplyBytes = max(1, maxReplyBytes)
    }

    /// Both vendors at one base URL (the stand-in vendor answers both).
    public init(standIn base: URL, timeout: Duration = .milliseconds(300), maxReplyBytes: Int = VendorSettings.defaultMaxReplyBytes) {
        self.init(segmentify: base, reteno: base, timeout: timeout, maxReplyBytes: maxReplyBytes)
    }
}
