import Testing
@testable import StorefrontKit

@Suite("Rendered widgets")
struct RenderedWidgetsTests {
    static func shown(_ index: Int) -> RenderedWidgets.Shown {
        RenderedWidgets.Shown(vendor: .segmentify, instanceId: "scn_\(index)", interactionId: "act_\(index)")
    }

    @Test func aWidgetIsTakenOnceAndOnlyByItsVisitor() {
        let memory = RenderedWidgets()
        memory.record([Self.shown(1)], for: "alice")
        #expect(memory.take(instanceId: "scn_1", interactionId: "act_1", for: "bob") == nil)
        #expect(memory.take(instanceId: "scn_1", interactionId: "act_2", for: "alice") == nil)
        #expect(memory.take(instanceId: "scn_1", interactionId: "act_1", for: "alice") == Self.shown(1))
        #expect(memory.take(instanceId: "scn_1", interactionId: "act_1", for: "alice") == nil)
    }

    @Test func memoryIsBoundedPerVisitorAndInVisitors() {
        let memory = RenderedWidgets(maxVisitors: 3, maxWidgetsPerVisitor: 2)
        memory.record((1...3).map(Self.shown), for: "alice")
        #expect(memory.take(instanceId: "scn_1", interactionId: "act_1", for: "alice") == nil)
        #expect(memory.take(instanceId: "scn_3", interactionId: "act_3", for: "alice") != nil)
        for visitor in ["bob", "carol", "dave"] { memory.record([Self.shown(9)], for: visitor) }
        #expect(memory.visitorCount == 3)
        #expect(memory.take(instanceId: "scn_2", interactionId: "act_2", for: "alice") == nil)
        // Seeing bob again keeps him; erin pushes out carol, the longest unseen.
        memory.record([Self.shown(8)], for: "bob")
        memory.record([Self.shown(9)], for: "erin")
        #expect(memory.take(instanceId: "scn_9", interactionId: "act_9", for: "carol") == nil)
        #expect(memory.take(instanceId: "scn_9", interactionId: "act_9", for: "bob") != nil)
        for index in 0..<10_000 { memory.record([Self.shown(1)], for: "v\(index % 5)") }
        #expect(memory.visitorCount == 3)
    }
}
