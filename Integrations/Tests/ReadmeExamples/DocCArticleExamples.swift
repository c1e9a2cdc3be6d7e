// The swift blocks of this package's DocC articles (Sources/*/*.docc/*.md), word for word
// (ReadmeExamplesTests checks it), each in a function that receives the values the block takes as given;
// compiled by this target.
import RecoKitMetrics
import RecoPage
import RecoTracking

func recoKitMetricsOverviewExample(segmentify: any TrackingDestination, store: any TrackingStore, cache: RecommendationsCache) {
    let tracking = TrackingMetrics()
    var configuration = TrackerConfiguration()
    configuration.observer = tracking
    let tracker = Tracker(destination: segmentify, store: store, configuration: configuration)
    tracking.watch(tracker)                  // read while `tracking.run()` runs

    let client = RecommendationsClient(cache: cache, observer: PageMetrics())
    _ = client
}
