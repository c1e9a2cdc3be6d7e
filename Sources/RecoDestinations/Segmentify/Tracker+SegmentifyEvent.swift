import Foundation
import RecoHTTP
import RecoKit
import RecoTracking

extension Tracker {
    /// Validates a Segmentify event and journals it for delivery in the same batches as interactions.
    ///
    /// ```swift
    /// try tracker.track(SegmentifyPageView(category: .homePage, common: common))
    /// ```
    /// - Throws: ``SegmentifyEventError`` when the event breaks the guide's rules, ``TrackingError``
    ///   when the tracker refuses it (a full journal, a destination of another vendor).
    @discardableResult
    public func track<Event: SegmentifyEvent>(_ event: Event, occurred: Date = Date()) throws -> EventID {
        try track(event.interaction(occurred: occurred))
    }
}
