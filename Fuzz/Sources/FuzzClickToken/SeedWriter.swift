import Foundation
import FuzzSupport
import RecoKit
import StorefrontCore

/// Writes the seed corpus (Fuzz/Corpus/FuzzClickToken/) when `FUZZ_WRITE_SEEDS` names a directory, then
/// exits: tokens and cookies signed with this target's fixed key and clock, so that the fuzzer starts from
/// texts the verifier accepts, and from near misses (another key, expired, changed, badly spelled).
///
///     FUZZ_WRITE_SEEDS=Fuzz/Corpus/FuzzClickToken "$(swift build -c release -Xswiftc -sanitize=fuzzer,address \
///         --show-bin-path)/FuzzClickToken" -runs=0
@_cdecl("LLVMFuzzerInitialize")
public func writeSeedsIfAsked(_ argc: UnsafeMutablePointer<CInt>?,
                              _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?) -> CInt {
    writeCorpusIfAsked(target: "FuzzClickToken") { seeds().map { ($0, Array($1.utf8)) } }
}

private func seeds() -> [(String, String)] {
    let product = ClickToken(vendor: .segmentify, instanceId: "scn_60a7", interactionId: "act_15f2", productId: "p-1042",
                             position: 3, destination: "https://shop.example/products/p-1042?ref=reco", expires: now)
    var local = product
    local.vendor = .reteno
    local.destination = "/products/p-7"
    var odd = product
    odd.instanceId = "1:a.b&c=d"
    odd.interactionId = "ünïcode ✓"
    odd.position = -1
    let expired = ClickTokens(key: key, lifetime: lifetime, now: { now.addingTimeInterval(-7200) }).issue(product)
    let genuine = tokens.issue(product)
    let visitorId = "0123456789abcdef0123456789abcdef"
    return [
        ("token-product", genuine),
        ("token-local-path", tokens.issue(local)),
        ("token-separators-in-ids", tokens.issue(odd)),
        ("token-expired", expired),
        ("token-other-key", otherTokens.issue(product)),
        ("token-tag-cut", String(genuine.dropLast(2))),
        ("token-two-dots", genuine + ".AA"),
        ("token-padded", genuine + "=="),
        ("token-no-tag", String(genuine.prefix { $0 != "." }) + "."),
        ("cookie-visitor", cookies.value(for: visitorId, kind: .visitor)),
        ("cookie-session", cookies.value(for: "fedcba9876543210fedcba9876543210", kind: .session)),
        ("cookie-other-key", VisitorCookies(key: otherKey).value(for: visitorId, kind: .visitor)),
        ("cookie-zeros", String(repeating: "0", count: 32) + "." + String(repeating: "A", count: 43)),
        ("cookie-uppercase-id", cookies.value(for: visitorId, kind: .visitor).uppercased()),
        ("fields-to-sign", "scn_1\nact_1\np1\n2\nhttps://shop.example/p/1"),
        ("fields-to-sign-bad-destination", "scn_1\nact_1\np1\n2\n//evil.example/"),
    ]
}
