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
///
/// The signals are taken before the journal is opened (``init()``), and a first signal while it opens
/// is kept for the input (``reading(_:)``) or the drain (``draining()``): opening a large journal takes
/// seconds (1.7 s for a million pending events), and a stop in that time killed the relay with the
/// lines in its pipe, without a word.
final class RelaySignals: @unchecked Sendable {
    private let lock = NSLock()

    /// What a signal meets.
    private enum Stage {
        /// The store is being opened: a first signal is kept for what comes next.
        case opening
        /// Delivering without input (`--deliver-only`): the first signal ends it, for the drain.
        case delivering(CheckedContinuation<Void, Never>)
        /// Stdin is read: a first signal ends it at what has arrived.
        case reading(RelayInput)
        /// A drain, or delivery after the input ended: a signal stops the process at once.
        case stopping(drain: Bool)
    }

    private var stage = Stage.opening
    /// The first signal and when it came.
    private var first: (number: Int32, at: ContinuousClock.Instant)?

    /// What the store is called in messages (`journal`).
    private let noun: String

    /// Takes SIGTERM, SIGINT and SIGHUP from now on (``StopSignalPipe``).
    init(noun: String = "journal") {
        self.noun = noun
        StopSignalPipe.route { [weak self] number in self?.received(number) }
    }

    /// The signals stop the process again, as their defaults would.
    deinit { StopSignalPipe.route(to: nil) }

    /// The journal is open and `input` is read: a signal that came while it opened ends the input now.
    func reading(_ input: RelayInput) {
        let signalled = lock.withLock { () -> Bool in
            stage = .reading(input)
            return first != nil
        }
        if signalled { input.endAtWhatHasArrived() }
    }

    /// The journal is open for a drain: a signal that came while it opened stops the drain now.
    func draining() {
        let signalled = lock.withLock { () -> Int32? in
            stage = .stopping(drain: true)
            return first?.number
        }
        if let signalled { stop(signalled, drain: true) }
    }

    /// Returns at the first signal (or at once, if one came while the store opened): a relay that only
    /// delivers then drains until its deadline; a later signal stops it at once.
    func delivering() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let signalled = lock.withLock { () -> Bool in
                if first != nil { stage = .stopping(drain: true); return true }
                stage = .delivering(continuation)
                return false
            }
            if signalled { continuation.resume() }
        }
    }

    /// The signal that ended the input (`SIGTERM`), if one did.
    var endedInput: String? { lock.withLock { first.map { Self.name(of: $0.number) } } }

    /// The signal that ended the input, if one did at least `duration` ago.
    func endedInput(atLeast duration: Duration) -> String? {
        lock.withLock { first.flatMap { $0.at.duration(to: .now) >= duration ? Self.name(of: $0.number) : nil } }
    }

    /// The input ended (its end, or a signal's): a signal from now on stops the process at once.
    func inputEnded() { lock.withLock { stage = .stopping(drain: false) } }

    /// `SIGTERM`, `SIGINT` or `SIGHUP`.
    static func name(of number: Int32) -> String {
        switch number {
        case SIGTERM: "SIGTERM"
        case SIGINT: "SIGINT"
        case SIGHUP: "SIGHUP"
        default: "signal \(number)"
        }
    }

    private func received(_ number: Int32) {
        let name = Self.name(of: number)
        enum Action { case keep, end(RelayInput), endDelivery(CheckedContinuation<Void, Never>), stop(drain: Bool) }
        let action = lock.withLock { () -> Action in
            let isFirst = first == nil
            if isFirst { first = (number, .now) }
            switch stage {
            case .opening: return isFirst ? .keep : .stop(drain: false)
            case .reading(let input): return isFirst ? .end(input) : .stop(drain: false)
            case .delivering(let continuation):
                stage = .stopping(drain: true)
                return .endDelivery(continuation)
            case .stopping(let drain): return .stop(drain: drain)
            }
        }
        switch action {
        case .keep:
            Console.error("relay: \(name) while the \(noun) opens: what has arrived on stdin will be kept and acknowledged "
                          + "once it is open, then delivered until the deadline (another \(name) stops at once)")
        case .end(let input):
            Console.error("relay: \(name): reading no more input; what has arrived is kept and acknowledged, then delivered "
                          + "until the deadline (another \(name) stops at once)")
            input.endAtWhatHasArrived()
        case .endDelivery(let continuation):
            Console.error("relay: \(name): delivering until the deadline, then stopping (another \(name) stops at once)")
            continuation.resume()
        case .stop(let drain):
            stop(number, drain: drain)
        }
    }

    /// Stops the process as `number`'s default would, saying what stays.
    private func stop(_ number: Int32, drain: Bool) {
        let name = Self.name(of: number)
        Console.error(drain ? "relay: \(name): stopping the drain now; what was not delivered stays in the \(noun), for the next run or --drain"
                            : "relay: \(name): stopping now; what was acknowledged is in the \(noun), for the next run or --drain")
        signal(number, SIG_DFL)
        kill(getpid(), number)  // to the process: raise(3) would pend on this thread, where dispatch blocks signals
    }
}
