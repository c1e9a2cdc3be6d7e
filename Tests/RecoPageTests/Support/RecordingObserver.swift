import Foundation
import RecoPage

/// A page observer that writes each observation as a line, in the order it was told, for a test to
/// compare with the lines its script expects. Durations vary from run to run, so a line names none;
/// they are kept apart (``durations``) for the test to check their bounds.
final class RecordingObserver: PageObserver, @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [String] = []
    private var timings: [Duration] = []
    private var read = 0

    func vendorAnswered(_ answer: VendorAnswer) {
        append("answered \(answer.vendor) \(answer.outcome) \(answer.bytes) bytes" + (answer.shared ? " shared" : ""), duration: answer.duration)
    }

    func budgetMissed(vendor: Vendor, budget: Duration) {
        append("budget missed \(vendor) \(budget)")
    }

    func cacheMissed(vendor: Vendor, joined: Bool) {
        append("cache missed \(vendor)" + (joined ? " joined" : ""))
    }

    func blockServed(_ block: ServedBlock) {
        let passed = block.passedOver.map(\.step.label)
        append("served \(block.vendor) \(block.step.label)" + (passed.isEmpty ? "" : " after " + passed.joined(separator: ",")))
    }

    private func append(_ line: String, duration: Duration? = nil) {
        lock.withLock {
            recorded.append(line)
            if let duration { timings.append(duration) }
        }
    }

    /// Every line so far.
    var lines: [String] { lock.withLock { recorded } }

    /// The duration of every answer so far.
    var durations: [Duration] { lock.withLock { timings } }

    /// The lines told since the last call, once there are at least `count` of them (waiting for
    /// observations made on another task, such as a background refresh's answer), or what there is
    /// after a minute.
    func next(_ count: Int) async throws -> [String] {
        for _ in 0..<6000 where lock.withLock({ recorded.count - read }) < count { try await Task.sleep(for: .milliseconds(10)) }
        return lock.withLock {
            defer { read = recorded.count }
            return Array(recorded[read...])
        }
    }
}
