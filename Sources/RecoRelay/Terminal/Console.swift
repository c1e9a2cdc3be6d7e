import Foundation

/// Standard output and standard error, unbuffered, for messages and progress (through
/// ``StandardStreams``: a failure to write is reported, never a trap).
///
/// `error` and `out` print ONE line: whatever it holds (a vendor's message, a product name, a file
/// name) has its control characters escaped by ``TerminalText``, line feeds included, so no value can
/// forge a line or drive the terminal. `errorText` and `outText` print the program's own text (help,
/// usage), as it is.
package enum Console {
    /// One line on standard error, control characters escaped.
    package static func error(_ line: String) {
        StandardStreams.writeError((TerminalText.escaped(line) + "\n").utf8)
    }

    /// One line on standard output, control characters escaped.
    package static func out(_ line: String) {
        StandardStreams.writeOutput((TerminalText.escaped(line) + "\n").utf8)
    }

    /// The program's own text (several lines) on standard error, as it is.
    package static func errorText(_ text: String) {
        StandardStreams.writeError((text + "\n").utf8)
    }

    /// The program's own text (several lines) on standard output, as it is.
    package static func outText(_ text: String) {
        StandardStreams.writeOutput((text + "\n").utf8)
    }
}

/// A command that cannot go on (not a usage error): one `error:` line, exit status 1.
package struct CommandFailure: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
