import FuzzSupport
@_spi(JSONTape) import RecoKit

/// The JSON parser over any bytes: it must answer a value or a `PayloadError`, never crash, and a value
/// it answers must come back unchanged through the writer (`description`) and the parser. The tape (what
/// decoders read replies from) must accept exactly what the tree parser accepts, with the same value,
/// and refuse the rest with the same error.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ pointer: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(pointer, size)
    let tree = Result { () throws(PayloadError) in try JSONValue(parsing: input.data) }
    let tape = Result { () throws(PayloadError) in try JSONTape.parse(input.data)?.root.value }
    switch (tree, tape) {
    case (.success(let value), .success(let read)): fuzzCheck(read == nil || read == value, "the tape reads another value than the tree")
    case (.failure(let error), .failure(let other)): fuzzCheck(error == other, "the tape's error differs: \(other) / \(error)")
    case (.success, .failure(let error)): fuzzCheck(false, "the tape refuses what the tree accepts: \(error)")
    case (.failure(let error), .success): fuzzCheck(false, "the tape accepts what the tree refuses: \(error)")
    }
    guard case .success(let value) = tree else { return 0 }
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
