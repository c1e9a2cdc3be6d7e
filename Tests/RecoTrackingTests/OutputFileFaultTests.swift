import Foundation
import Testing

extension RelayProcessSuite {
    /// The files the command line writes, `recokit preview`'s pages and index and `render -o FILE`, with
    /// one system call on them failing (`Fixtures/journal-faults.c` preloaded into real processes; the
    /// shim lives with the journal's fault tests, so these do too). A preview is regenerated over the
    /// last one, which a browser or a server may be showing: a disk full for a moment used to leave
    /// `index.html` empty (Foundation wrote it in place). Now every file is whole, the last one or the
    /// new one; no temporary file stays behind; a failure exits 1 naming the file and the system's
    /// words; and a run after the fault restores everything.
    ///
    /// Every case is tried, not a sample: each call the writing of a file makes (`open` of its new file,
    /// `write`, `fsync`, `rename` over the old one) failing with `EIO`, `ENOSPC`, as a short write, or
    /// interrupted by a signal (`EINTR`, made again: the run succeeds).
    /// The shim counts calls per process, and the preview writes each page in a process of its own, so
    /// the first call of a name fails in every page's process (and in the gallery's, writing what failed
    /// and the index); the index's `rename` alone fails only the index.
    @Suite("Files the command line writes, a system call failing", .serialized,
           .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/maps"), "LD_PRELOAD shim (Linux)"))
    struct OutputFileFaultTests {
        static let payloads = ["segmentify-v3.json", "reteno-recoms-full.json", "8digits-ack.json"].map {
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Samples/Payloads/\($0)").path
        }

        struct Fault: CustomTestStringConvertible, Sendable {
            let name: String
            let error: String
            /// Only calls on the file of this name count (all when empty): `index.html` fails the
            /// gallery's index alone, after every page was written.
            var file = ""
            var testDescription: String { "\(name) \(error)" + (file.isEmpty ? "" : " on \(file)") }
            /// A short write is finished by the next, and an interrupted call is made again; every other
            /// call fails the file it writes.
            var mustShow: Bool { !(name == "write" && error == "SHORT") && !isInterruption }
            /// Interrupted by a signal (`EINTR`): made again, so the run succeeds.
            var isInterruption: Bool { error == "EINTR" }
        }

        /// The first call of each name a file's writing makes (`open` of its new file, `write`, `fsync`,
        /// `rename` over the old one), and the index's `rename` alone, each failing in each way, or
        /// interrupted by a signal (`EINTR`: the preview and `render -o` failed on it).
        static let faults = ["EIO", "ENOSPC", "SHORT", "EINTR"].flatMap { error in
            ["open", "write", "fsync", "rename"].map { Fault(name: $0, error: error) } + [Fault(name: "rename", error: error, file: "index.html")]
        }

        /// The folder's files by name (temporary ones too), with their bytes.
        static func contents(_ folder: URL) throws -> [String: Data] {
            var files: [String: Data] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
                files[name] = try Data(contentsOf: folder.appendingPathComponent(name))
            }
            return files
        }

        /// Runs `recokit` with `arguments`, under `fault` when given; its status and stderr once it exited
        /// (it must exit, not crash).
        static func recokit(_ arguments: [String], fault: Fault?, folder: URL) throws -> (status: Int32, stderr: String) {
            let log = Fixtures.temporaryFile(extension: "log")
            defer { try? FileManager.default.removeItem(at: log) }
            let environment = try fault.map {
                try JournalFaultShim.call(1, named: $0.name, on: $0.file, error: $0.error, repeat: 1, directory: folder, log: log)
            } ?? [:]
            let child = try RelayProcess(arguments, environment: environment)
            child.closeInput()
            let status = child.wait()
            #expect(child.process.terminationReason == .exit, "\(fault?.testDescription ?? "no fault"): crashed: \(child.stderr.suffix(800))")
            return (status, child.stderr)
        }

        /// Checks what a failure said: the file, and the system's words.
        static func expectNamed(_ stderr: String, _ fault: Fault, _ folder: URL) {
            let words = ["input/output error", "no space left on device"].contains { stderr.contains($0) }
            #expect(stderr.contains("error: cannot write \(folder.path)") && words, "\(fault.testDescription): \(stderr.suffix(800))")
        }

        @Test(arguments: faults)
        func aPreviewRegeneratedWhileACallFailsLeavesEveryFileWhole(_ fault: Fault) throws {
            let folder = Fixtures.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: folder) }
            let preview = ["preview", "-o", folder.path] + Self.payloads
            #expect(try Self.recokit(preview, fault: nil, folder: folder).status == 0)
            let last = try Self.contents(folder)
            #expect(last.count == Self.payloads.count + 1)

            let (status, stderr) = try Self.recokit(preview, fault: fault, folder: folder)
            let now = try Self.contents(folder)
            #expect(Set(now.keys) == Set(last.keys), "\(fault.testDescription): no file lost, none left behind: \(now.keys.sorted())")
            for (name, bytes) in now where bytes != last[name] {
                // A page whose process failed says so, written whole by the gallery; nothing else changes.
                let text = String(decoding: bytes, as: UTF8.self)
                #expect(name != "index.html" && text.hasSuffix("</html>\n") && text.contains("no result"),
                        "\(fault.testDescription): \(name) is neither the last page nor a whole one: \(text.suffix(200))")
            }
            if fault.isInterruption {
                #expect(status == 0, "\(fault.testDescription): an interrupted call is made again: \(stderr.suffix(800))")
            }
            if fault.mustShow || status != 0 {
                #expect(status == 1, "\(fault.testDescription): \(stderr.suffix(800))")
                Self.expectNamed(stderr, fault, folder)
            } else {
                #expect(now == last, "\(fault.testDescription): exit 0, so every file is the same")
            }

            #expect(try Self.recokit(preview, fault: nil, folder: folder).status == 0)
            #expect(try Self.contents(folder) == last, "\(fault.testDescription): the run after the fault restores every page")
        }

        @Test(arguments: faults.filter(\.file.isEmpty))
        func aRenderedFileIsTheOldOrTheNewWhileACallFails(_ fault: Fault) throws {
            let folder = Fixtures.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: folder) }
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let file = folder.appendingPathComponent("blocks.html")
            try Data("the blocks as they were\n".utf8).write(to: file)
            try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: file.path)
            let render = ["render", Self.payloads[0], "--template", "carousel", "-o", file.path]
            let (status, stderr) = try Self.recokit(render, fault: fault, folder: folder)
            let now = try Self.contents(folder)
            #expect(now.keys.sorted() == ["blocks.html"], "\(fault.testDescription): \(now.keys.sorted())")
            let text = String(decoding: now["blocks.html"] ?? Data(), as: UTF8.self)
            if fault.mustShow {
                #expect(status == 1 && text == "the blocks as they were\n", "\(fault.testDescription): \(stderr.suffix(600))")
                let words = ["input/output error", "no space left on device"].contains { stderr.contains($0) }
                #expect(stderr.contains("error: cannot write \(file.path): ") && words && stderr.contains("(the file is as it was)"), "\(stderr)")
            } else {
                #expect(status == 0 && text.contains("data-reco-instance-id"), "\(fault.testDescription): \(stderr.suffix(600))")
                let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
                #expect(mode == 0o640, "the file keeps its mode")
            }
        }
    }
}
