import RecoTemplates
import Testing

/// `SafeLink` (computed `link` and `imageSource`, plain text) and the engine's URL check read one rule:
/// every link `SafeLink` allows, the engine allows, so a link never passes one and fails the other.
@Suite("One URL rule")
struct URLRuleAgreementTests {
    /// Pieces that hide or fake a scheme, joined at random.
    static let pieces: [String] = [
        "java", "script", "JaVa", ":", "&#x3A;", "&#58;", "&colon;", "&#x6A;", "&#106", "&Tab;", "&NewLine;", " ", "\t", "\n",
        "\u{0}", "\u{1}", "\u{7F}", "\u{85}", "\u{200B}", "\u{A0}", "/", "//", "?", "#", "\\", "http", "https", "s", "data",
        "vbscript", "&", "&amp;", ";", "x", "%3A", "a.b", "+", "-",
    ]

    @Test("every link SafeLink allows, the engine's URL check allows (seeded; the seed is printed)")
    func safeLinkIsWithinTheEngineRule() {
        let seed: UInt64 = 0x5AFE_11CC
        print("URLRuleAgreementTests seed: \(seed)")
        var generator = MalformedTemplateTests.Generator(state: seed)
        var checked = 0
        for _ in 0..<20_000 {
            var link = ""
            for _ in 0..<(1 + generator.next(6)) { link += Self.pieces[generator.next(Self.pieces.count)] }
            if SafeLink.isAllowed(link) {
                #expect(HTMLEscaping.isSafeURL(link), "SafeLink allows \(link.debugDescription), the engine does not (seed \(seed))")
                checked += 1
            }
        }
        #expect(checked > 1000)
        for url in HTMLSafetyTests.hostileURLs + ["&#x6A;avascript&#x3A;alert(1)", "jav&#x61;script&colon;x"] {
            #expect(!SafeLink.isAllowed(url), "\(url.debugDescription)")
        }
    }
}
