import Foundation

/// Wall-clock measurement for benchmarks: warm up, then run until `minimumSeconds` have passed, several
/// rounds, and keep the best round (the one least disturbed by other work on a shared machine).
public struct Timing: Sendable {
    /// Operations per second in the best round.
    public let operationsPerSecond: Double
    /// Seconds per operation in the best round.
    public var secondsPerOperation: Double { 1 / operationsPerSecond }

    public static func run(rounds: Int = 5, minimumSeconds: Double = 0.4, _ body: () throws -> Void) rethrows -> Timing {
        let (rounds, minimumSeconds) = isCheckRun ? (1, 0.02) : (rounds, minimumSeconds)
        for _ in 0..<3 { try body() }
        var best = 0.0
        for _ in 0..<rounds {
            var count = 0
            let start = DispatchTime.now().uptimeNanoseconds
            var elapsed = 0.0
            repeat {
                try body()
                count += 1
                elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            } while elapsed < minimumSeconds
            best = max(best, Double(count) / elapsed)
        }
        return Timing(operationsPerSecond: best)
    }

    /// Measures several bodies in alternation: every round runs each body for `minimumSeconds`, one after
    /// the other, starting with a different body each round, so that load from other work on a shared
    /// machine falls on all of them alike. Keeps each body's best round, as ``run(rounds:minimumSeconds:_:)``.
    public static func interleaved(
        rounds: Int = 5, minimumSeconds: Double = 0.4, _ bodies: [() throws -> Void]
    ) throws -> [Timing] {
        let (rounds, minimumSeconds) = isCheckRun ? (1, 0.02) : (rounds, minimumSeconds)
        for body in bodies {
            for _ in 0..<3 { try body() }
        }
        var best = [Double](repeating: 0, count: bodies.count)
        for round in 0..<rounds {
            for step in bodies.indices {
                let which = (round + step) % bodies.count
                var count = 0
                let start = DispatchTime.now().uptimeNanoseconds
                var elapsed = 0.0
                repeat {
                    try bodies[which]()
                    count += 1
                    elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                } while elapsed < minimumSeconds
                best[which] = max(best[which], Double(count) / elapsed)
            }
        }
        return best.map { Timing(operationsPerSecond: $0) }
    }
}

/// A plain table printed to standard output.
public struct Table {
    let headers: [String]
    var rows: [[String]] = []

    public init(_ headers: String...) { self.headers = headers }

    public mutating func add(_ cells: String...) { rows.append(cells) }

    public func print() {
        let widths = headers.indices.map { column in ([headers[column]] + rows.map { $0[column] }).map(\.count).max() ?? 0 }
        func line(_ cells: [String]) -> String {
            zip(cells, widths).enumerated().map { index, pair in
                index == 0 ? pair.0.padding(toLength: pair.1, withPad: " ", startingAt: 0) : String(repeating: " ", count: pair.1 - pair.0.count) + pair.0
            }.joined(separator: "  ")
        }
        Swift.print(line(headers))
        Swift.print(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  "))
        rows.forEach { Swift.print(line($0)) }
    }
}

/// A number with a fixed count of decimals.
public func format(_ value: Double, decimals: Int = 1) -> String { String(format: "%.\(decimals)f", value) }

/// Whether a target is met, in words for the benchmark's last line.
public func verdict(_ met: Bool) -> String { met ? "MET" : "NOT MET" }
