/// The arguments of one command: positionals, `--name value` options (repeatable), and `--flag`s.
///
/// Hand-written so the root package keeps zero dependencies. An option's value may also be written
/// `--name=value`. Anything after `--` is positional.
package struct Arguments {
    package var positionals: [String] = []
    private var options: [String: [String]] = [:]
    private var flags: Set<String> = []

    /// Parses `words` for a command that takes the given value options and flags (names without `--`).
    package init(_ words: [String], options valueOptions: Set<String>, flags knownFlags: Set<String>) throws(UsageError) {
        var index = 0
        var onlyPositionals = false
        while index < words.count {
            let word = words[index]
            index += 1
            if onlyPositionals || !word.hasPrefix("-") || word == "-" {
                positionals.append(word)
                continue
            }
            if word == "--" { onlyPositionals = true; continue }
            var name = String(word.drop(while: { $0 == "-" }))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if name == "h" { name = "help" }
            if name == "o" { name = "output" }
            if knownFlags.contains(name) || name == "help" {
                guard inlineValue == nil else { throw UsageError("--\(name) takes no value") }
                flags.insert(name)
            } else if valueOptions.contains(name) {
                let value: String
                if let inlineValue { value = inlineValue } else {
                    guard index < words.count else { throw UsageError("--\(name) needs a value") }
                    value = words[index]
                    index += 1
                }
                options[name, default: []].append(value)
            } else {
                throw UsageError("unknown option \(word)")
            }
        }
    }

    /// The last value given for an option.
    package func value(_ name: String) -> String? { options[name]?.last }
    /// Every value given for a repeatable option, in order.
    package func values(_ name: String) -> [String] { options[name] ?? [] }
    /// Whether a flag was given.
    package func flag(_ name: String) -> Bool { flags.contains(name) }
}

/// A command line that does not follow a command's usage. Exit status 2.
///
/// Reported as swift-argument-parser does: one line saying what is wrong, then where to read more
/// (`see 'recokit help render'`), never the whole help text.
package struct UsageError: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }

    /// Prints the error's line and the help hint on standard error.
    package func report(seeHelpOf command: String?) {
        Console.error("error: \(description)")
        Console.error("see 'recokit help\(command.map { " " + $0 } ?? "")'")
    }
}
