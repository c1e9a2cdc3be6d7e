import Foundation
import RecoKit
import RecoTracking

/// Realistic widgets and visitors for the tracking tests.
enum Fixtures {
    static let context = InteractionContext(userId: "-897541074991628287", sessionId: "-2739101928374651", lang: "TR",
                                            currency: "TRY", pageUrl: "https://www.shop.example/urun/240-lv09-kosu-ayakkabisi")

    static func widget(vendor: Vendor = .segmentify, instanceId: String = "rec_pdp_1", interactionId: String = "act_1842",
                       productIds: [String] = ["240-LV09", "318-KZ11", "557-TR02"]) -> Widget<RawProduct> {
        let products = productIds.enumerated().map { index, id -> (RawProduct, JSONPath) in
            let fields: [String: JSONValue] = [
                "productId": .string(id), "name": .string("Koşu Ayakkabısı \(index + 1)"),
                "price": .number(JSONNumber(text: "1299.90")!), "url": .string("https://www.shop.example/urun/\(id.lowercased())"),
            ]
            return (try! RawProduct(fields: fields), JSONPath.root.appending(index: index))
        }
        return Widget(vendor: vendor, instanceId: instanceId, interactionId: interactionId, title: "Bunlar da ilginizi çekebilir",
                      rawProducts: products)
    }

    /// A path for a temporary file (nothing is created there), removed by the caller.
    static func temporaryFile(extension pathExtension: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("recokit-tracking-\(UUID().uuidString).\(pathExtension)")
    }

    /// A temporary directory removed by the caller.
    static func temporaryDirectory() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("recokit-tracking-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A memory tracker's configuration for outage tests on an injected clock: four senders, batches of ten,
    /// flushed and looked at every millisecond.
    static func outageConfiguration() -> TrackerSetup {
        var configuration = TrackerSetup(journal: nil, durability: .memory)
        configuration.maxConcurrentRequests = 4
        configuration.maxBatchEvents = 10
        configuration.flushInterval = .milliseconds(1)
        configuration.idlePollInterval = .milliseconds(1)
        return configuration
    }

    /// A click on product `productId` of a catalogue of realistic ids.
    static func click(_ productId: String, instanceId: String = "rec_pdp_1", occurred: Date = Date()) -> Interaction {
        Interaction(kind: .click, instanceId: instanceId, interactionId: "act_1842", productId: productId, context: context, occurred: occurred)
    }
}

/// A clock that never waits: `sleep` records the duration and moves time forward at once.
final class TestClock: TrackingClock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date
    private var recorded: [Duration] = []
    let fixedJitter: Double

    init(start: Date = Date(timeIntervalSince1970: 1_714_566_896), jitter: Double = 0.5) {
        current = start
        fixedJitter = jitter
    }

    func now() -> Date {
        lock.withLock {
            defer { current = current.addingTimeInterval(stepAtEachReading) }
            return current
        }
    }

    /// Seconds the clock is set by after each reading (back, when negative): a clock corrected again and
    /// again, between any two readings a tracker makes.
    var stepAtEachReading: TimeInterval = 0
    func jitter() -> Double { fixedJitter }
    var sleeps: [Duration] { lock.lock(); defer { lock.unlock() }; return recorded }

    func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
        lock.withLock {
            recorded.append(duration)
            current = current.addingTimeInterval(Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18 + stepInSleep)
            stepInSleep = 0
        }
        await Task.yield()
    }

    private var stepInSleep: TimeInterval = 0

    /// Sets the clock `seconds` forward (back, when negative) while the next sleep lasts, as a wall clock
    /// corrected by NTP is set while a tracker waits.
    func step(by seconds: TimeInterval) { lock.withLock { stepInSleep += seconds } }
}

/// A transport that answers from a script and records every request.
final class ScriptedTransport: Transport, @unchecked Sendable {
    enum Step { case reply(VendorReply), networkError }
    private let lock = NSLock()
    private var steps: [Step]
    private var sent: [VendorRequest] = []

    init(_ steps: [Step]) { self.steps = steps }

    var requests: [VendorRequest] { lock.lock(); defer { lock.unlock() }; return sent }

    func send(_ request: VendorRequest, timeout: Duration) async throws -> VendorReply {
        let step = lock.withLock { () -> Step in
            sent.append(request)
            return steps.isEmpty ? .reply(VendorReply(status: 200, body: Data(#"{"statusCode":"SUCCESS"}"#.utf8))) : steps.removeFirst()
        }
        switch step {
        case .reply(let reply): return reply
        case .networkError: throw URLError(.networkConnectionLost)
        }
    }
}

extension Tracker {
    /// Waits (on acknowledgements, at most `limit`) until nothing is pending. The limit is real time for
    /// trackers on an injected clock too: a test that takes 0.3 s alone took 78–127 s inside the whole
    /// suite on 2 cores (hundreds of tests share the cooperative threads), and once ran past 60 s.
    func waitUntilDelivered(limit: Duration = .seconds(300)) async {
        await waitUntilIdle(timeout: limit)
    }
}
