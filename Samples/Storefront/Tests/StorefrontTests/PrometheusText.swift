/// The samples of a Prometheus text exposition (format 0.0.4), read as a scraper reads them: each line
/// `name{label="value",…} value [timestamp]`, label values with `\\`, `\"` and `\n` escaped; `# TYPE`
/// lines give each family's type; other comments and blank lines are skipped.
struct PrometheusText {
    struct Sample: Equatable {
        var name: String
        var labels: [String: String]
        var value: Double
    }

    struct ParseError: Error, CustomStringConvertible {
        let line: Int
        let text: String
        let reason: String
        var description: String { "line \(line): \(reason): \(text)" }
    }

    private(set) var samples: [Sample] = []
    /// Each family's type (`counter`, `gauge`, `histogram`), by name.
    private(set) var types: [String: String] = [:]

    init(parsing text: String) throws {
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = Substring(line)
            if line.isEmpty { continue }
            if line.hasPrefix("#") {
                let words = line.split(separator: " ")
                if words.count >= 4, words[1] == "TYPE" { types[String(words[2])] = String(words[3]) }
                continue
            }
            do {
                samples.append(try Self.sample(line))
            } catch {
                throw ParseError(line: index + 1, text: String(line), reason: error.text)
            }
        }
    }

    /// The value of the one sample named `name` whose labels include `labels`; nil when there is none
    /// (or more than one: say which labels tell them apart).
    func value(_ name: String, _ labels: [String: String] = [:]) -> Double? {
        let found = samples.filter { sample in sample.name == name && labels.allSatisfy { sample.labels[$0.key] == $0.value } }
        return found.count == 1 ? found[0].value : nil
    }

    private static func sample(_ line: Substring) throws(Reason) -> Sample {
        var rest = line[...]
        let name = rest.prefix { $0 != "{" && $0 != " " }
        guard !name.isEmpty else { throw "no metric name" }
        rest = rest.dropFirst(name.count)
        var labels: [String: String] = [:]
        if rest.first == "{" {
            rest = rest.dropFirst()
            while rest.first != "}" {
                let key = rest.prefix { $0 != "=" }
                rest = rest.dropFirst(key.count)
                guard rest.hasPrefix("=\"") else { throw "a label without =\"" }
                rest = rest.dropFirst(2)
                var value = ""
                while true {
                    guard let character = rest.popFirst() else { throw "a label value without its closing quote" }
                    if character == "\"" { break }
                    if character == "\\" {
                        switch rest.popFirst() {
                        case "n": value.append("\n")
                        case "\\": value.append("\\")
                        case "\"": value.append("\"")
                        default: throw "an unknown escape in a label value"
                        }
                    } else {
                        value.append(character)
                    }
                }
                guard labels.updateValue(value, forKey: String(key)) == nil else { throw "the label \(key) twice" }
                if rest.first == "," { rest = rest.dropFirst() }
                guard !rest.isEmpty else { throw "labels without their closing brace" }
            }
            rest = rest.dropFirst()
        }
        let fields = rest.split(separator: " ")
        guard (1...2).contains(fields.count) else { throw "not one value (and a timestamp)" }
        let value: Double? = switch fields[0] {
        case "+Inf": .infinity
        case "-Inf": -.infinity
        case "NaN": .nan
        default: Double(fields[0])
        }
        guard let value else { throw "a value that is not a number" }
        return Sample(name: String(name), labels: labels, value: value)
    }
}

/// Why a sample line is not read.
private struct Reason: Error, ExpressibleByStringInterpolation {
    let text: String
    init(stringLiteral text: String) { self.text = text }
}
