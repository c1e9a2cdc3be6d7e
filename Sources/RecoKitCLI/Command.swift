import Foundation

/// One `recokit` subcommand.
protocol Command: Sendable {
    /// The word after `recokit`.
    static var name: String { get }
    /// One line for the command list.
    static var summary: String { get }
    /// The full `--help` text.
    static var usage: String { get }
    /// Runs the command with the words after its name; returns the exit status.
    static func run(_ words: [String]) async throws -> Int32
}

/// Standard output and standard error, unbuffered, for messages and progress (through
/// ``StandardStreams``: a failure to write is reported, never a trap).
///
/// `error` and `out` print ONE line: whatever it holds (a vendor's message, a product name, a file
/// name) has its control characters escaped by ``TerminalText``, line feeds included, so no value can
/// forge a line or drive the terminal. `errorText` and `outText` print the program's own text (help,
/// usage), as it is.
enum Console {
    /// One line on standard error, control characters escaped.
    static func error(_ line: String) {
        StandardStreams.writeError((TerminalText.escaped(line) + "\n").utf8)
    }

    /// One line on standard output, control characters escaped.
    static func out(_ line: String) {
        StandardStreams.writeOutput((TerminalText.escaped(line) + "\n").utf8)
    }

    /// The program's own text (several lines) on standard error, as it is.
    static func errorText(_ text: String) {
        StandardStreams.writeError((text + "\n").utf8)
    }

    /// The program's own text (several lines) on standard output, as it is.
    static func outText(_ text: String) {
        StandardStreams.writeOutput((text + "\n").utf8)
    }
}

/// A command that cannot go on (not a usage error): one `error:` line, exit status 1.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
