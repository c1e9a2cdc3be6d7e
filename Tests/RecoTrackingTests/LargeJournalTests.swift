import Foundation
import Testing
@testable import RecoTracking
import RecoKit

/// A journal directory grows large in ordinary use: its segments while a vendor is down (up to
/// `maxJournalBytes`, 512 MB unless set), its dead letters for as long as a vendor refuses events (without
/// bound). Opening, inspecting and re-queueing it must not need memory in proportion: a process whose
/// memory limit is smaller than its journal could otherwise never start again, and its events would never
/// be delivered. Measured on real `recokit` processes, against the same command on a small directory.
extension IntegrationSuite {
    @Suite("A large journal directory opens in bounded memory")
    struct LargeJournalTests {
        /// Peak resident memory of `recokit` with `arguments`, in bytes, polled from /proc while it runs
        /// (`wait4`'s figure starts at the test process's own, which is far larger).
        func peakMemory(_ arguments: [String]) throws -> (status: Int32, peak: Int, output: String) {
            let process = try RelayProcess(arguments)
            process.closeInput()
            var peak = 0
            let status = "/proc/\(process.process.processIdentifier)/status"
            while process.process.isRunning {
                if let text = try? String(contentsOfFile: status, encoding: .utf8),
                   let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
                   let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "") {
                    peak = max(peak, kilobytes * 1024)
                }
                usleep(2_000)
            }
            return (process.wait(), peak, process.stdout)
        }

        /// A journal directory whose dead-letter file is `copies` copies of `letters` (a version-1 frame
        /// holds no offset: a copy of a letter is a letter).
        func directory(_ name: String, letters: [UInt8], copies: Int, in parent: URL) throws -> URL {
            let directory = parent.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let path = directory.appendingPathComponent(DeadLetterStore.fileName).path
            #expect(FileManager.default.createFile(atPath: path, contents: nil))
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            for _ in 0..<copies { try handle.write(contentsOf: letters) }
            return directory
        }

        /// `command` run on `small` and on `large`: each exits 0, and the second needs less than `bound` bytes
        /// of memory more than the first; a line for the report.
        func compare(_ what: String, _ command: (URL) -> [String], small: URL, large: URL, bound: Int,
                     check: (String) -> Void = { _ in }) throws -> String {
            let base = try peakMemory(command(small))
            let run = try peakMemory(command(large))
            #expect(run.status == 0 && base.status == 0, "\(what): exit \(base.status), then \(run.status)")
            #expect(run.peak - base.peak < bound, "\(what) held \((run.peak - base.peak) >> 20) MB more (\(run.peak >> 20) MB against \(base.peak >> 20) MB)")
            check(run.output)
            return "\(what): \(base.peak >> 20) MB, then \(run.peak >> 20) MB"
        }

        func relay(_ directory: URL) -> [String] {
            ["relay", "--journal", directory.path, "--vendor", "segmentify", "--endpoint", "http://127.0.0.1:9", "--api-key", "k",
             "--drain", "--deadline", "1"]
        }

        /// A vendor that refused events for hours leaves a dead-letter file of hundreds of megabytes (about 190
        /// bytes a letter). A relay starting on it, `recokit journal` listing it and `recokit journal --requeue`
        /// each held the whole file and every letter read from it (eight times the file's size, measured:
        /// 1.7 GB for a 200 MB file); a file larger than memory made every start of the relay fail.
        @Test func aRelayStartAnInspectionAndARequeueHoldAWindowOfTheDeadLetters() throws {
            #if os(Linux)
            let parent = Fixtures.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: parent) }
            let scratch = parent.appendingPathComponent("scratch")
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            let store = DeadLetterStore(storage: FileJournalStorage(directory: scratch), durable: false)
            try store.add((1...5_000).map { DeadLetterRequeueTests().letter($0) }, at: Date())
            let letters = try [UInt8](Data(contentsOf: scratch.appendingPathComponent(DeadLetterStore.fileName)))
            let copies = (32 << 20) / letters.count
            let small = try directory("small", letters: letters, copies: 1, in: parent)
            let large = try directory("large", letters: letters, copies: copies, in: parent)
            let fileSize = letters.count * copies
            // Before, the whole file was held (a relay's start: +32 MB here), and every letter read from it
            // (recokit journal and --requeue: +250 MB). A re-queue's figure includes the journal's, which then
            // holds 170,000 more pending events.
            let count = 5_000 * copies
            let report = [
                try compare("a relay's start", relay, small: small, large: large, bound: 16 << 20),
                try compare("recokit journal", { ["journal", $0.path] }, small: small, large: large, bound: 16 << 20) { output in
                    #expect(output.hasPrefix("pending 0\ndead-lettered \(count)\n"), "\(output.prefix(200))")
                    #expect(output.split(separator: "\n").count == 2 + count)
                },
                try compare("recokit journal --requeue", { ["journal", $0.path, "--requeue"] }, small: small, large: large, bound: 24 << 20) { output in
                    #expect(output.hasPrefix("requeued \(count) dead letters\npending \(count)\ndead-lettered 0\n"), "\(output.prefix(200))")
                },
            ]
            print("\(fileSize >> 20) MB of dead letters against \(letters.count >> 10) KB: " + report.joined(separator: "; "))
            #endif
        }

        /// A vendor down for hours leaves the journal's segments full of pending events, up to
        /// `maxJournalBytes`. Opening them held every segment whole and an entry for each of their records
        /// (144 MB for 72 MB of segments, measured); one segment at a time now (a damaged one is kept whole,
        /// to quarantine its damage and write it anew).
        @Test func aRelayStartAndAnInspectionOfManySegmentsHoldAboutOne() throws {
            #if os(Linux)
            let parent = Fixtures.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: parent) }
            let page = PageImpressions(context: Fixtures.context, occurred: Date(timeIntervalSince1970: 1_764_000_000),
                                       impressions: (1...24).map {
                                           PageImpressions.Impression(instanceId: "rec_cat_1", interactionId: "act_1842", productId: "\(240 + $0)-LV09",
                                                                      position: $0)
                                       })
            let record = Array(PageImpressions.journalRecord(of: page, run: 77))
            /// A journal of 4 MiB segments holding `bytes` of pending pages.
            func journal(_ name: String, bytes: Int) throws -> (URL, events: Int) {
                let directory = parent.appendingPathComponent(name)
                let (journal, _) = try Journal.open(storage: FileJournalStorage(directory: directory), durability: .batched(every: .seconds(3600)),
                                                    maxBytes: .max, segmentBytes: 4 << 20)
                let pages = bytes / record.count
                // Committed as a tracker's committer would, so that the buffer never holds more than a few commits' worth.
                for index in 0..<pages {
                    _ = try journal.append(record)
                    if index % 1000 == 999 { try journal.commit() }
                }
                try journal.commit()
                #expect(journal.close() == nil)
                return (directory, pages * 24)
            }
            let (small, _) = try journal("small", bytes: 1 << 20)
            let (large, events) = try journal("large", bytes: 64 << 20)
            let report = [
                try compare("recokit journal", { ["journal", $0.path] }, small: small, large: large, bound: 24 << 20) { output in
                    #expect(output == "pending \(events)\ndead-lettered 0\n", "\(output.prefix(200))")
                },
                try compare("a relay's start", relay, small: small, large: large, bound: 24 << 20),
            ]
            print("64 MB of segments against 1 MB: " + report.joined(separator: "; "))
            #endif
        }
    }
}
