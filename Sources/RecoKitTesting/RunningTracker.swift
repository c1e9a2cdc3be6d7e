import RecoTracking

/// Runs `tracker` while `body` runs: its ``RecoTracking/Tracker/run()`` in a task of this call's, stopped
/// when `body` returns or throws (it then drains for its ``RecoTracking/TrackerConfiguration/drainDeadline``)
/// and awaited before this returns, so nothing it started outlives the call.
///
/// ```swift
/// import RecoKitTesting
/// import Testing
///
/// let tracker = Tracker(destination: destination, store: JournalStore.memory(), transport: transport)
/// try await whileRunning(tracker) {
///     try tracker.track(.widgetView(of: widget, context: context))
///     #expect(await tracker.waitUntilIdle(timeout: .seconds(10)))
/// }
/// ```
public func whileRunning<Result>(_ tracker: Tracker, _ body: () async throws -> Result) async throws -> Result {
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await tracker.run() }
        let result: Result
        do {
            result = try await body()
        } catch {
            group.cancelAll()
            throw error
        }
        group.cancelAll()
        try await group.waitForAll()
        return result
    }
}
