/// `recokit render`: not built yet (its issue owns this file).
enum RenderCommand: Command {
    static let name = "render"
    static let summary = "(not built yet)"
    static let usage = "Usage: recokit render (not built yet)"
    static func run(_ words: [String]) async throws -> Int32 {
        Console.error("error: recokit render is not built yet")
        return 1
    }
}
