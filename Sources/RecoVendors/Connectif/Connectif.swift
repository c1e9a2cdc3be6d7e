/// Delivers Connectif events: the one point where the toolkit hands an event to the network, so that
/// tests and the tracking engine can stand in.
public protocol ConnectifEventSender: Sendable {
    /// Delivers one purchase event.
    /// - Throws: ``ConnectifError`` (`sendFailed`) when it was not delivered.
    func send(_ event: ConnectifPurchaseEvent) async throws(ConnectifError)
}

/// Feedback on an event, as the guide's `EventCallbacks`: one of the two is called, once.
public struct EventCallbacks: Sendable {
    /// Called when the event was delivered.
    public var onSuccess: @Sendable () async -> Void
    /// Called with the reason when the event was refused or not delivered.
    public var onError: @Sendable (ConnectifError) async -> Void

    /// Callbacks for success and error.
    public init(onSuccess: @escaping @Sendable () async -> Void = {}, onError: @escaping @Sendable (ConnectifError) async -> Void = { _ in }) {
        self.onSuccess = onSuccess
        self.onError = onError
    }
}

/// Sends Connectif's "notify completed purchase" event from a server.
///
/// ``ConnectifAPISender`` delivers through Connectif's public HTTP API (`POST /purchases/`, see
/// ``ConnectifPurchaseRequest``); that API names the contact who bought (an e-mail or an external id,
/// which must already exist in Connectif), which the web event does not. Bring your own
/// ``ConnectifEventSender`` to deliver another way (a queue, Connectif's web tag on the page).
///
/// ```swift
/// let connectif = Connectif(sender: ConnectifAPISender(apiKey: key, contact: .email("ana@example.com")),
///                           context: .collected(appVersion: "2.4.1"))
/// switch await connectif.sendPurchase(purchase) {
/// case .success: break
/// case .failure(let error): print(error)   // "products[0].quantity: must be at least 1, got 0"
/// }
/// ```
public struct Connectif: Sendable {
    private let sender: any ConnectifEventSender
    /// The context sent with every event.
    public let context: EventContext

    /// A Connectif client that delivers through `sender`.
    public init(sender: any ConnectifEventSender, context: EventContext) {
        self.sender = sender
        self.context = context
    }

    /// Validates and sends a purchase. An invalid purchase is refused before anything is sent.
    /// - Returns: success, or the validation or delivery error.
    public func sendPurchase(_ purchase: Purchase) async -> Result<Void, ConnectifError> {
        do {
            let event = try ConnectifPurchaseEvent(purchase: purchase, context: context)
            try await sender.send(event)
            return .success(())
        } catch {
            return .failure(error)
        }
    }

    /// Validates and sends a purchase, then calls `callbacks.onSuccess` or `callbacks.onError`.
    public func sendPurchase(_ purchase: Purchase, callbacks: EventCallbacks) async {
        switch await sendPurchase(purchase) {
        case .success: await callbacks.onSuccess()
        case .failure(let error): await callbacks.onError(error)
        }
    }
}
