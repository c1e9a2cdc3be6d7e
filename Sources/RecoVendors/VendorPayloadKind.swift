/// The kinds of vendor payload RecoKit reads (see ``VendorPayloads/detect(_:)``).
public enum VendorPayloadKind: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// A Segmentify recommendation reply (`{"statusCode":…,"responses":[[…]]}`), or its error envelope.
    case segmentifyRecommendations
    /// A Segmentify search reply (`{"search":[[{"products":…,"campaign":…}]]}`).
    case segmentifySearch
    /// A Segmentify key reply (`["<userId>","<sessionId>"]`).
    case segmentifyKeys
    /// A Reteno getRecoms reply (`{"recoms":[…]}`).
    case retenoRecommendations
    /// A Bloomreach real-time segments answer (`{"discovery":[…],"merchandising":[…],"content":[…]}`).
    case bloomreachSegments
    /// A Connectif purchase event (`{"type":"purchase","purchase":{…},"context":{…}}`).
    case connectifPurchase
    /// An 8digits API reply (`{"result":{"code":0},"data":…}`).
    case eightDigitsReply

    /// The vendor that sends this kind.
    public var vendor: Vendor {
        switch self {
        case .segmentifyRecommendations, .segmentifySearch, .segmentifyKeys: .segmentify
        case .retenoRecommendations: .reteno
        case .bloomreachSegments: .bloomreach
        case .connectifPurchase: .connectif
        case .eightDigitsReply: .eightDigits
        }
    }

    /// Whether payloads of this kind hold recommendation widgets (``VendorPayloads/decode(_:vendor:language:variantId:title:limits:)-(Data,_,_,_,_,_)``);
    /// the others are described by ``VendorPayloads/describe(_:kind:)``.
    public var carriesRecommendations: Bool {
        switch self {
        case .segmentifyRecommendations, .segmentifySearch, .retenoRecommendations: true
        case .segmentifyKeys, .bloomreachSegments, .connectifPurchase, .eightDigitsReply: false
        }
    }

    /// The kind in words: "a Bloomreach segments answer".
    public var title: String {
        switch self {
        case .segmentifyRecommendations: "a Segmentify recommendation reply"
        case .segmentifySearch: "a Segmentify search reply"
        case .segmentifyKeys: "a Segmentify key reply"
        case .retenoRecommendations: "a Reteno recommendation reply"
        case .bloomreachSegments: "a Bloomreach segments answer"
        case .connectifPurchase: "a Connectif purchase event"
        case .eightDigitsReply: "an 8digits reply"
        }
    }

    public var description: String { rawValue }
}
