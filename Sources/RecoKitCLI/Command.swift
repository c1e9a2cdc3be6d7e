import Foundation
import RecoRelay

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

