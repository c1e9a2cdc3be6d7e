import RecoKit

/// A value met during a render: a ``TemplateValue``, or a JSON value read straight out of a JSON object.
///
/// JSON data (how vendor products arrive) is rendered as it is, never converted to ``TemplateValue`` on
/// the way: a member found in a JSON object stays a `JSONValue`, an array is repeated over in place, and
/// an object becomes a scope whose members are looked up directly. Both kinds behave exactly as
/// `TemplateValue(json)` would.
enum RenderValue {
    case template(TemplateValue)
    case json(JSONValue)

    /// Whether a section shows its content for this value (see ``TemplateValue/isTruthy``).
    var isTruthy: Bool {
        switch self {
        case .template(let value): value.isTruthy
        case .json(.null): false
        case .json(.bool(let flag)): flag
        case .json(.string(let text)): !text.isEmpty
        case .json(.array(let elements)): !elements.isEmpty
        case .json(.number), .json(.object): true
        }
    }

    /// The text when this is a string, for dynamic partial names.
    var string: String? {
        switch self {
        case .template(.string(let text)), .json(.string(let text)): text
        default: nil
        }
    }


    /// The value at the rest of a dotted name (its parts after the first) inside this one.
    func descending(_ parts: [String]) -> RenderValue? {
        var current = self
        for part in parts.dropFirst() {
            guard let next = current.member(part) else { return nil }
            current = next
        }
        return current
    }

    /// The value at `key` inside this one (for the second and later parts of a dotted name).
    func member(_ key: String) -> RenderValue? {
        switch self {
        case .template(.context(let context)): context.value(forKey: key).map(RenderValue.template)
        case .json(.object(let members)): members[key].map(RenderValue.json)
        default: nil
        }
    }
}

/// One object of the context stack below the innermost JSON object, where names are looked up: where the
/// renderer keeps it. (An index, so that reading a scope copies no dictionary or existential.)
enum Scope {
    /// A JSON object, at this index of the renderer's JSON objects (``JSONScope``): members are read from
    /// its dictionary, with no conversion.
    case object(Int)
    /// Any other object, at this index of the renderer's contexts.
    case context(Int)
}
