import Foundation

extension Interaction {
    /// Reads an interaction from one JSON object, the line format of `recokit relay`.
    ///
    /// ```json
    /// {"type":"impression","instanceId":"rec_1","interactionId":"act_1","userId":"u1","sessionId":"s1"}
    /// {"type":"widget-view","instanceId":"rec_1","interactionId":"act_1","userId":"u1","sessionId":"s1","lang":"EN"}
    /// {"type":"click","instanceId":"rec_1","productId":"240-LV09","position":3,"userId":"u1","sessionId":"s1"}
    /// {"type":"search-click","phase":"before-search","productId":"240-LV09","userId":"u1","sessionId":"s1"}
    /// {"type":"impression","recomVariantId":"r1107v1482","productId":"240-LV09","forcePush":true}
    /// ```
    ///
    /// Keys: `type` (impression, widget-view, click, search-click; required), `instanceId` or
    /// `recomVariantId`, `interactionId`, `productId`, `position` (integer), `phase` (before-search or
    /// search), `occurred` (ISO 8601 or epoch milliseconds; default now), `forcePush` (bool), and the
    /// context keys `userId`, `sessionId`, `lang`, `currency`, `pageUrl`, `region`, `testMode`, `os`,
    /// `device`, `params` (object). Unknown keys are an error, so a typo is never ignored.
    public init(jsonLine value: JSONValue, now: Date = Date()) throws(InteractionError) {
        guard let object = value.objectValue else { throw .malformed("expected a JSON object, found \(value.kindDescription)") }
        let known: Set<String> = ["type", "instanceId", "recomVariantId", "interactionId", "productId", "position", "phase",
                                  "occurred", "forcePush", "userId", "sessionId", "lang", "currency", "pageUrl", "region",
                                  "testMode", "os", "device", "params"]
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw .malformed("unknown key \"\(unknown)\"")
        }
        func text(_ key: String) throws(InteractionError) -> String? {
            guard let field = object[key], !field.isNull else { return nil }
            guard let string = field.scalarText, field.arrayValue == nil else {
                throw .malformed("\"\(key)\" must be a string, found \(field.kindDescription)")
            }
            return string
        }
        guard let typeName = try text("type") else { throw .malformed("missing \"type\"") }
        guard let kind = Kind(rawValue: typeName), kind != .vendorEvent else {
            throw .malformed("unknown type \"\(typeName)\" (expected impression, widget-view, click or search-click)")
        }
        var phase: SearchPhase?
        if let phaseName = try text("phase") {
            guard let known = SearchPhase(rawValue: phaseName) else {
                throw .malformed("unknown phase \"\(phaseName)\" (expected before-search or search)")
            }
            phase = known
        }
        var position: Int?
        if let field = object["position"], !field.isNull {
            guard let number = field.intValue else { throw .malformed("\"position\" must be an integer") }
            position = number
        }
        var occurred = now
        if let field = object["occurred"], !field.isNull {
            if let millis = field.numberValue?.int {
                occurred = Date(timeIntervalSince1970: Double(millis) / 1000)
            } else if let string = field.stringValue, let date = InteractionTime.parse(string) {
                occurred = date
            } else {
                throw .malformed("\"occurred\" must be ISO 8601 (2024-05-01T12:34:56Z) or epoch milliseconds")
            }
            guard InteractionTime.isTrackable(occurred) else {
                let given = field.numberValue?.text ?? field.stringValue ?? ""
                throw .malformed("\"occurred\" \(given) lies outside \(InteractionTime.trackableText) "
                                 + "(epoch milliseconds 0 to 253402300799999)")
            }
        }
        func flag(_ key: String) throws(InteractionError) -> Bool? {
            guard let field = object[key], !field.isNull else { return nil }
            guard let bool = field.boolValue else { throw .malformed("\"\(key)\" must be true or false") }
            return bool
        }
        var params: [String: JSONValue] = [:]
        if let field = object["params"], !field.isNull {
            guard let members = field.objectValue else { throw .malformed("\"params\" must be an object") }
            params = members
        }
        var context = InteractionContext(params: params)
        context.userId = try text("userId")
        context.sessionId = try text("sessionId")
        context.lang = try text("lang")
        context.currency = try text("currency")
        context.pageUrl = try text("pageUrl")
        context.region = try text("region")
        context.testMode = try flag("testMode")
        context.os = try text("os")
        context.device = try text("device")
        var instanceId = try text("instanceId")
        if instanceId == nil { instanceId = try text("recomVariantId") }
        let interactionId = try text("interactionId") ?? ""
        let productId = try text("productId")
        let forcePush = try flag("forcePush") ?? false
        self.init(kind: kind, instanceId: instanceId ?? "", interactionId: interactionId, productId: productId,
                  position: position, searchPhase: phase, context: context, occurred: occurred, forcePush: forcePush)
    }
}

