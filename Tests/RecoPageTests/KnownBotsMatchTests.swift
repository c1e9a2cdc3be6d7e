import Foundation
import RecoKitTesting
import RecoPage
import Testing

/// `KnownBots.match` finds every token in one pass over the user agent; it must answer what searching
/// the lower-cased user agent for each token in turn answers: the first token in the list's order.
@Suite("Known bots: one-pass matching")
struct KnownBotsMatchTests {
    /// The definition: the first token (list order) whose bytes occur in the lower-cased user agent.
    static func reference(_ tokens: [String], _ userAgent: String) -> String? {
        let text = Array(userAgent.lowercased().utf8)
        return tokens.first { token in
            let needle = Array(token.utf8)
            guard !needle.isEmpty, needle.count <= text.count else { return needle.isEmpty }
            return (0...(text.count - needle.count)).contains { text[$0..<($0 + needle.count)].elementsEqual(needle) }
        }
    }

    @Test func realUserAgentsAndTheEdges() {
        let bots = KnownBots.builtIn
        #expect(bots.match("Mozilla/5.0 (compatible; GOOGLEBOT/2.1)") == "googlebot")
        #expect(bots.match("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36") == nil)
        #expect(bots.match("") == nil)
        // Overlapping tokens: each found where it ends inside another's partial match; the list's order wins.
        let overlapping = KnownBots(tokens: ["robots", "bot", "obo", "xbotx"])
        #expect(overlapping.match("a robo b") == "obo")
        #expect(overlapping.match("a roboto b") == "bot")
        #expect(overlapping.match("a ROBOTS b") == "robots")
        #expect(overlapping.match("xbotx") == "bot")
        #expect(overlapping.match("rob") == nil)
        // Not ASCII: searched token by token, as before.
        #expect(overlapping.match("Bötbot é") == "bot")
        #expect(KnownBots(tokens: ["çrawler"]).match("Mozilla ÇRAWLER") == "çrawler")
    }

    /// Every printable ASCII character as a one-character user agent, against each as a one-token list:
    /// letters match their other case, nothing else does (`@` and `[` sit next to the capitals).
    @Test func everyASCIICharacterIsLowerCasedAsLowercasedDoes() {
        let characters = (0x20...0x7E).map { String(UnicodeScalar(UInt8($0))) }
        for token in characters {
            let bots = KnownBots(tokens: [token])
            for userAgent in characters {
                #expect(bots.match(userAgent) == Self.reference(bots.tokens, userAgent), "token \(token.debugDescription), user agent \(userAgent.debugDescription)")
            }
        }
    }

    @Test func randomUserAgentsAgreeWithTheDefinition() {
        let seed = ProcessInfo.processInfo.environment["RECOKIT_BOTS_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 0...UInt64.max)
        print("KnownBotsMatchTests seed: \(seed) (replay: RECOKIT_BOTS_SEED=\(seed) swift test --filter KnownBotsMatchTests)")
        var random = SeededRandom(seed: seed)
        let alphabet = Array("abcorsxyBOTZ/ ;(.)-_0123456789")
        let odd = ["é", "Ü", "ß", "🤖", "\u{0130}"]
        func word(_ length: ClosedRange<Int>) -> String {
            String((0..<Int.random(in: length, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
        }
        var lists: [[String]] = [KnownBots.builtIn.tokens]
        for _ in 0..<20 { lists.append((0..<Int.random(in: 1...12, using: &random)).map { _ in word(1...5) }) }
        for tokens in lists {
            let bots = KnownBots(tokens: tokens)
            for _ in 0..<500 {
                // Pieces of tokens (whole, cut, case flipped) between random bytes; now and then a letter
                // that is not ASCII.
                var userAgent = ""
                for _ in 0..<Int.random(in: 0...6, using: &random) {
                    switch Int.random(in: 0..<4, using: &random) {
                    case 0: userAgent += word(0...8)
                    case 1: userAgent += odd.randomElement(using: &random)!
                    default:
                        let token = Array(bots.tokens.randomElement(using: &random)!)
                        let cut = token[0..<Int.random(in: 0...token.count, using: &random)]
                        userAgent += String(Bool.random(using: &random) ? String(cut).uppercased() : String(cut))
                    }
                }
                let expected = Self.reference(bots.tokens, userAgent)
                #expect(bots.match(userAgent) == expected, "user agent \(userAgent.debugDescription), tokens \(bots.tokens), seed \(seed)")
            }
        }
    }
}
