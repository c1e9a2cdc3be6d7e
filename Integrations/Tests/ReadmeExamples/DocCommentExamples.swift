// The `///` examples of this package's sources, word for word (ReadmeExamplesTests checks it), each in a
// function that receives the values the example takes as given; compiled by this target.
import RecoKitAsyncHTTPClient
import PostgresNIO
import RecoKitMetrics
import RecoKitPostgres
import RecoPage
import RecoTracking

func asyncHTTPClientTransportExample(segmentify: any TrackingDestination, store: any TrackingStore) {
    let client = RecommendationsClient(transport: AsyncHTTPClientTransport.shared)
    let tracker = Tracker(destination: segmentify, store: store, transport: AsyncHTTPClientTransport.shared)
    _ = (client, tracker)
}

func trackingMetricsExample(segmentify: any TrackingDestination, store: any TrackingStore) {
    let metrics = TrackingMetrics()
    var configuration = TrackerConfiguration()
    configuration.observer = metrics                   // each request, as it ends
    let tracker = Tracker(destination: segmentify, store: store, configuration: configuration)
    metrics.watch(tracker)                             // its statistics, while `metrics.run()` runs
}

func pageMetricsExample(cache: RecommendationsCache) {
    let client = RecommendationsClient(cache: cache, observer: PageMetrics())
    _ = client
}

func postgresTrackingStoreExample(client: PostgresClient, segmentify: any TrackingDestination) async throws {
    try await PostgresTrackingStore.migrate(client: client)       // a running PostgresClient
    let store = try PostgresTrackingStore(client: client, queue: "segmentify")
    let tracker = Tracker(destination: segmentify, store: store)  // its run() runs the store's
    _ = tracker
}
