/// `recokit journal`: not built yet (its issue owns this file).
enum JournalCommand: Command {
    static let name = "journal"
    static let summary = "(not built yet)"
    static let usage = "Usage: recokit journal (not built yet)"
    static func run(_ words: [String]) async throws -> Int32 {
        Console.error("error: recokit journal is not built yet")
        return 1
    }
}
