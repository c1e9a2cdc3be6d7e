import Foundation
import RecoKit

/// Reads the fields of one event object, naming each field it refuses (`productView.price`), and
/// remembers which keys it read so that an unknown key is reported instead of dropped.
struct SegmentifyEventObject {
    let fields: [String: JSONValue]
    let prefix: String
    private var read: Set<String>

    /// `nested` objects (a checkout's products) have no `name` key.
    init(_ fields: [String: JSONValue], prefix: String, nested: Bool = false) {
        self.fields = fields
        self.prefix = prefix
        self.read = nested ? [] : ["name"]
    }

    private func field(_ key: String) -> String { "\(prefix).\(key)" }

    private mutating func value(_ key: String) -> JSONValue? {
        read.insert(key)
        guard let value = fields[key], !value.isNull else { return nil }
        return value
    }

    /// A string (a number is read as its literal text, as ids often are).
    mutating func string(_ key: String) throws(SegmentifyEventError) -> String? {
        guard let value = value(key) else { return nil }
        switch value {
        case .string(let text): return text
        case .number(let number): return number.text
        default: throw .invalid(field(key), must: "be a string", got: value.description)
        }
    }

    mutating func required(_ key: String) throws(SegmentifyEventError) -> String {
        guard let text = try string(key) else { throw .missing(field(key)) }
        return text
    }

    /// A number or a string holding one (the guide's own examples send `"price":"78"`).
    mutating func decimal(_ key: String, rule: String = "be a number ≥ 0") throws(SegmentifyEventError) -> Decimal? {
        guard let value = value(key) else { return nil }
        guard case .number = value, let decimal = value.decimalValue else {
            if case .string = value, let decimal = value.decimalValue { return decimal }
            throw .invalid(field(key), must: rule, got: value.description)
        }
        return decimal
    }

    mutating func requiredDecimal(_ key: String) throws(SegmentifyEventError) -> Decimal {
        guard let decimal = try decimal(key) else { throw .missing(field(key)) }
        return decimal
    }

    /// A whole number or a string holding one.
    mutating func int(_ key: String, rule: String) throws(SegmentifyEventError) -> Int? {
        guard let value = value(key) else { return nil }
        guard let int = value.intValue else { throw .invalid(field(key), must: rule, got: value.description) }
        return int
    }

    /// `true`/`false`, or the strings `"true"`/`"false"` (the guide writes flags both ways).
    mutating func bool(_ key: String) throws(SegmentifyEventError) -> Bool? {
        guard let value = value(key) else { return nil }
        switch value {
        case .bool(let flag): return flag
        case .string("true"): return true
        case .string("false"): return false
        default: throw .invalid(field(key), must: "be true or false", got: value.description)
        }
    }

    mutating func strings(_ key: String) throws(SegmentifyEventError) -> [String]? {
        guard let value = value(key) else { return nil }
        guard let array = value.arrayValue else { throw .invalid(field(key), must: "be an array of strings", got: value.description) }
        var texts: [String] = []
        for (index, element) in array.enumerated() {
            guard let text = element.stringValue else {
                throw .invalid("\(field(key))[\(index)]", must: "be a string", got: element.description)
            }
            texts.append(text)
        }
        return texts
    }

    mutating func object(_ key: String) throws(SegmentifyEventError) -> [String: JSONValue]? {
        guard let value = value(key) else { return nil }
        guard let object = value.objectValue else { throw .invalid(field(key), must: "be an object", got: value.description) }
        return object
    }

    mutating func array(_ key: String) throws(SegmentifyEventError) -> [JSONValue]? {
        guard let value = value(key) else { return nil }
        guard let array = value.arrayValue else { throw .invalid(field(key), must: "be an array", got: value.description) }
        return array
    }

    /// One of an enumeration's raw values; the error lists them.
    mutating func choice<T: RawRepresentable & CaseIterable>(_ key: String, _ type: T.Type) throws(SegmentifyEventError) -> T?
    where T.RawValue == String {
        guard let text = try string(key) else { return nil }
        guard let choice = T(rawValue: text) else {
            let values = T.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            throw .invalid(field(key), must: "be one of \(values)", got: SegmentifyFieldRules.quoted(text))
        }
        return choice
    }

    /// The common fields, read from the same object.
    mutating func common() throws(SegmentifyEventError) -> SegmentifyCommonFields {
        var common = SegmentifyCommonFields(userId: try required("userId"), sessionId: try required("sessionId"))
        common.lang = try string("lang")
        common.currency = try string("currency")
        common.pageUrl = try string("pageUrl")
        common.testMode = try bool("testMode")
        common.region = try string("region")
        common.os = try string("os")
        common.device = try string("device")
        common.sdkVersion = try string("sdkVersion")
        common.appVersion = try string("appVersion")
        common.params = try object("params") ?? [:]
        return common
    }

    /// Refuses the first key that was never read.
    func finish() throws(SegmentifyEventError) {
        if let unknown = fields.keys.sorted().first(where: { !read.contains($0) }) {
            throw .conflict(field(unknown), "is not a field of this event in Segmentify's guide")
        }
    }
}
