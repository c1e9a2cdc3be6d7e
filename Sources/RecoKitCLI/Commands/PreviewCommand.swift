/// `recokit preview`: not built yet (its issue owns this file).
enum PreviewCommand: Command {
    static let name = "preview"
    static let summary = "(not built yet)"
    static let usage = "Usage: recokit preview (not built yet)"
    static func run(_ words: [String]) async throws -> Int32 {
        Console.error("error: recokit preview is not built yet")
        return 1
    }
}
