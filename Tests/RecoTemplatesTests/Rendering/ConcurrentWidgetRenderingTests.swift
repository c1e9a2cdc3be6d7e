import Foundation
import Testing
import RecoTemplates

@Suite("Concurrent widget rendering")
struct ConcurrentWidgetRenderingTests {
    @Test func manyTasksGetIdenticalOutput() async throws {
        let renderer = WidgetRenderer()
        let widgets = [try SampleWidgets.shoes(), try HostileContentTests.hostileWidget(link: "javascript:alert(1)")]
        let templates = ["carousel", "grid", "list", "email", "text"]
        var expected: [String: String] = [:]
        for template in templates { expected[template] = try renderer.render(widgets, template: template) }
        let results = try await withThrowingTaskGroup(of: (String, String).self) { group in
            for task in 0..<200 {
                let template = templates[task % templates.count]
                group.addTask { (template, try renderer.render(widgets, template: template)) }
            }
            var results: [(String, String)] = []
            for try await result in group { results.append(result) }
            return results
        }
        #expect(results.count == 200)
        for (template, output) in results {
            #expect(output == expected[template], "\(template) rendered differently under concurrency")
        }
    }
}
