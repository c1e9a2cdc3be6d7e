import Foundation
import Testing
import RecoPage

/// Consent transitions with buffered events, and bots' and prefetches' interactions, through the gate.
@Suite("Impression gate and consent")
struct ConsentTests {
    /// A Reteno block with the products p-1, p-2 and p-3.
    static let widget: Widget<RawProduct> = {
        let reply = Data(Fixtures.retenoReply(prefix: "p").utf8)
        guard let widget = try? RetenoRecoms.decode(reply, variantId: RetenoVariantId("r1105v1480"), title: "Similar").widgets.first else {
            fatalError("the fixture reply does not decode")
        }
        return widget
    }()
    static let visitor = PageVisit(.visitor, detail: "")

    static func impression(_ n: Int) -> Interaction {
        .impression(of: widget, context: InteractionContext(userId: "u\(n)", sessionId: "s"), occurred: Date(timeIntervalSince1970: Double(n)))
    }

    static func click(_ productId: String) throws -> Interaction {
        try .click(productId: productId, in: widget, context: InteractionContext(userId: "u", sessionId: "s"), occurred: Date(timeIntervalSince1970: 0))
    }

    /// A gate and what it sent.
    static func gate(_ initial: Consent, buffer: Int = 200, visitors: Int = 100) -> (ImpressionGate, Sent) {
        let sent = Sent()
        return (ImpressionGate(initialConsent: initial, maxVisitors: visitors, maxBufferedPerVisitor: buffer) { sent.append($0) }, sent)
    }

    @Test func pendingBuffersAndGrantingSendsInOrder() throws {
        let (gate, sent) = Self.gate(.pending)
        #expect(try gate.record(Self.impression(1), visitor: "v", visit: Self.visitor) == .buffered)
        #expect(try gate.record(Self.impression(2), visitor: "v", visit: Self.visitor) == .buffered)
        #expect(sent.all.isEmpty)
        #expect(gate.bufferedCount(of: "v") == 2)
        let flushed = try gate.setConsent(.granted, visitor: "v")
        #expect(flushed == [Self.impression(1), Self.impression(2)])
        #expect(sent.all == [Self.impression(1), Self.impression(2)])
        #expect(try gate.record(Self.impression(3), visitor: "v", visit: Self.visitor) == .sent)
        #expect(sent.all.count == 3)
        #expect(gate.consent(of: "v") == .granted)
        #expect(gate.bufferedCount(of: "v") == 0)
    }

    @Test func revokingDiscardsTheBufferAndRecordsNothingMore() throws {
        let (gate, sent) = Self.gate(.pending)
        try gate.record(Self.impression(1), visitor: "v", visit: Self.visitor)
        try gate.record(try Self.click("p-1"), visitor: "v", visit: Self.visitor)
        #expect(try gate.setConsent(.revoked, visitor: "v").isEmpty)
        #expect(try gate.record(Self.impression(2), visitor: "v", visit: Self.visitor) == .refused)
        #expect(try gate.setConsent(.granted, visitor: "v").isEmpty)       // the discarded buffer does not come back
        #expect(sent.all.isEmpty)
        #expect(gate.statistics.discarded == 3)
    }

    @Test func grantedThenRevokedStopsRecording() throws {
        let (gate, sent) = Self.gate(.granted)
        #expect(try gate.record(Self.impression(1), visitor: "v", visit: Self.visitor) == .sent)
        try gate.setConsent(.revoked, visitor: "v")
        #expect(try gate.record(try Self.click("p-1"), visitor: "v", visit: Self.visitor) == .refused)
        #expect(sent.all == [Self.impression(1)])
    }

    @Test func visitorsAreKeptApart() throws {
        let (gate, sent) = Self.gate(.pending)
        try gate.record(Self.impression(1), visitor: "a", visit: Self.visitor)
        try gate.record(Self.impression(2), visitor: "b", visit: Self.visitor)
        try gate.setConsent(.granted, visitor: "b")
        try gate.setConsent(.revoked, visitor: "a")
        #expect(sent.all == [Self.impression(2)])
    }

    @Test func botsAndPrefetchesRecordNothingWhateverTheConsent() throws {
        for initial in [Consent.pending, .granted] {
            let (gate, sent) = Self.gate(initial)
            let bot = ImpressionPolicy().visit(userAgent: "Mozilla/5.0 (compatible; Googlebot/2.1)", headers: [])
            let prefetch = ImpressionPolicy().visit(userAgent: ImpressionPolicyTests.chrome, headers: [("Sec-Purpose", "prefetch")])
            #expect(try gate.record(Self.impression(1), visitor: "v", visit: bot) == .skipped(bot))
            #expect(try gate.record(try Self.click("p-1"), visitor: "v", visit: bot) == .skipped(bot))   // a bot's click-through
            #expect(try gate.record(Self.impression(2), visitor: "v", visit: prefetch) == .skipped(prefetch))
            try gate.setConsent(.granted, visitor: "v")
            #expect(sent.all.isEmpty)
            #expect(gate.statistics.skipped == 3)
        }
    }

    @Test func buffersAndTheVisitorTableAreBounded() throws {
        let (gate, sent) = Self.gate(.pending, buffer: 3, visitors: 2)
        for n in 1...5 { try gate.record(Self.impression(n), visitor: "v", visit: Self.visitor) }
        #expect(gate.bufferedCount(of: "v") == 3)
        try gate.record(Self.impression(6), visitor: "w", visit: Self.visitor)
        try gate.record(Self.impression(7), visitor: "x", visit: Self.visitor)      // "v" is forgotten
        #expect(gate.bufferedCount(of: "v") == 0)
        try gate.setConsent(.granted, visitor: "x")
        #expect(sent.all == [Self.impression(7)])
        #expect(gate.statistics.discarded == 2 + 3)
    }

    @Test func theStateMachineAlone() {
        var consent = VisitorConsent(.pending, limit: 2)
        #expect(consent.record(Self.impression(1)) == .buffered)
        #expect(consent.record(Self.impression(2)) == .buffered)
        #expect(consent.record(Self.impression(3)) == .buffered)
        #expect(consent.overflowed == 1)
        #expect(consent.grant() == [Self.impression(2), Self.impression(3)])
        #expect(consent.record(Self.impression(4)) == .send)
        #expect(consent.revoke() == 0)
        #expect(consent.record(Self.impression(5)) == .discarded)
    }
}

final class Sent: @unchecked Sendable {
    private let lock = NSLock()
    private var interactions: [Interaction] = []
    var all: [Interaction] { lock.withLock { interactions } }
    func append(_ interaction: Interaction) { lock.withLock { interactions.append(interaction) } }
}
