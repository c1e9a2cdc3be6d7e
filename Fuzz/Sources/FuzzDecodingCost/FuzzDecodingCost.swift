import Foundation
import FuzzSupport
import RecoKit
import RecoVendors

/// What `recokit decode` does with a vendor's reply (every vendor's recommendations: the shape chooses
/// the decoder, as there), with its cost measured: the heap allocations that decoding, choosing the
/// products (`decoded(as:)`) and describing the report make, counted by the address sanitizer's hook
/// (``AllocationCount``), the same on every run of an input. The cost must stay within
/// ``allocationsPerByte`` for each byte of the reply, plus ``fixedAllocations``: an input that costs
/// more fails as a crash does (``fuzzCheck``), kept under `Fuzz/.build/failing-inputs/` with its figures.
/// This is the deterministic form of libFuzzer's `-timeout`, which stays as the backstop: a decoder whose
/// cost grows faster than its reply (each item walking a shared list again, every product passed over
/// a new notice) fails on an input of a few kilobytes, long before it is slow enough to time out.
///
/// Cost-guided: libFuzzer keeps an input that reaches new coverage, and ``reward(_:)`` turns the share
/// of the allowance an input used into coverage, so inputs that cost more per byte than any before join
/// the corpus and the mutations climb towards the bound. Seeds: `Fuzz/Corpus/FuzzDecodingCost` (the
/// shapes of issue 40, scaled to the input size), `Samples/Payloads`, `Fuzz/Corpus/SmallPayloads`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecodingCost(_ pointer: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let data = FuzzInput(pointer, size).data
    let (_, allocations) = AllocationCount.counting { () -> Int in
        guard let reply = try? VendorPayloads.decode(data) else { return 0 }
        let products = reply.decoded(as: RawProduct.self)
        return products.widgets.count + reply.report.description.utf8.count
    }
    let allowance = allocationsPerByte * size + fixedAllocations
    if printCost { print("FuzzDecodingCost: \(size) bytes, \(allocations) allocations (allowance \(allowance))") }
    reward(min(255, allocations * 128 / allowance))
    fuzzCheck(allocations <= allowance,
              "slow input: decoding \(size) bytes made \(allocations) allocations, over the linear allowance \(allowance) "
                  + "(\(allocationsPerByte) a byte + \(fixedAllocations))")
    return 0
}

/// `FUZZ_PRINT_COST=1`: print each input's size and allocations (to see the figures of a corpus, with `-runs=0`).
let printCost = ProcessInfo.processInfo.environment["FUZZ_PRINT_COST"] == "1"

/// Allocations allowed for each byte of the reply: each product made, and each failure or notice
/// counted beyond those listed, costs a few. The densest reply for its bytes (a list of `1`, two bytes an
/// entry, each a failure counted) makes about 1.5 a byte under the linear decoder.
let allocationsPerByte = 4

/// Allocations allowed for any reply, whatever its size: the decoder's own set-up and the type metadata
/// Swift makes on first use (2,000), and the entries the report lists, at most ``DecodingReport/mostListed``
/// failures and as many notices, each with its words and path (about 11 allocations an entry; 16 allowed).
/// They are bounded whatever the reply, so they belong here: per byte, 1,000 entries `1` listed (the seed
/// `entries-listed.json`, 2,205 bytes, about 11,000 allocations) would fail a linear decoder if counted by the byte.
let fixedAllocations = 2_000 + 16 * 2 * DecodingReport.mostListed

/// Runs one edge of the coverage map `level` times (at most 255: libFuzzer counts hits in a byte).
/// libFuzzer sorts hit counts into buckets (1, 2, 3, 4-7, 8-15, ... 128-255), each a coverage feature of
/// its own, so an input that uses a larger share of its allowance than any before is new coverage.
/// Not optimized, so that the loop stays a loop.
@_optimize(none)
func reward(_ level: Int) {
    var step = 0
    while step < level { step += 1 }
}

/// Installs the allocation hook before the first input, and decodes a reply of each vendor once, so
/// that the type metadata made on first use is not counted against the first inputs.
@_cdecl("LLVMFuzzerInitialize")
public func installAllocationCount(_ argc: UnsafeMutablePointer<CInt>?,
                                   _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?) -> CInt {
    guard AllocationCount.install() else {
        FileHandle.standardError.write(Data("FuzzDecodingCost: no allocation hook (built without the address sanitizer?)\n".utf8))
        exit(1)
    }
    for warmUp in [#"{"recoms":[{"productId":"1"}]}"#,
                   #"{"statusCode":"SUCCESS","responses":[[{"type":"recommendProducts","params":{"instanceId":"b","actionId":"a","dynamicItems":"[{\"recommendationSource\":\"S\",\"itemCount\":1}]","recommendedProducts":{"S":[{"productId":"1"},{}]}}}]]}"#,
                   #"{"search":[[{"type":"search"}]]}"#] {
        if let reply = try? VendorPayloads.decode(Data(warmUp.utf8)) { _ = reply.decoded(as: RawProduct.self); _ = reply.report.description }
    }
    return 0
}
