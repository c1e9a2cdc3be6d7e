// The README's example, word for word (ReadmeExamplesTests checks it); compiled by this target.
import Foundation
import RecoDestinations
import RecoKitAsyncHTTPClient

func runTrackers(whileServing serve: @Sendable (Tracker, Tracker) async throws -> Void) async throws {
    let segmentify = Tracker(destination: SegmentifyDestination(dataCenter: URL(string: "https://gandalf.segmentify.com")!,
                                                                apiKey: "KEY", origin: "shop.example"),
                             store: try JournalStore(directory: URL(fileURLWithPath: "/var/lib/shop/tracking/segmentify")),
                             transport: AsyncHTTPClientTransport.shared)
    let reteno = Tracker(destination: RetenoDestination(accessKey: "KEY"),
                         store: try JournalStore(directory: URL(fileURLWithPath: "/var/lib/shop/tracking/reteno")),
                         transport: AsyncHTTPClientTransport.shared)
    try await withThrowingDiscardingTaskGroup { group in
        group.addTask { try await segmentify.run() }      // delivers until cancelled, then drains
        group.addTask { try await reteno.run() }
        try await serve(segmentify, reteno)
        group.cancelAll()
    }
}

/// A page's impressions: Segmentify counts blocks, Reteno counts products.
func trackImpressions(of widgets: [Widget<RawProduct>], visitor: InteractionContext, segmentify: Tracker, reteno: Tracker) throws {
    var blocks = PageImpressions(context: visitor), products = PageImpressions(context: visitor)
    for widget in widgets where widget.vendor == .reteno { products.addProducts(of: widget) }
    for widget in widgets where widget.vendor != .reteno { blocks.addBlock(widget) }
    try segmentify.track(blocks)                          // one record per page and vendor
    try reteno.track(products)
}
