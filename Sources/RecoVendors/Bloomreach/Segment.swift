/// One real-time segment a customer belongs to: `{"id":"…","segmentation_id":"…"}` in Bloomreach's answer.
public struct Segment: Hashable, Sendable, CustomStringConvertible {
    /// The segment's id (`id` on the wire).
    public var id: String
    /// The id of the segmentation the segment belongs to (`segmentation_id` on the wire).
    public var segmentationId: String

    /// A segment with its id and its segmentation's id.
    public init(id: String, segmentationId: String) {
        self.id = id
        self.segmentationId = segmentationId
    }

    public var description: String { "\(segmentationId)/\(id)" }
}
