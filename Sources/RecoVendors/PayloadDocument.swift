import Foundation
@_spi(JSONTape) import RecoKit

/// A vendor payload's bytes parsed once: read in place through a tape (a ``JSONValue`` tree only
/// for a document too large for a tape), then recognised, and decoded or described without
/// parsing it again. What `recokit decode` and `recokit preview` read a file with, so that a large
/// reply costs little more memory than its bytes.
package struct PayloadDocument: Sendable {
    private enum Root: Sendable {
        case tape(JSONView)
        case tree(JSONValue)
    }

    private let root: Root
    /// How many bytes the document has.
    let byteCount: Int

    /// Parses the bytes.
    /// - Throws: ``PayloadError`` as ``JSONValue/init(parsing:limits:)-(Data,_)`` does.
    package init(parsing data: Data, limits: JSONLimits = .default) throws(PayloadError) {
        byteCount = data.count
        if let tape = try JSONTape.parse(data, limits: limits) {
            root = .tape(tape.root)
        } else {
            root = .tree(try JSONValue(parsing: data, limits: limits))
        }
    }

    /// The kind its shape shows, nil when it matches none (``VendorPayloads/detect(_:)``).
    package var detectedKind: VendorPayloadKind? {
        switch root {
        case .tape(let view): VendorPayloads.detect(node: view)
        case .tree(let tree): VendorPayloads.detect(node: tree)
        }
    }

    /// The kind `vendor` sends of this shape, or the detected one (``VendorPayloads/kind(of:vendor:)``).
    package func kind(vendor: Vendor?) throws(PayloadError) -> VendorPayloadKind {
        switch root {
        case .tape(let view): try VendorPayloads.kind(ofNode: view, vendor: vendor)
        case .tree(let tree): try VendorPayloads.kind(ofNode: tree, vendor: vendor)
        }
    }

    /// Its recommendations (``VendorPayloads/decode(_:vendor:language:variantId:title:limits:)-(Data,_,_,_,_,_)``).
    package func decode(
        vendor: Vendor? = nil, language: String? = nil, variantId: RetenoVariantId? = nil, title: String = "", limits: ReplyLimits = .default
    ) throws(PayloadError) -> Recommendations<RawProduct> {
        switch root {
        case .tape(let view): try VendorPayloads.decode(node: view, vendor: vendor, language: language, variantId: variantId, title: title, limits: limits)
        case .tree(let tree): try VendorPayloads.decode(node: tree, vendor: vendor, language: language, variantId: variantId, title: title, limits: limits)
        }
    }

    /// The Connectif purchase event it is (``ConnectifPurchaseEvent/decode(_:limits:)``).
    func connectifPurchase() throws(PayloadError) -> ConnectifPurchaseEvent {
        switch root {
        case .tape(let view): try ConnectifPurchaseEvent.decode(node: view)
        case .tree(let tree): try ConnectifPurchaseEvent.decode(node: tree)
        }
    }

    /// What a payload that carries no recommendations holds (``VendorPayloads/describe(_:kind:)``).
    /// - Parameter limits: the most bytes a payload of its kind may have; nil for the kind's
    ///   ``VendorPayloadKind/defaultLimits``.
    package func describe(kind: VendorPayloadKind?, limits: JSONLimits? = nil) throws(PayloadError) -> VendorReplyDescription {
        if let kind = kind ?? detectedKind, let error = kind.sizeError(byteCount: byteCount, limits: limits ?? kind.defaultLimits) {
            throw error
        }
        return switch root {
        case .tape(let view): try VendorPayloads.describe(node: view, kind: kind)
        case .tree(let tree): try VendorPayloads.describe(node: tree, kind: kind)
        }
    }
}
