#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// `recokit relay`'s answer to SIGTERM, SIGINT and SIGHUP (a service manager stopping it, a deploy, Ctrl-C,
/// the terminal or the SSH session it ran in going away).
///
/// The first while stdin is read ends the input at what has arrived (``RelayInput/endAtWhatHasArrived()``):
/// the lines already in the pipe are journaled and acknowledged, then delivery goes on until
/// `--deadline` and the relay exits as at the end of its input. Killed at once, as the signal's default
/// would, a relay dropped the lines it had read but not yet committed, and with them every line a
/// producer had written into the pipe: `app | recokit relay` lost them on every stop. Any later signal
/// (or one while delivering after the input ended) stops the process at once, as the signal would
/// have: everything acknowledged is in the journal, for the next run or `--drain`.
///
/// A relay that waits for room in a full journal when the first signal comes waits at most `--deadline`
/// more (``endedInput(atLeast:)``), then refuses the lines that had arrived: without that bound, a vendor
/// that stayed down kept a stopping relay waiting until it was killed, and the lines it held went
/// without a word. A drain (no input) stops at the first signal, saying what stays in the journal.
final class RelaySignals: @unchecked Sendable {
    private static let handled = [SIGTERM, SIGINT, SIGHUP]
    private let sources: [any DispatchSourceSignal]
    private let lock = NSLock()
    private var reading: Bool
    private var first: (name: String, at: ContinuousClock.Instant)?

    /// Takes SIGTERM, SIGINT and SIGHUP for `input`, or for a drain when there is none.
    init(input: RelayInput?) {
        reading = input != nil
        var sources: [any DispatchSourceSignal] = []
        for number in Self.handled {
            signal(number, SIG_IGN)
            sources.append(DispatchSource.makeSignalSource(signal: number, queue: .global()))
        }
        self.sources = sources
        for (source, number) in zip(sources, Self.handled) {
            source.setEventHandler { [self] in received(number, input: input) }
            source.resume()
        }
    }

    /// The signal that ended the input (`SIGTERM`), if one did.
    var endedInput: String? { lock.withLock { first?.name } }

    /// The signal that ended the input, if one did at least `duration` ago.
    func endedInput(atLeast duration: Duration) -> String? {
        lock.withLock { first.flatMap { $0.at.duration(to: .now) >= duration ? $0.name : nil } }
    }

    /// The input ended (its end, or a signal's): a signal from now on stops the process at once.
    func inputEnded() { lock.withLock { reading = false } }

    /// `SIGTERM`, `SIGINT` or `SIGHUP`.
    static func name(of number: Int32) -> String {
        switch number {
        case SIGTERM: "SIGTERM"
        case SIGINT: "SIGINT"
        case SIGHUP: "SIGHUP"
        default: "signal \(number)"
        }
    }

    private func received(_ number: Int32, input: RelayInput?) {
        let name = Self.name(of: number)
        let ending = lock.withLock { () -> Bool in
            guard reading, first == nil else { return false }
            first = (name, .now)
            return true
        }
        guard ending, let input else {
            Console.error(input == nil ? "relay: \(name): stopping the drain now; what was not delivered stays in the journal, for the next run or --drain"
                                       : "relay: \(name): stopping now; what was acknowledged is in the journal, for the next run or --drain")
            signal(number, SIG_DFL)
            kill(getpid(), number)  // to the process: raise(3) would pend on this thread, where dispatch blocks signals
            return
        }
        Console.error("relay: \(name): reading no more input; what has arrived is journaled and acknowledged, then delivered "
                      + "until the deadline (another \(name) stops at once)")
        input.endAtWhatHasArrived()
    }
}
