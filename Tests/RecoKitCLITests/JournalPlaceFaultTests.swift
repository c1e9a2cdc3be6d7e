import Foundation
import Testing

/// A journal directory the system will not make or read: under a file, a name too long, a read-only
/// file system, a process out of file descriptors (a server under load). Each is refused with the
/// system's own reason and exit 1, where Foundation's messages said "NSCocoaErrorDomain error 512" or
/// "error 256", or a wrong reason ("You don't have permission" for a read-only file system).
@Suite("recokit relay: a journal directory the system refuses says why")
struct JournalPlaceFaultTests {
    static func relay(journal: String, before: String = "") throws -> OutputFaultTests.Run {
        try OutputFaultTests.run(["relay", "--journal", journal, "--vendor", "segmentify", "--endpoint", "http://127.0.0.1:9",
                                  "--api-key", "k", "--deadline", "1"], redirections: "", before: before)
    }

    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("recokit-place-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func aJournalUnderAFileNamesTheFile() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("file").path
        #expect(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
        let result = try Self.relay(journal: file + "/journal/deeper")
        #expect(!result.crashed && result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("error: cannot create \(file)/journal/deeper: \(file) is a file, not a directory"), "\(result.stderr)")
    }

    @Test func aNameTooLongSaysSo() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try Self.relay(journal: folder.path + "/" + String(repeating: "j", count: 300))
        #expect(!result.crashed && result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains(": File name too long"), "\(result.stderr)")
    }

    /// Whichever step runs out first (the lock, the listing, a segment), the reason is the system's; with
    /// enough descriptors the same run succeeds.
    @Test(arguments: [8, 9, 10, 11, 12, 13, 64])
    func outOfFileDescriptorsSaysSo(limit: Int) throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try Self.relay(journal: folder.path + "/journal", before: "ulimit -n \(limit);")
        #expect(!result.crashed, "\(result.stderr)")
        #expect(!result.stderr.contains("NSCocoaErrorDomain"), "\(result.stderr)")
        if result.status != 0 {
            #expect(result.status == 1, "\(result.stderr)")
            #expect(result.stderr.contains("Too many open files"), "limit \(limit): \(result.stderr)")
        }
        if limit == 64 { #expect(result.status == 0, "\(result.stderr)") }
    }
}
