import Foundation
@testable import RecoVendors

/// Answers segment fetches from a script, per customer, and remembers who was asked for.
actor ScriptedFetcher: SegmentsFetcher {
    private var answers: [String: String] = [:]
    private var failures: [String: BloomreachError] = [:]
    private(set) var fetchedCookies: [String] = []

    init(_ answers: [String: String] = [:]) { self.answers = answers }

    func answer(_ cookie: String, with json: String) { answers[cookie] = json; failures[cookie] = nil }
    func fail(_ cookie: String, with error: BloomreachError) { failures[cookie] = error }

    func fetchSegments(cookie: String) async throws(BloomreachError) -> BloomreachSegments.Decoded {
        fetchedCookies.append(cookie)
        if let failure = failures[cookie] { throw failure }
        do {
            return try BloomreachSegments.decode(Data((answers[cookie] ?? "{}").utf8))
        } catch {
            throw .payload(error)
        }
    }
}

/// Holds every fetch until the test lets it go: a slow network.
actor GatedFetcher: SegmentsFetcher {
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private(set) var started: [String] = []
    let answer: String

    init(answer: String) { self.answer = answer }

    func fetchSegments(cookie: String) async throws(BloomreachError) -> BloomreachSegments.Decoded {
        started.append(cookie)
        await withCheckedContinuation { waiting.append($0) }
        return try! BloomreachSegments.decode(Data(answer.utf8))
    }

    func release() {
        for continuation in waiting { continuation.resume() }
        waiting = []
    }

    var waitingCount: Int { waiting.count }
}

/// What callbacks received, in order, with the task each ran on.
actor UpdateLog {
    private(set) var updates: [(name: String, update: SegmentsUpdate)] = []
    func record(_ name: String, _ update: SegmentsUpdate) { updates.append((name, update)) }
    func received(by name: String) -> [SegmentsUpdate] { updates.filter { $0.name == name }.map(\.update) }
}

/// Segments written compactly: `"a/1"` is segment `1` of segmentation `a`.
func compactSegments(_ names: [String]) -> [Segment] {
    names.map { name in
        let parts = name.split(separator: "/").map(String.init)
        return Segment(id: parts[1], segmentationId: parts[0])
    }
}

/// A segments answer as JSON from compact categories: `["discovery": ["a/1"]]`.
func segmentsAnswerJSON(_ categories: [String: [String]]) -> String {
    let members = categories.map { category, names in
        let items = names.map { name -> String in
            let parts = name.split(separator: "/").map(String.init)
            return #"{"id":"\#(parts[1])","segmentation_id":"\#(parts[0])"}"#
        }
        return "\"\(category)\":[\(items.joined(separator: ","))]"
    }
    return "{" + members.sorted().joined(separator: ",") + "}"
}
