import BenchmarkSupport
import Foundation
import RecoKit
import RecoVendors

// Decoding a ~1 MB Segmentify reply into widgets of a caller's model (RecoKit: parse, assemble the
// blocks by the vendor's rule, decode each product leniently, report failures), beside plain
// JSONDecoder decoding the same bytes into equivalent structs. Target: RecoKit within 1.3x of the
// plain decoder's time.
let data = SyntheticReply.make()
let megabytes = Double(data.count) / 1_000_000

// Both must see the same products, or the comparison means nothing.
let plain = try JSONDecoder().decode(PlainEnvelope.self, from: data)
let plainCount = plain.responses.flatMap { $0 }.compactMap(\.params).map { $0.recommendedProducts.values.map(\.count).reduce(0, +) }.reduce(0, +)
let reco = try SegmentifyRecommendations.decode(data).decoded(as: ShopProduct.self)
let recoCount = reco.widgets.map(\.items.count).reduce(0, +)
precondition(reco.report.failures.isEmpty, "RecoKit reported failures: \(reco.report)")
precondition(plainCount == recoCount, "plain decoded \(plainCount) products, RecoKit \(recoCount)")

let baseline = try Measurement.run { _ = try JSONDecoder().decode(PlainEnvelope.self, from: data) }
let recokit = try Measurement.run { _ = try SegmentifyRecommendations.decode(data).decoded(as: ShopProduct.self) }
let parseOnly = try Measurement.run { _ = try JSONValue(parsing: data) }

print("Decoding a \(format(megabytes, decimals: 2)) MB Segmentify reply (\(recoCount) products in \(reco.widgets.count) widgets)")
var table = Table("decoder", "MB/s", "ms/reply", "time vs JSONDecoder")
table.add("JSONDecoder into plain structs", format(megabytes * baseline.operationsPerSecond), format(baseline.secondsPerOperation * 1000, decimals: 2), "1.00x")
table.add("RecoKit: parse only (JSONValue)", format(megabytes * parseOnly.operationsPerSecond), format(parseOnly.secondsPerOperation * 1000, decimals: 2), format(parseOnly.secondsPerOperation / baseline.secondsPerOperation, decimals: 2) + "x")
table.add("RecoKit: widgets of ShopProduct", format(megabytes * recokit.operationsPerSecond), format(recokit.secondsPerOperation * 1000, decimals: 2), format(recokit.secondsPerOperation / baseline.secondsPerOperation, decimals: 2) + "x")
table.print()
let ratio = recokit.secondsPerOperation / baseline.secondsPerOperation
print("target: RecoKit within 1.30x of JSONDecoder's time: \(format(ratio, decimals: 2))x, \(verdict(ratio <= 1.3))")
