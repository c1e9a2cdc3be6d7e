import Foundation

/// One `recokit` subcommand.
protocol Command {
    /// The word after `recokit`.
    static var name: String { get }
    /// One line for the command list.
    static var summary: String { get }
    /// The full `--help` text.
    static var usage: String { get }
    /// Runs the command with the words after its name; returns the exit status.
    static func run(_ words: [String]) async throws -> Int32
}

/// Standard error, unbuffered, for messages and progress.
enum Console {
    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    static func out(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }
}
