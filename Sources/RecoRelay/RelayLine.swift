import Foundation
import RecoKit
import RecoVendors

/// What one line of `recokit relay`'s input holds: an interaction in RecoKit's JSON-line format
/// (``Interaction/init(jsonLine:now:)``), or, for Segmentify, an event object as apps send it
/// (`{"name":"PRODUCT_VIEW",…}`, read by ``SegmentifyEventReader``), or a JSON array of those (the body
/// of Segmentify's `/add/events`). A line is taken whole or not at all: one bad event in an array
/// rejects the line, and nothing of it is journaled.
enum RelayLine {
    /// The interactions of one line, for the vendor named by `--vendor`.
    /// - Throws: the parser's error for malformed JSON, the reader's naming the field for a bad event.
    static func interactions(from line: String, vendor: String) throws -> [Interaction] {
        let json = try JSONValue(parsing: line)
        switch json {
        case .array(let events):
            guard vendor == "segmentify" else { throw RelayLineError("an array of Segmentify events, but --vendor is \(vendor)") }
            guard !events.isEmpty else { throw RelayLineError("an empty array: no event") }
            var interactions: [Interaction] = []
            for (index, event) in events.enumerated() {
                do {
                    interactions.append(try SegmentifyEventReader.interaction(from: event))
                } catch {
                    throw RelayLineError("event \(index + 1) of \(events.count): \(error)")
                }
            }
            return interactions
        case .object(let fields) where fields["name"] != nil:
            guard vendor == "segmentify" else { throw RelayLineError("a Segmentify event object, but --vendor is \(vendor)") }
            return [try SegmentifyEventReader.interaction(from: json)]
        default:
            return [try Interaction(jsonLine: json)]
        }
    }
}

/// Why a relay line was not taken, when neither the parser nor a reader says it.
struct RelayLineError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
