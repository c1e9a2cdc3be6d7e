import Foundation
import FuzzSupport
import RecoKit
import RecoVendors

private let now = Date(timeIntervalSince1970: 1_790_000_000)

/// One line of `recokit relay`'s input, read as the relay reads it (RecoKitCLI's `RelayLine`): an
/// interaction line (`Interaction(jsonLine:now:)`), a Segmentify event object, or an array of them
/// (`SegmentifyEventReader`). Each object is also tried by the other reader. Every outcome is an
/// interaction or an error naming the field.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRelayLine(_ pointer: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let line = FuzzInput(pointer, size).text
    guard let json = try? JSONValue(parsing: line) else { return 0 }
    let objects = json.arrayValue ?? [json]
    for object in objects {
        if let interaction = try? SegmentifyEventReader.interaction(from: object, occurred: now) { _ = "\(interaction)" }
        if let interaction = try? Interaction(jsonLine: object, now: now) { _ = "\(interaction)" }
    }
    return 0
}
