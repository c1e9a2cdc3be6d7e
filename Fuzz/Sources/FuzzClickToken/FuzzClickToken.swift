import Foundation
import FuzzSupport
import RecoKit
import StorefrontCore

/// The storefront's clock and keys, fixed so a crashing input replays exactly. Fuzz/Corpus/FuzzClickToken's
/// seeds were signed with these by the target itself (`SeedWriter.swift`).
let now = Date(timeIntervalSince1970: 1_790_000_000)
let key = (0..<32).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
let otherKey = (0..<32).map { UInt8(truncatingIfNeeded: $0 &* 53 &+ 7) }
let lifetime = Duration.seconds(3600)
let tokens = ClickTokens(key: key, lifetime: lifetime, now: { now })
let otherTokens = ClickTokens(key: otherKey, lifetime: lifetime, now: { now })
let cookies = VisitorCookies(key: key)
let otherCookies = VisitorCookies(key: otherKey)

/// The storefront's signed texts from the outside (`/r/{token}` and the `sf_visitor`/`sf_session` cookies):
/// 1. The input as a click token and as both kinds of visitor cookie: whatever is accepted is exactly what
///    the signer writes for its content (no second spelling, no forgery), and a cookie is never good for
///    both kinds.
/// 2. A token or a cookie the code signs itself, with fields taken from the input: a token (its fields the
///    input's lines) for an input of even length, a visitor cookie for odd with its first byte even, a
///    session cookie for odd with it odd (one signed text a run: each costs several HMACs). Each verifies to
///    what was signed, fails under the other key (and as the other kind of cookie), and fails with a byte
///    changed (two bytes a run, see `oneByteChanges`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzClickToken(_ pointer: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(pointer, size)
    let text = input.text
    checkUntrustedToken(text)
    checkUntrustedCookie(text)
    if size % 2 == 0 {
        checkSignedToken(fields: text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init),
                         flip: input.data.last.map { $0 | 1 } ?? 1, pick: pick(input.data))
    } else {
        checkSignedCookie(idBytes: Array(input.data.prefix(16)), kind: (input.data.first ?? 0) % 2 == 0 ? .visitor : .session,
                          pick: pick(input.data))
    }
    return 0
}

private func checkUntrustedToken(_ text: String) {
    guard let token = tokens.verify(text) else { return }
    fuzzCheck(token.expires > now, "an expired token was accepted: \(text)")
    fuzzCheck(otherTokens.verify(text) == nil, "a token was accepted under two keys: \(text)")
    // The signer, at the moment that gives this expiry, must write the very same text.
    let issuedAt = token.expires.addingTimeInterval(-TimeInterval(lifetime.components.seconds))
    let signer = ClickTokens(key: key, lifetime: lifetime, now: { issuedAt })
    fuzzCheck(signer.issue(token) == text, "an accepted token is not what the signer writes for it: \(text)")
}

private func checkUntrustedCookie(_ text: String) {
    let visitor = cookies.id(in: text, kind: .visitor)
    let session = cookies.id(in: text, kind: .session)
    fuzzCheck(visitor == nil || session == nil, "a cookie value was accepted for both kinds: \(text)")
    for (id, kind) in [(visitor, VisitorCookies.Kind.visitor), (session, .session)] {
        guard let id else { continue }
        fuzzCheck(cookies.value(for: id, kind: kind) == text, "an accepted \(kind) cookie is not what the signer writes: \(text)")
    }
}

