// README.md, "Track both vendors": a fleet's tracker over the PostgreSQL store.
import PostgresNIO
import RecoDestinations
import RecoKitAsyncHTTPClient
import RecoKitPostgres

func fleetTracker(postgres: PostgresClient, segmentify: SegmentifyDestination) async throws -> Tracker {
    try await PostgresTrackingStore.migrate(client: postgres)     // or `recokit-postgres setup`
    let store = try PostgresTrackingStore(client: postgres, queue: "segmentify")
    return Tracker(destination: segmentify, store: store, transport: AsyncHTTPClientTransport.shared)
}
