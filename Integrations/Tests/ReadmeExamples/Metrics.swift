// The README's example, word for word (ReadmeExamplesTests checks it); compiled by this target.
import RecoKitMetrics
import RecoTracking

func observed(_ configuration: TrackerConfiguration) -> (TrackerConfiguration, TrackingMetrics) {
    let metrics = TrackingMetrics()          // recokit_tracking_… in the process's MetricsSystem
    var configuration = configuration
    configuration.observer = metrics         // each request as it ends
    return (configuration, metrics)          // then metrics.watch(tracker), and run metrics.run() beside it
}
