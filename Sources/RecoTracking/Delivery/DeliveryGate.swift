import Foundation

/// Whether a tracker's senders may deliver, and who probes while the destination fails: a plain value
/// with transitions that do no I/O (the senders sleep and send; the gate only decides).
///
/// While the destination is healthy every sender sends. The first failure closes the gate until a
/// probe time; from then on one sender at a time holds the probe: it waits until that time, sends one
/// small request, and either opens the gate for everyone (the vendor answered) or moves the probe time
/// on by the retry policy's next delay (at most ``RetryPolicy/maximumDelay``, 2 s by default, never
/// less than the vendor's `Retry-After`). The other senders keep their batches and wait without
/// sending, so an outage of any length costs one request per probe interval, and delivery resumes
/// within one interval of the vendor's recovery.
///
/// The probe time is a date of the tracker's clock, which is the wall clock: it can step back (an NTP
/// correction, a clock that was set ahead). A probe therefore never waits longer than the wait that set
/// its time, however far the clock moved back meanwhile (`Turn.probe(at:atMost:)`).
struct DeliveryGate: Sendable {
    /// What a sender does next.
    enum Turn: Equatable {
        /// The gate is open: send the whole batch.
        case send
        /// This sender holds the probe: wait until the date (if it is still ahead) but no longer than
        /// `atMost` seconds (the wait that set the date), then send one event.
        case probe(at: Date, atMost: TimeInterval)
        /// Another sender holds the probe: wait for it.
        case wait
    }

    /// Failures in a row (any sender); the next delay's attempt number.
    private(set) var failures = 0
    /// When the next probe goes; nil while the gate is open.
    private(set) var nextProbe: Date?
    /// The wait that set ``nextProbe``, in seconds.
    private(set) var probeDelay: TimeInterval = 0
    /// The probe time the current (or last) probe waited for.
    private var probeTaken: Date?
    /// Whether a sender holds the probe.
    private(set) var probing = false

    /// Whether senders may send whole batches.
    var isOpen: Bool { nextProbe == nil }

    /// The next step of a sender that has a batch to send.
    mutating func turn() -> Turn {
        guard let nextProbe else { return .send }
        guard !probing else { return .wait }
        probing = true
        probeTaken = nextProbe
        return .probe(at: nextProbe, atMost: probeDelay)
    }

    /// A request failed (a passing fault or a configuration fault); `delay` is the wait before the next
    /// probe, computed for attempt ``failures`` + 1. `wasProbe`: the sender held the probe.
    ///
    /// The longest wait asked for stands (another sender's `Retry-After` is not cut short by a later,
    /// shorter delay), counted from `now`: what a standing probe time still asks is its distance from
    /// `now`, but never more than the wait that set it (the clock may have stepped back since), and
    /// nothing once the probe that failed here went for it.
    mutating func failed(now: Date, delay: Duration, wasProbe: Bool) {
        failures += 1
        let seconds = Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18
        var standing = -Double.infinity
        if let nextProbe, !(wasProbe && nextProbe == probeTaken) { standing = min(nextProbe.timeIntervalSince(now), probeDelay) }
        probeDelay = max(seconds, standing)
        nextProbe = now.addingTimeInterval(probeDelay)
        if wasProbe { probing = false }
    }

    /// The vendor answered about the events (stored, refused or too large): everyone sends again.
    mutating func answered() {
        failures = 0
        nextProbe = nil
        probing = false
    }

    /// A probing sender stopped without an answer (cancelled): another may probe.
    mutating func abandonProbe() { probing = false }
}
