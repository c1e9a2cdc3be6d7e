/// `recokit decode`: not built yet (its issue owns this file).
enum DecodeCommand: Command {
    static let name = "decode"
    static let summary = "(not built yet)"
    static let usage = "Usage: recokit decode (not built yet)"
    static func run(_ words: [String]) async throws -> Int32 {
        Console.error("error: recokit decode is not built yet")
        return 1
    }
}
