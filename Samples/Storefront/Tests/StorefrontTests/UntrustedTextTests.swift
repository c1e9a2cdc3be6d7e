import Foundation
import Testing
@testable import StorefrontCore

/// Random and mutated click tokens, visitor cookies and beacon forms thrown at StorefrontCore's pure
/// checks: they never crash, and never accept anything the server did not sign. Seeded: the seed is
/// printed, and `STOREFRONT_TEST_SEED` replays it.
@Suite("Untrusted text, randomized")
struct UntrustedTextTests {
    static let rounds = 2_000

    @Test func mutatedTokensAreNeverAcceptedUnlessUnchanged() {
        let seed = Seed.fromEnvironmentOrRandom()
        print("UntrustedTextTests.tokens seed: \(seed) (STOREFRONT_TEST_SEED=\(seed) replays it)")
        var random = SplitMix64(seed: seed)
        let tokens = ClickTokens(key: random.bytes(32))
        let other = ClickTokens(key: random.bytes(32))
        var genuine: [String] = []
        for index in 0..<20 {
            let click = ClickToken(vendor: index % 2 == 0 ? .segmentify : .reteno, instanceId: random.garbage(maxLength: 20),
                                   interactionId: random.garbage(maxLength: 20), productId: random.hex(6), position: index + 1,
                                   destination: "https://shop.example/p/\(random.hex(8))", expires: Date())
            genuine.append(tokens.issue(click))
            #expect(other.verify(other.issue(click)) != nil)
            #expect(tokens.verify(other.issue(click)) == nil, "another key's token")
        }
        #expect(genuine.allSatisfy { tokens.verify($0) != nil })
        var accepted = 0
        for _ in 0..<Self.rounds {
            let original = genuine.randomElement(using: &random)!
            let mutant = Self.mutate(original, using: &random)
            if let token = tokens.verify(mutant) {
                #expect(mutant == original, "a changed token was accepted: \(mutant) (seed \(seed))")
                #expect(ClickTokens.isAllowedDestination(token.destination))
                accepted += 1
            }
            // Random text of every shape: never accepted.
            let junk = String(decoding: random.bytes(Int.random(in: 0...200, using: &random)), as: UTF8.self)
            #expect(tokens.verify(junk) == nil)
            #expect(tokens.verify(random.base64URL(Int.random(in: 1...120, using: &random)) + "." + random.base64URL(43)) == nil)
        }
        #expect(accepted < Self.rounds, "most mutants change the token")
    }

    @Test func forgedVisitorCookiesAreNeverAccepted() {
        let seed = Seed.fromEnvironmentOrRandom()
        print("UntrustedTextTests.cookies seed: \(seed) (STOREFRONT_TEST_SEED=\(seed) replays it)")
        var random = SplitMix64(seed: seed)
        let cookies = VisitorCookies(key: random.bytes(32))
        let genuine = (0..<10).map { _ in cookies.value(for: random.hex(32), kind: .visitor) }
        for _ in 0..<Self.rounds {
            let original = genuine.randomElement(using: &random)!
            let mutant = Self.mutate(original, using: &random)
            if let id = cookies.id(in: mutant, kind: .visitor) {
                #expect(mutant == original, "a changed cookie was accepted: \(mutant) (seed \(seed))")
                #expect(original.hasPrefix(id + "."))
            }
            #expect(cookies.id(in: mutant, kind: .session) == nil, "never valid for the other cookie")
            #expect(cookies.id(in: random.hex(32) + "." + random.base64URL(43), kind: .visitor) == nil)
        }
    }

    @Test func beaconFormsNeverCrashAndOnlyNameWhatTheyCarry() {
        let seed = Seed.fromEnvironmentOrRandom()
        print("UntrustedTextTests.beacon seed: \(seed) (STOREFRONT_TEST_SEED=\(seed) replays it)")
        var random = SplitMix64(seed: seed)
        let memory = RenderedWidgets(maxVisitors: 4, maxWidgetsPerVisitor: 4)
        let shown = RenderedWidgets.Shown(vendor: .segmentify, instanceId: "scn_1", interactionId: "act_1")
        memory.record([shown], for: "alice")
        let seeds = ["instanceId=scn_1&interactionId=act_1", "instanceId=scn%5F1&interactionId=act%5f1", "interactionId=act_1&instanceId=scn_1&x=1"]
        for _ in 0..<Self.rounds {
            let body = Array(Self.mutate(seeds.randomElement(using: &random)!, using: &random).utf8)
            let query = Bool.random(using: &random) ? nil : String(decoding: random.bytes(Int.random(in: 0...40, using: &random)), as: UTF8.self)
            switch BeaconForm.parse(query: query, body: body) {
            case .success(let form):
                #expect(!form.instanceId.isEmpty)
                #expect(form.instanceId.utf8.count <= BeaconForm.maxFieldBytes && form.interactionId.utf8.count <= BeaconForm.maxFieldBytes)
                // Whatever it names, only alice's shown widget can be taken, and only by alice.
                #expect(memory.take(instanceId: form.instanceId, interactionId: form.interactionId, for: "mallory") == nil)
                if let taken = memory.take(instanceId: form.instanceId, interactionId: form.interactionId, for: "alice") {
                    #expect(taken == shown)
                    memory.record([shown], for: "alice")
                }
            case .failure:
                break
            }
            let raw = random.bytes(Int.random(in: 0...5000, using: &random))
            if case .success(let form) = BeaconForm.parse(query: nil, body: raw) {
                #expect(form.instanceId.utf8.count <= BeaconForm.maxFieldBytes)
            }
        }
        #expect(BeaconForm.parse(query: nil, body: Array(seeds[1].utf8)) == .success(BeaconForm(instanceId: "scn_1", interactionId: "act_1")))
        #expect(BeaconForm.parse(query: "instanceId=q", body: Array("interactionId=b".utf8)) == .success(BeaconForm(instanceId: "q", interactionId: "b")))
        #expect(BeaconForm.parse(query: nil, body: Array("instanceId=%E0%80&interactionId=b".utf8)) == .failure(.malformed))
        #expect(BeaconForm.parse(query: nil, body: Array("instanceId=a%2&interactionId=b".utf8)) == .failure(.malformed))
        #expect(BeaconForm.parse(query: nil, body: Array("instanceId=&interactionId=b".utf8)) == .failure(.missingField))
        #expect(BeaconForm.parse(query: nil, body: Array(repeating: UInt8(ascii: "&"), count: 5000)) == .failure(.tooLarge))
        #expect(BeaconForm.parse(query: nil, body: Array(String(repeating: "a=b&", count: 40).utf8)) == .failure(.tooLarge))
    }

    /// One to four edits: a byte flipped, inserted, deleted, duplicated, or the text cut.
    static func mutate(_ text: String, using random: inout SplitMix64) -> String {
        var bytes = Array(text.utf8)
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            let at = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &random)
            switch Int.random(in: 0..<6, using: &random) {
            case 0 where !bytes.isEmpty: bytes[at] ^= UInt8(1) << UInt8.random(in: 0...7, using: &random)
            case 1: bytes.insert(UInt8.random(in: 0...255, using: &random), at: at)
            case 2 where !bytes.isEmpty: bytes.remove(at: at)
            case 3 where !bytes.isEmpty: bytes.insert(contentsOf: bytes[at...].prefix(8), at: at)
            case 4: bytes = Array(bytes.prefix(at))
            default: bytes.insert(contentsOf: Array(".=&%".utf8).shuffled(using: &random).prefix(1), at: at)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
