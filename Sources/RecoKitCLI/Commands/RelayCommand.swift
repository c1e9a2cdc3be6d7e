/// `recokit relay`: not built yet (its issue owns this file).
enum RelayCommand: Command {
    static let name = "relay"
    static let summary = "(not built yet)"
    static let usage = "Usage: recokit relay (not built yet)"
    static func run(_ words: [String]) async throws -> Int32 {
        Console.error("error: recokit relay is not built yet")
        return 1
    }
}
