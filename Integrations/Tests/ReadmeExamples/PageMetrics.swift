// The README's example, word for word (ReadmeExamplesTests checks it); compiled by this target.
import RecoKitMetrics
import RecoPage

func observedClient(cache: RecommendationsCache) -> RecommendationsClient {
    RecommendationsClient(cache: cache, observer: PageMetrics())   // recokit_page_… per vendor
}
