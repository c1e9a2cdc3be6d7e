/// A product that did not decode: which one, where it is in the payload, and why.
///
/// Decoding never fails a whole response for one bad product, and never drops one in silence: the
/// products that decoded are returned, and each one that did not becomes a `ProductFailure` in the
/// ``DecodingReport``.
public struct ProductFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// The product's 0-based index in its block as the vendor sent it.
    public var index: Int
    /// The product's id, when it could be read.
    public var productId: String?
    /// The block (widget) the product belongs to, when there is one.
    public var instanceId: String?
    /// Where the failure is: the product's path in the payload, followed by the field's path.
    public var path: JSONPath
    /// What was wrong, in words.
    public var reason: String

    public init(index: Int, productId: String?, instanceId: String?, path: JSONPath, reason: String) {
        self.index = index
        self.productId = productId
        self.instanceId = instanceId
        self.path = path
        self.reason = reason
    }

    /// A failure from a `DecodingError` thrown while decoding the product at `productPath`.
    public init(index: Int, productId: String?, instanceId: String?, productPath: JSONPath, error: any Error) {
        var path = productPath
        let reason: String
        switch error {
        case DecodingError.keyNotFound(let key, let context):
            path = path.appending(JSONPath(codingPath: context.codingPath)).appending(key: key.stringValue)
            reason = "missing required key \"\(key.stringValue)\""
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context), DecodingError.dataCorrupted(let context):
            path = path.appending(JSONPath(codingPath: context.codingPath))
            reason = context.debugDescription
        case let payload as PayloadError:
            path = path.appending(payload.path)
            reason = payload.message
        default:
            reason = String(describing: error)
        }
        self.init(index: index, productId: productId, instanceId: instanceId, path: path, reason: reason)
    }

    public var description: String {
        var text = "product \(index)"
        if let productId { text += " (\(productId))" }
        if let instanceId { text += " of \(instanceId)" }
        return text + ": \(reason) at \(path)"
    }
}