/// Reads and writes interaction times as ISO 8601 UTC with whole seconds (`2024-05-01T12:34:56Z`).
public enum InteractionTime {
    /// The UTC year, month, day and second of the day of a time in whole seconds since 1970, in the
    /// proleptic Gregorian calendar (civil-from-days): what ``iso8601(_:)`` writes, for writers of their own.
    @inlinable
    public static func calendarFields(secondsSince1970 seconds: Int64) -> (year: Int64, month: Int64, day: Int64, secondOfDay: Int64) {
        var days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        days += 719_468
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        let dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day, secondOfDay)
    }

    /// The times an interaction can be tracked at: 1970-01-01T00:00:00Z through 9999-12-31T23:59:59.999Z,
    /// the four-digit years every vendor's format holds. ``Interaction/checkShape()`` refuses others
    /// (a time in nanoseconds taken for seconds, `Date.distantPast`, a NaN), before they are journaled.
    public static let trackable: ClosedRange<Date> = Date(timeIntervalSince1970: 0)...Date(timeIntervalSince1970: 253_402_300_799.999)

    /// Whether the date lies in ``trackable`` (a NaN time does not: `trackable.contains` would say it
    /// does, since `Date`'s `<=` is `!(>)`).
    public static func isTrackable(_ date: Date) -> Bool {
        let seconds = date.timeIntervalSince1970
        return seconds >= trackable.lowerBound.timeIntervalSince1970 && seconds <= trackable.upperBound.timeIntervalSince1970
    }

    /// ``trackable`` in words, for the errors that refuse a time outside it.
    static let trackableText = "1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z"

    /// `2024-05-01T12:34:56Z` for the date, rounded down to the second. A date no calendar can place (more
    /// than 30 million years away, infinite, NaN) is written as its seconds since 1970.
    public static func iso8601(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        guard abs(seconds) < 1e15 else { return "\(date.timeIntervalSince1970) seconds since 1970" }
        let (year, month, day, secondOfDay) = calendarFields(secondsSince1970: Int64(seconds))
        guard (0...9999).contains(year) else {
            func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
            return "\(year)-\(two(month))-\(two(day))T\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60))Z"
        }
        // The common case, written byte by byte (no interpolated strings): messages and quarantine entries.
        var buffer = [UInt8](repeating: 0, count: 20)
        var index = 0
        func put(_ value: Int64, digits: Int, then separator: Unicode.Scalar) {
            var divisor: Int64 = 1
            for _ in 1..<digits { divisor *= 10 }
            while divisor > 0 {
                buffer[index] = UInt8(ascii: "0") + UInt8(value / divisor % 10)
                index += 1
                divisor /= 10
            }
            buffer[index] = UInt8(ascii: separator)
            index += 1
        }
        put(year, digits: 4, then: "-")
        put(month, digits: 2, then: "-")
        put(day, digits: 2, then: "T")
        put(secondOfDay / 3600, digits: 2, then: ":")
        put(secondOfDay / 60 % 60, digits: 2, then: ":")
        put(secondOfDay % 60, digits: 2, then: "Z")
        return String(decoding: buffer, as: UTF8.self)
    }
}
