/// An interaction the tracker accepted, with the id it keeps until delivery.
public struct TrackedEvent: Sendable, Hashable {
    /// Stable across retries and restarts.
    public var id: EventID
    /// What happened.
    public var interaction: Interaction

    /// An event with its id.
    public init(id: EventID, interaction: Interaction) {
        self.id = id
        self.interaction = interaction
    }
}
