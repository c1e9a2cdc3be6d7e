import Foundation

/// Whether a Segmentify search reply answers the search box before the visitor typed a query, or a
/// query.
///
/// Decided from the campaign's identity (`campaign.instanceId`), as the vendor's guide tells
/// integrators to decide a search click's instanceId: `BEFORE_SEARCH` is before search, `SEARCH` is
/// after search (compared ignoring case).
public enum SegmentifySearchPhase: String, Hashable, Sendable, CustomStringConvertible {
    /// The campaign `BEFORE_SEARCH`: popular products shown before a query is typed.
    case beforeSearch
    /// The campaign `SEARCH`: results for the typed query.
    case afterSearch

    /// The instanceId a click on one of the products must carry: `bs_product` before search, `product`
    /// after search (the interactionId of that click is the productId).
    public var clickInstanceId: String {
        switch self {
        case .beforeSearch: "bs_product"
        case .afterSearch: "product"
        }
    }

    /// The campaign identity Segmentify sends for this phase.
    public var campaignIdentity: String {
        switch self {
        case .beforeSearch: "BEFORE_SEARCH"
        case .afterSearch: "SEARCH"
        }
    }

    /// The phase of a campaign identity, nil when it is neither `BEFORE_SEARCH` nor `SEARCH`.
    public init?(campaignIdentity: String) {
        switch campaignIdentity.uppercased() {
        case "BEFORE_SEARCH": self = .beforeSearch
        case "SEARCH": self = .afterSearch
        default: return nil
        }
    }

    public var description: String { rawValue }
}

/// The texts of a search campaign in one language (`stringSearchAssetTextMap["EN"]`).
public struct SegmentifySearchTexts: Hashable, Sendable {
    /// Every text of the language, by name, as sent (strings only).
    public var all: [String: String]

    public init(all: [String: String]) { self.all = all }

    /// The title over popular products shown before search.
    public var popularProductsText: String? { all["popularProductsText"] }
    /// The label of the cancel button on mobile.
    public var mobileCancelText: String? { all["mobileCancelText"] }
    /// The text shown when a query finds nothing.
    public var notFoundText: String? { all["notFoundText"] }
    /// Any other text by its name.
    public subscript(name: String) -> String? { all[name] }
}

/// The search campaign of a Segmentify search reply (`search[0][0].campaign`).
///
/// Numbers are read from numbers or numeric strings; a field of an unexpected type is left nil and
/// kept in ``raw``. Unknown keys are kept in ``raw`` too.
public struct SegmentifySearchCampaign: Hashable, Sendable {
    /// The campaign identity: `BEFORE_SEARCH` or `SEARCH`.
    public var instanceId: String
    /// Before or after search, from ``instanceId``.
    public var phase: SegmentifySearchPhase
    /// The campaign's name.
    public var name: String?
    /// `ACTIVE`, `TEST`, ….
    public var status: String?
    /// The devices the campaign runs on: a string is split at commas (`"PC,MOBILE"`), an array kept.
    public var devices: [String]
    /// How long to wait, in milliseconds, after a keystroke before sending the search event.
    public var searchDelay: Int?
    /// How many characters must be typed before a search event is sent.
    public var minCharacterCount: Int?
    /// The shop's search URL prefix.
    public var searchUrlPrefix: String?
    /// The most products to show on mobile (the toolkit does not cut the list; renderers may).
    public var mobileItemCount: Int?
    /// The texts by language (`stringSearchAssetTextMap`).
    public var texts: [String: SegmentifySearchTexts]
    /// The campaign object as sent.
    public var raw: JSONValue

    /// The texts for a language: the exact key first, then ignoring case; nil when there are none.
    public func texts(for language: String) -> SegmentifySearchTexts? {
        if let exact = texts[language] { return exact }
        return texts.keys.sorted().first { $0.uppercased() == language.uppercased() }.flatMap { texts[$0] }
    }

    /// Reads the campaign at `path`.
    /// - Throws: ``PayloadError`` when the campaign is not an object, has no `instanceId`, or its
    ///   instanceId is neither `BEFORE_SEARCH` nor `SEARCH` (a search click's instanceId could not be chosen).
    init(_ json: JSONValue, at path: JSONPath) throws(PayloadError) {
        guard case .object(let members) = json else { throw .typeMismatch(expected: "a search campaign object", found: json, at: path) }
        guard let identity = members["instanceId"] else { throw .missingKey("instanceId", at: path) }
        guard case .string(let instanceId) = identity else {
            throw .typeMismatch(expected: "a string", found: identity, at: path.appending(key: "instanceId"))
        }
        guard let phase = SegmentifySearchPhase(campaignIdentity: instanceId) else {
            throw .invalidValue("the search campaign \"\(instanceId.shortened(to: String.quotedCodeLength))\" is neither BEFORE_SEARCH nor SEARCH, so a search click's instanceId cannot be chosen", at: path.appending(key: "instanceId"))
        }
        self.instanceId = instanceId
        self.phase = phase
        name = members["name"]?.stringValue
        status = members["status"]?.stringValue
        switch members["devices"] {
        case .string(let list)?: devices = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        case .array(let list)?: devices = list.compactMap(\.scalarText)
        default: devices = []
        }
        searchDelay = members["searchDelay"]?.intValue
        minCharacterCount = members["minCharacterCount"]?.intValue
        searchUrlPrefix = members["searchUrlPrefix"]?.stringValue
        mobileItemCount = members["mobileItemCount"]?.intValue
        var texts: [String: SegmentifySearchTexts] = [:]
        if case .object(let byLanguage)? = members["stringSearchAssetTextMap"] {
            for (language, value) in byLanguage {
                guard case .object(let entries) = value else { continue }
                texts[language] = SegmentifySearchTexts(all: entries.compactMapValues(\.stringValue))
            }
        }
        self.texts = texts
        raw = json
    }
}