private func checkSignedToken(fields: [String], flip: UInt8, pick: UInt64) {
    func field(_ index: Int, _ fallback: String) -> String { index < fields.count ? fields[index] : fallback }
    let vendor: Vendor = fields.count % 2 == 0 ? .segmentify : .reteno
    let position = Int(field(3, "1")) ?? (fields.count + 1)
    let click = ClickToken(vendor: vendor, instanceId: field(0, "scn_1"), interactionId: field(1, "act_1"),
                           productId: field(2, "p1"), position: position, destination: field(4, "https://shop.example/p/1"),
                           expires: .distantPast)
    let signed = tokens.issue(click)
    let verified = tokens.verify(signed)
    fuzzCheck(otherTokens.verify(signed) == nil, "a token verified under another key: \(signed)")
    guard let verified else {
        // Refused only for its destination (or its length): with a local path instead it must verify.
        var local = click
        local.destination = "/p/1"
        let resigned = tokens.issue(local)
        fuzzCheck(resigned.utf8.count > ClickTokens.maxTokenBytes || tokens.verify(resigned) != nil,
                  "a token the code signed does not verify: \(resigned)")
        return
    }
    var expected = click
    expected.expires = verified.expires
    fuzzCheck(verified == expected, "a signed token verified to other content: \(verified) for \(click)")
    fuzzCheck(isPlausibleDestination(verified.destination), "a token with destination \(verified.destination) was accepted")
    for (index, changed) in oneByteChanges(of: signed, flip: flip, pick: pick) {
        fuzzCheck(tokens.verify(changed) == nil, "a token with byte \(index) changed was accepted: \(changed)")
    }
}

private func checkSignedCookie(idBytes: [UInt8], kind: VisitorCookies.Kind, pick: UInt64) {
    let digits = Array("0123456789abcdef".utf8)
    let padded = idBytes + Array(repeating: 0, count: 16 - idBytes.count)
    let id = String(decoding: padded.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] }, as: UTF8.self)
    let flip = idBytes.first.map { $0 | 1 } ?? 1
    let other: VisitorCookies.Kind = kind == .visitor ? .session : .visitor
    let value = cookies.value(for: id, kind: kind)
    fuzzCheck(cookies.id(in: value, kind: kind) == id, "a signed \(kind) cookie does not verify: \(value)")
    fuzzCheck(cookies.id(in: value, kind: other) == nil, "a \(kind) cookie was accepted as \(other): \(value)")
    fuzzCheck(otherCookies.id(in: value, kind: kind) == nil, "a cookie verified under another key: \(value)")
    for (index, changed) in oneByteChanges(of: value, flip: flip, pick: pick) {
        fuzzCheck(cookies.id(in: changed, kind: kind) == nil, "a \(kind) cookie with byte \(index) changed was accepted: \(changed)")
    }
}

/// `text` with one byte XORed with `flip` (never zero): at the index `pick` names (modulo the length) and
/// at the first `.` (where payload and signature meet). Each change costs an HMAC, so a run changes two
/// bytes and the inputs between them change every index: `pick` is a hash of the whole input, so any
/// mutation moves it. Changing every index made the target ~14 times slower than 16 indexes (70 executions
/// a second against 960); six indexes a run (four spread over the text, the `.` and the last byte) left
/// it at 1,200-1,600 a second under the address sanitizer, most of it HMACs of changed copies.
private func oneByteChanges(of text: String, flip: UInt8, pick: UInt64) -> [(Int, String)] {
    let bytes = Array(text.utf8)
    guard !bytes.isEmpty else { return [] }
    var indexes = [Int(pick % UInt64(bytes.count))]
    if let dot = bytes.firstIndex(of: UInt8(ascii: ".")), dot != indexes[0] { indexes.append(dot) }
    return indexes.map { index in
        var changed = bytes
        changed[index] ^= flip
        return (index, String(decoding: changed, as: UTF8.self))
    }
}

/// FNV-1a over the input: which byte of a signed text a run changes.
private func pick(_ bytes: some Sequence<UInt8>) -> UInt64 {
    bytes.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 }
}

/// The destinations a verified token may carry (a weaker copy of the verifier's own rule, which is
/// internal): a local path that does not start `//` or `/\`, or text starting with http:// or https://.
private func isPlausibleDestination(_ destination: String) -> Bool {
    if destination.hasPrefix("/") { return !destination.hasPrefix("//") && !destination.hasPrefix("/\\") }
    let lowered = destination.lowercased()
    return lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
}
