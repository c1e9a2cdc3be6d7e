/// A value a template can show: text, a number, a yes/no, a list to repeat a section over, or an object
/// whose keys are looked up on demand.
///
/// ```swift
/// let value = TemplateValue.object(["title": "For you", "products": .list([.object(["name": "Lamp"])])])
/// try Template("{{title}}: {{#products}}{{name}}{{/products}}").render(value)   // "For you: Lamp"
/// ```
public enum TemplateValue: Sendable {
    /// Nothing: renders as empty text, and counts as false in a section.
    case null
    /// A yes/no: `{{#flag}}` shows its section when true; `{{flag}}` writes `true`/`false`.
    case bool(Bool)
    /// Text. An empty string counts as false in a section.
    case string(String)
    /// A number, written as its literal text (`349.90` stays `349.90`).
    case number(JSONNumber)
    /// A list: a section repeats once per element; an empty list counts as false.
    case list([TemplateValue])
    /// An object: its keys are looked up lazily through ``TemplateContext``.
    indirect case context(any TemplateContext)
}

/// An object whose keys are looked up on demand, so a renderer can compute values such as `position` or
/// `displayPrice` lazily, without building dictionaries.
///
/// ```swift
/// struct Greeting: TemplateContext {
///     let name: String
///     func value(forKey key: String) -> TemplateValue? {
///         key == "name" ? .string(name) : nil
///     }
/// }
/// ```
public protocol TemplateContext: Sendable {
    /// The value for `key`, or nil when this context does not have it (lookup then continues down the
    /// context stack, as Mustache says).
    func value(forKey key: String) -> TemplateValue?
}

extension TemplateValue {
    /// The template view of a JSON value: objects become contexts (members looked up by key, nothing copied),
    /// arrays become lists, numbers keep their literal text.
    public init(_ json: JSONValue) {
        switch json {
        case .null: self = .null
        case .bool(let value): self = .bool(value)
        case .number(let value): self = .number(value)
        case .string(let value): self = .string(value)
        case .array(let elements): self = .list(elements.map(TemplateValue.init))
        case .object: self = .context(json)
        }
    }

    /// An object made of fixed members (handy for small views and tests).
    public static func object(_ members: [String: TemplateValue]) -> TemplateValue {
        .context(TemplateObject(members))
    }

    /// Whether a section shows its content for this value: false for null, `false`, an empty string and an
    /// empty list; true for everything else (numbers included, even zero).
    public var isTruthy: Bool {
        switch self {
        case .null: false
        case .bool(let value): value
        case .string(let value): !value.isEmpty
        case .list(let elements): !elements.isEmpty
        case .number, .context: true
        }
    }

    /// The text `{{name}}` writes for this value: strings as they are, numbers as written, booleans as
    /// `true`/`false`; nothing for null, lists and objects.
    public var text: String {
        switch self {
        case .string(let value): value
        case .number(let value): value.text
        case .bool(let value): value ? "true" : "false"
        case .null, .list, .context: ""
        }
    }
}

extension TemplateValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByNilLiteral
{
    /// A string value.
    public init(stringLiteral value: String) { self = .string(value) }
    /// A number value.
    public init(integerLiteral value: Int) { self = .number(JSONNumber(value)) }
    /// A yes/no value.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// A list value.
    public init(arrayLiteral elements: TemplateValue...) { self = .list(elements) }
    /// The null value.
    public init(nilLiteral: ()) { self = .null }
}

/// A context with fixed members, for small views built by hand.
public struct TemplateObject: TemplateContext {
    /// The members, by key.
    public let members: [String: TemplateValue]

    /// Makes a context with these members.
    public init(_ members: [String: TemplateValue]) { self.members = members }

    /// The member with this key.
    public func value(forKey key: String) -> TemplateValue? { members[key] }
}

extension JSONValue: TemplateContext {
    /// The object member with this key, as a template value; nil for other kinds of JSON value.
    public func value(forKey key: String) -> TemplateValue? {
        guard case .object(let members) = self, let member = members[key] else { return nil }
        return TemplateValue(member)
    }
}
