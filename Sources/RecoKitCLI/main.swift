import Foundation
import RecoKit

/// Every command, in the order `recokit --help` lists them.
let commands: [any Command.Type] = [
    DecodeCommand.self,
    RenderCommand.self,
    PreviewCommand.self,
    RelayCommand.self,
    JournalCommand.self,
]

let overview = """
    recokit: render product recommendations and track how people interact with them.

    Usage: recokit <command> [options]

    Commands:
    \(commands.map { "  " + $0.name.padding(toLength: 10, withPad: " ", startingAt: 0) + $0.summary }.joined(separator: "\n"))

    Run `recokit <command> --help` for a command's options.
    """

var words = Array(CommandLine.arguments.dropFirst())
guard let first = words.first, !["-h", "--help", "help"].contains(first) else {
    Console.outText(overview)
    exit(words.isEmpty ? 2 : 0)
}
guard let command = commands.first(where: { $0.name == first }) else {
    Console.error("error: unknown command '\(first)'")
    Console.errorText("\n" + overview)
    exit(2)
}
words.removeFirst()
if words.contains("--help") || words.contains("-h") {
    Console.outText(command.usage)
    exit(0)
}
do {
    exit(try await command.run(words))
} catch let error as UsageError {
    Console.error("error: \(error)")
    Console.errorText("\n" + command.usage)
    exit(2)
} catch {
    Console.error("error: \(error)")
    exit(1)
}
