import Testing
@testable import RecoVendors

@Suite("8digits visit model")
struct EightDigitsVisitTests {
    @Test func hitCodesAreUniqueWithinASession() throws {
        var visit = EightDigitsVisit(sessionCode: "s1")
        try visit.addHit(code: "h1", title: "Home", path: "/")
        try visit.addHit(code: "h2", title: "Basket", path: "/basket")
        #expect(visit.hits.map(\.code) == ["h1", "h2"])
        #expect {
            try visit.addHit(code: "h1", title: "Home again", path: "/")
        } throws: { error in
            (error as? EightDigitsError)?.kind == .duplicateHit
        }
        var other = EightDigitsVisit(sessionCode: "s2")
        #expect(throws: Never.self) { try other.addHit(code: "h1", title: "Home", path: "/") }
    }

    @Test func screensEndOnce() throws {
        var visit = EightDigitsVisit(sessionCode: "s1")
        try visit.addHit(code: "h1", title: "Home", path: "/")
        try visit.endHit("h1")
        #expect(visit.hit("h1")?.isEnded == true)
        #expect {
            try visit.endHit("h1")
        } throws: { error in
            (error as? EightDigitsError)?.argument == "hitCode"
        }
        #expect {
            try visit.endHit("h7")
        } throws: { error in
            (error as? EightDigitsError)?.kind == .unknownHit
        }
    }

    @Test func eventsNeedAHitOfTheSession() throws {
        var visit = EightDigitsVisit(sessionCode: "s1")
        try visit.addHit(code: "h1", title: "Home", path: "/")
        #expect(throws: Never.self) { try visit.checkEvent(hitCode: "h1") }
        try visit.endHit("h1")
        #expect(throws: Never.self) { try visit.checkEvent(hitCode: "h1") }
        #expect {
            try visit.checkEvent(hitCode: "h2")
        } throws: { error in
            (error as? EightDigitsError)?.description == #"hit code "h2" is not a hit of this session"#
        }
    }

    @Test func aHitOnAnEndedVisitRevivesIt() throws {
        var visit = EightDigitsVisit(sessionCode: "s1")
        #expect(try visit.addHit(code: "h1", title: "Home", path: "/") == false)
        visit.end()
        #expect(visit.isEnded)
        #expect(try visit.addHit(code: "h2", title: "Back", path: "/back") == true)
        #expect(!visit.isEnded)
        #expect(visit.revivals == 1)
    }
}
