import Foundation
import RecoRelay

/// The program: picks the command named by the first word and runs it, with argument-parser's manners.
///
/// `recokit help [COMMAND]`, `--help` and `-h` print help on standard output (exit 0); a wrong command
/// line prints one line saying what is wrong and `see 'recokit help COMMAND'` (exit 2); a command's
/// other failures print one `error:` line in plain words (exit 1).
enum Recokit {
    /// Every command, in the order `recokit --help` lists them.
    static let commands: [any Command.Type] = [
        DecodeCommand.self,
        RenderCommand.self,
        PreviewCommand.self,
        RelayCommand.self,
        JournalCommand.self,
    ]

    static let overview = """
        recokit: render product recommendations and track how people interact with them.

        Usage: recokit <command> [options]

        Commands:
        \(commands.map { "  " + $0.name.padding(toLength: 10, withPad: " ", startingAt: 0) + $0.summary }.joined(separator: "\n"))

        Run `recokit help <command>` (or `recokit <command> --help`) for a command's options.
        """

    /// Runs the command line `words` (without the program's name); returns the exit status.
    static func run(_ words: [String]) async -> Int32 {
        guard let first = words.first else {
            Console.outText(overview)
            return 2
        }
        if ["-h", "--help", "help"].contains(first) {
            // `recokit help`, `recokit help render`, `recokit --help render`
            guard words.count > 1 else {
                Console.outText(overview)
                return 0
            }
            guard let command = command(named: words[1]) else {
                UsageError("no command '\(words[1])'; the commands are \(commandNames)").report(seeHelpOf: nil)
                return 2
            }
            Console.outText(command.usage)
            return 0
        }
        guard let command = command(named: first) else {
            UsageError("unknown command '\(first)'; the commands are \(commandNames)").report(seeHelpOf: nil)
            return 2
        }
        let rest = Array(words.dropFirst())
        if asksForHelp(rest) {
            Console.outText(command.usage)
            return 0
        }
        do {
            return try await command.run(rest)
        } catch let error as UsageError {
            error.report(seeHelpOf: command.name)
            return 2
        } catch {
            Console.error("error: \(FileProblem.reason(error))")
            return 1
        }
    }

    private static func command(named name: String) -> (any Command.Type)? {
        commands.first { $0.name == name }
    }

    private static var commandNames: String { commands.map { $0.name }.joined(separator: ", ") }

    /// Whether `--help` or `-h` comes before any `--`.
    private static func asksForHelp(_ words: [String]) -> Bool {
        for word in words {
            if word == "--" { return false }
            if word == "--help" || word == "-h" { return true }
        }
        return false
    }
}
