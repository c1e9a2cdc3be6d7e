import FuzzSupport
import RecoKit

/// The JSON parser over any bytes: it must answer a value or a `PayloadError`, never crash, and a value
/// it answers must come back unchanged through the writer (`description`) and the parser.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ pointer: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(pointer, size)
    guard let value = try? JSONValue(parsing: input.data) else { return 0 }
    let written = value.description
    do {
        let again = try JSONValue(parsing: written)
        fuzzCheck(again == value, "the written JSON parses to another value: \(written.prefix(200))")
    } catch {
        fuzzCheck(false, "the writer's JSON does not parse: \(error)")
    }
    _ = try? JSONValue(parsing: input.text)
    return 0
}
