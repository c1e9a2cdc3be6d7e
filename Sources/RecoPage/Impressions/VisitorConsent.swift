import RecoKit

/// A visitor's answer to the consent question about tracking.
public enum Consent: String, Hashable, Sendable {
    /// Not answered yet: interactions are kept aside, not sent.
    case pending
    /// Granted: interactions are sent, those kept aside first.
    case granted
    /// Refused or withdrawn: what was kept aside is discarded, and nothing more is recorded.
    case revoked
}

/// One visitor's consent and the interactions kept aside while it is pending: a plain value whose
/// transitions say what to send or discard; it does no I/O itself (``ImpressionGate`` does).
///
/// At most ``limit`` interactions are kept aside; past that the oldest is dropped and counted.
public struct VisitorConsent: Sendable {
    /// The consent now.
    public private(set) var consent: Consent
    /// The interactions kept aside, oldest first.
    public private(set) var buffered: [Interaction] = []
    /// Interactions dropped because the buffer was full.
    public private(set) var overflowed = 0
    /// The most interactions kept aside.
    public let limit: Int

    /// A visitor whose consent is `consent`.
    public init(_ consent: Consent, limit: Int = 200) {
        self.consent = consent
        self.limit = max(1, limit)
    }

    /// What to do with one interaction.
    public enum Action: Hashable, Sendable {
        /// Send it now.
        case send
        /// Kept aside until consent is given or refused.
        case buffered
        /// Not recorded: consent was refused.
        case discarded
    }

    /// The visitor did something: send it, keep it aside, or discard it, as consent says.
    public mutating func record(_ interaction: Interaction) -> Action {
        switch consent {
        case .granted:
            return .send
        case .revoked:
            return .discarded
        case .pending:
            if buffered.count >= limit {
                buffered.removeFirst()
                overflowed += 1
            }
            buffered.append(interaction)
            return .buffered
        }
    }

    /// Consent given: the interactions kept aside, to send now, oldest first.
    public mutating func grant() -> [Interaction] {
        consent = .granted
        defer { buffered = [] }
        return buffered
    }

    /// Consent refused or withdrawn: the interactions kept aside are discarded; returns how many.
    public mutating func revoke() -> Int {
        consent = .revoked
        defer { buffered = [] }
        return buffered.count
    }
}
