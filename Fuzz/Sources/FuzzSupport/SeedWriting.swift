import Foundation

/// For a target's `LLVMFuzzerInitialize`: when `FUZZ_WRITE_SEEDS` names a directory, writes `seeds()`
/// there (each a file named as given) and exits, 0 when all were written; otherwise returns 0 and the
/// fuzzer runs. Targets whose seeds must be made by the code under test (signed tokens, journal records)
/// write their `Fuzz/Corpus/<target>/` this way.
public func writeCorpusIfAsked(target: String, _ seeds: () -> [(name: String, bytes: [UInt8])]) -> CInt {
    guard let directory = ProcessInfo.processInfo.environment["FUZZ_WRITE_SEEDS"] else { return 0 }
    let folder = URL(fileURLWithPath: directory, isDirectory: true)
    do {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let made = seeds()
        for seed in made { try Data(seed.bytes).write(to: folder.appendingPathComponent(seed.name)) }
        print("wrote \(made.count) seeds to \(directory)")
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("\(target): cannot write seeds to \(directory): \(error)\n".utf8))
        exit(1)
    }
}
