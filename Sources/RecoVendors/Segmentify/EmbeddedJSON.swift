extension JSONValue {
    /// Reads a value that Segmentify sends as JSON encoded inside a string (`dynamicItems`,
    /// `staticItems`, `notificationTitleMap`), accepting the value itself too.
    ///
    /// - Returns: nil for null, an empty string or a string of white space; otherwise the value and its
    ///   path (for a string, the string's path followed by the `(json)` marker).
    /// - Throws: ``PayloadError`` for invalid embedded JSON, with the path continuing inside the string
    ///   (`$.responses[0][0].params.dynamicItems(json)[1]`) and the line and column in the string.
    static func embeddedJSON(_ value: JSONValue?, at path: JSONPath) throws(PayloadError) -> (value: JSONValue, path: JSONPath)? {
        switch value {
        case nil, .null?:
            return nil
        case .string(let text)?:
            if text.allSatisfy(\.isWhitespace) { return nil }
            let inner = path.appendingEmbeddedJSON()
            do {
                return (try JSONValue(parsing: text), inner)
            } catch {
                throw error.nested(under: inner)
            }
        case let other?:
            return (other, path)
        }
    }
}
