import Foundation

/// Reads an option's value from its flag, else from its environment variable, and checks it.
struct EnvironmentReader {
    let environment: [String: String]

    /// The flag's text, else the variable's.
    func text(_ flag: String?, _ variable: String) -> String? { flag ?? environment[variable] }

    /// Whether a yes/no variable says yes (`1`, `true`, `yes`).
    func isOn(_ variable: String) -> Bool { ["1", "true", "yes"].contains(environment[variable]?.lowercased() ?? "") }

    /// A whole number within `range`, from the flag or the variable.
    func number(_ flag: Int?, _ name: String, _ variable: String, _ range: ClosedRange<Int> = 0...65_535) throws(OptionsError) -> Int? {
        let value: Int
        if let flag {
            value = flag
        } else if let text = environment[variable] {
            guard let number = Int(text) else { throw .invalid(variable, text, "a whole number from \(range.lowerBound) to \(range.upperBound)") }
            value = number
        } else {
            return nil
        }
        guard range.contains(value) else { throw .invalid(name, String(value), "a whole number from \(range.lowerBound) to \(range.upperBound)") }
        return value
    }

    /// An http(s) URL with a host, from the flag or the variable.
    func url(_ flag: String?, _ name: String, _ variable: String) throws(OptionsError) -> URL? {
        guard let text = text(flag, variable) else { return nil }
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
            throw .invalid(flag == nil ? variable : name, text, "an http(s) URL")
        }
        return url
    }

    /// The bytes of hex text; nil for an odd length or a character that is not a hex digit.
    static func bytes(hex text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else { return nil }
            out.append(byte)
        }
        return out
    }
}
