import Foundation
import FuzzSupport
import StorefrontCore

/// A widget-view beacon's form (`POST /beacon`), read by `BeaconForm.parse`: the input as the body with no
/// query and, split at its first newline, as query and body. Every outcome is a form or a refusal; a form
/// names a non-empty instance id, both ids within the field limit, and reads back the same from the ids
/// written out again percent-encoded (in the body, and in the query).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBeacon(_ pointer: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(pointer, size)
    check(BeaconForm.parse(query: nil, body: Array(input.data)))
    let (query, body) = input.split(at: UInt8(ascii: "\n"))
    check(BeaconForm.parse(query: String(decoding: query, as: UTF8.self), body: Array(body)))
    return 0
}

private func check(_ result: Result<BeaconForm, BeaconForm.Refusal>) {
    guard case .success(let form) = result else { return }
    fuzzCheck(!form.instanceId.isEmpty, "a form with an empty instanceId was accepted")
    fuzzCheck(form.instanceId.utf8.count <= BeaconForm.maxFieldBytes && form.interactionId.utf8.count <= BeaconForm.maxFieldBytes,
              "an id over \(BeaconForm.maxFieldBytes) bytes was accepted: \(form)")
    let written = "instanceId=\(percentEncoded(form.instanceId))&interactionId=\(percentEncoded(form.interactionId))"
    let again = BeaconForm.parse(query: nil, body: Array(written.utf8))
    fuzzCheck(again == .success(form), "the form written out again reads as \(again), not \(form): \(written)")
    let inQuery = BeaconForm.parse(query: written, body: [])
    fuzzCheck(inQuery == .success(form), "the form written in the query reads as \(inQuery), not \(form): \(written)")
}

/// Form encoding: letters, digits and `-._~` as they are, every other UTF-8 byte as `%XX`.
private func percentEncoded(_ text: String) -> String {
    let hex = Array("0123456789ABCDEF".utf8)
    var out: [UInt8] = []
    for byte in text.utf8 {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            out.append(byte)
        default:
            out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
        }
    }
    return String(decoding: out, as: UTF8.self)
}
