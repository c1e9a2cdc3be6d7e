#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import RecoKit
import RecoTracking

/// What `recokit relay` tells its caller about each input line, one JSON object per line, in input order:
///
/// ```
/// {"line":1,"ids":["3f9a1c2b7d4e5f60-1"]}            every event of line 1 is durable in the journal
/// {"line":2,"ids":["3f9a1c2b7d4e5f60-2","3f9a1c2b7d4e5f60-3"]}
/// {"line":3,"refused":"invalid JSON: … at line 1, column 12"}   line 3 was not taken
/// ```
///
/// An acceptance is written only after a commit that covers the line's events has returned, so an
/// acknowledged line survives a crash of the relay or the machine; it is written at most 250 ms after
/// that (``RelayCommand`` writes after each commit, and a timer commits every 100 ms while lines wait).
/// A refusal waits for the lines before it, to keep the order. The `accepted N` progress lines on stderr
/// follow the same rule.
final class RelayAcknowledgements: @unchecked Sendable {
    enum Entry {
        case accepted(line: Int, ids: [EventID])
        case refused(line: Int, reason: String)
    }

    private let descriptor: Int32
    private let lock = NSLock()
    /// Held across a commit and the writing after it, so acknowledgements leave in order.
    private let writing = AsyncLock()
    // Guarded by `lock`.
    private var waiting: [Entry] = []
    // Guarded by `writing` (``unwritable`` by `lock` too, for ``writeFailure``).
    /// The first commit error: from then on nothing more is acknowledged (a journal may have refused
    /// the records of the lines that waited, so a later successful commit does not cover them).
    private var failure: TrackingError?
    private var acceptedEvents = 0
    private var reported = 0
    private var lastReport = ContinuousClock.now
    /// Why acknowledgements could not be written (the reader went away, the file's disk is full): from
    /// then on none is written, so that none arrives out of order after a gap.
    private var unwritable: String?
    /// The line of the first entry being written (for the message when a write fails).
    private var firstLine = 1

    /// Where acknowledgements go, for messages (`stdout`, or `--acks FILE`).
    let destination: String
    /// The input the acknowledged lines come from: it is stopped when acknowledgements cannot be written.
    private let input: RelayInput

    /// Acknowledgements written to `descriptor` (stdout, or the file of `--acks`, named by `destination`)
    /// for the lines of `input`.
    init(descriptor: Int32, destination: String, input: RelayInput) {
        self.descriptor = descriptor
        self.destination = destination
        self.input = input
    }

    /// Why acknowledgements can no longer be written, once a write failed: the input was stopped then, so
    /// no more lines are taken (those taken could not be acknowledged, and the caller sends them again).
    var writeFailure: String? { lock.withLock { unwritable } }

    /// Queues an entry; it is written by the next ``commitAndWrite(_:)``.
    func add(_ entry: Entry) { lock.withLock { waiting.append(entry) } }

    /// Whether entries wait for a commit.
    var hasWaiting: Bool { lock.withLock { !waiting.isEmpty } }

    /// Commits the tracker, then writes every entry queued before the commit began.
    /// - Throws: the commit's error; nothing is written then, nor ever after (every later call throws it).
    func commitAndWrite(_ tracker: Tracker) async throws(TrackingError) {
        try await writing.withLock { () async throws(TrackingError) in try await commitAndWriteLocked(tracker) }
    }

    private func commitAndWriteLocked(_ tracker: Tracker) async throws(TrackingError) {
        if let failure { throw failure }
        let count = lock.withLock { waiting.count }
        guard count > 0 else { return }
        do { try await tracker.commit() } catch {
            failure = error
            throw error
        }
        let entries = lock.withLock { () -> [Entry] in
            let entries = Array(waiting.prefix(count))
            waiting.removeFirst(count)
            return entries
        }
        guard lock.withLock({ unwritable }) == nil else { return }
        firstLine = entries.first.map(\.line) ?? firstLine
        var text = ""
        for entry in entries {
            switch entry {
            case .accepted(let line, let ids):
                text += "{\"line\":\(line),\"ids\":["
                text += ids.map { "\"\($0)\"" }.joined(separator: ",")
                text += "]}\n"
                let before = acceptedEvents
                acceptedEvents += ids.count
                // Each time a thousand is passed, as the relay always did.
                if acceptedEvents / 1000 > before / 1000 {
                    writeOut(&text)
                    reportProgress()
                }
            case .refused(let line, let reason):
                text += "{\"line\":\(line),\"refused\":"
                JSONWriter.writeString(reason, to: &text)
                text += "}\n"
            }
        }
        writeOut(&text)
        // And every quarter second while events trickle in.
        if acceptedEvents > reported, lastReport.duration(to: .now) > .milliseconds(250) { reportProgress() }
    }

    /// The final `accepted N` (at the end of input, once everything is written).
    func reportFinal() async {
        await writing.withLock { reportProgress() }
    }

    private func reportProgress() {
        StandardStreams.writeError("accepted \(acceptedEvents)\n".utf8)
        reported = acceptedEvents
        lastReport = .now
    }

    /// Writes `text` whole. A failed write stops all later ones (``writeFailure`` says why) and the input
    /// (even while stdin is quiet): the lines stay durable and are delivered, but their caller cannot learn it.
    private func writeOut(_ text: inout String) {
        guard !text.isEmpty, lock.withLock({ unwritable }) == nil else { return }
        let bytes = Array(text.utf8)
        text = ""
        if let code = StandardStreams.write(bytes, to: descriptor) {
            let reason = String(cString: strerror(code)).lowercased()
            let line = firstLine
            lock.withLock { unwritable = "cannot write acknowledgements to \(destination): \(reason); those from line \(line) on may be missing" }
            input.stop()
        }
    }
}

extension RelayAcknowledgements.Entry {
    /// The input line the entry is about.
    var line: Int {
        switch self {
        case .accepted(let line, _), .refused(let line, _): line
        }
    }
}
