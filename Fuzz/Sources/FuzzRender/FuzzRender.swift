import Foundation
import FuzzSupport
import RecoKit
import RecoTemplates
import RecoVendors

private let renderer = WidgetRenderer(defaultCurrency: "EUR")
private let names = BuiltInTemplates.sources.keys.sorted()

/// A vendor reply from the fuzzer rendered through every built-in template: hostile names, links,
/// prices and ids must come out escaped or refused, never crash the renderer.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRender(_ pointer: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let data = FuzzInput(pointer, size).data
    guard let reply = try? VendorPayloads.decode(data) else { return 0 }
    for name in names {
        _ = try? renderer.render(reply.widgets, template: name)
    }
    return 0
}
