import Foundation
import Testing
@testable import RecoVendors

@Suite("Bloomreach segments decoding")
struct SegmentsDecodingTests {
    @Test func decodesTheSampleAndKeepsAnUnknownCategory() throws {
        let decoded = try BloomreachSegments.decode(VendorPayloadSamples.data("bloomreach-segments.json"))
        let segments = decoded.segments
        #expect(segments.segments(in: .discovery) == [
            Segment(id: "66140257f4cb337324209871", segmentationId: "66140215fb50effc8a7218b4"),
            Segment(id: "661402a1f4cb33732420a3c2", segmentationId: "66140290fb50effc8a721901"),
        ])
        #expect(segments.segments(in: .merchandising)?.map(\.id) == ["6614031ef4cb33732420b7d0"])
        #expect(segments.segments(in: .content) == [])
        #expect(segments.segments(in: "recommendations")?.map(\.segmentationId) == ["6615a8a0fb50effc8a7245d3"])
        #expect(segments.categoryNames == ["content", "discovery", "merchandising", "recommendations"])
        #expect(decoded.notices.map(\.kind) == [.unknownCategory])
        #expect(decoded.notices.first?.path.description == "$.recommendations")
    }

    @Test func oneBadValueIsReportedAndTheRestKept() throws {
        let decoded = try BloomreachSegments.decode(VendorPayloadSamples.data("bloomreach-segments-bad-value.json"))
        #expect(decoded.segments.segments(in: .discovery)?.map(\.id) == ["66140257f4cb337324209871"])
        #expect(decoded.segments.segments(in: .merchandising)?.count == 1)
        #expect(decoded.segments.segments(in: .content) == [])
        #expect(decoded.notices.count == 1)
        let notice = try #require(decoded.notices.first)
        #expect(notice.kind == .invalidSegment)
        #expect(notice.path.description == "$.discovery[1].id")
        #expect(notice.message == "expected a string, found a number; segment left out")
    }

    @Test(arguments: [
        (#"{"discovery":[{"segmentation_id":"s"}],"content":[]}"#, "$.discovery[0].id", "missing \"id\"; segment left out"),
        (#"{"discovery":[{"id":"i","segmentation_id":null}],"content":[]}"#, "$.discovery[0].segmentation_id", "expected a string, found null; segment left out"),
        (#"{"discovery":["66140257f4cb337324209871"],"content":[]}"#, "$.discovery[0]", "expected a segment object, found a string; segment left out"),
        (#"{"discovery":{"id":"i","segmentation_id":"s"},"content":[]}"#, "$.discovery", "expected an array of segments, found an object; category left out"),
    ])
    func eachBadShapeIsReportedWhere(json: String, path: String, message: String) throws {
        let decoded = try BloomreachSegments.decode(Data(json.utf8))
        #expect(decoded.notices.map(\.path.description) == [path])
        #expect(decoded.notices.map(\.message) == [message])
        #expect(decoded.segments.segments(in: .content) == [], "the rest of the answer is kept")
    }

    @Test func aWellFormedAnswerHasNoNotices() throws {
        let decoded = try BloomreachSegments.decode(Data(#"{"discovery":[{"id":"a","segmentation_id":"b","extra":1}],"merchandising":[],"content":[]}"#.utf8))
        #expect(decoded.notices.isEmpty)
        #expect(decoded.segments.segments(in: .discovery) == [Segment(id: "a", segmentationId: "b")])
    }

    @Test func anAnswerThatIsNotAnObjectIsAnError() {
        #expect {
            try BloomreachSegments.decode(Data(#"[{"id":"a"}]"#.utf8))
        } throws: { error in
            (error as? PayloadError)?.kind == .typeMismatch && (error as? PayloadError)?.path == .root
        }
        #expect {
            try BloomreachSegments.decode(Data(#"{"discovery":["#.utf8))
        } throws: { error in
            (error as? PayloadError)?.kind == .invalidJSON
        }
    }

    @Test func segmentsCompareAsSets() {
        let a = Segment(id: "1", segmentationId: "s")
        let b = Segment(id: "2", segmentationId: "s")
        let first = CustomerSegments([.discovery: [a, b]])
        let reordered = CustomerSegments([.discovery: [b, a, a]])
        let other = CustomerSegments([.discovery: [a]])
        let withContent = CustomerSegments([.discovery: [a, b], .content: []])
        #expect(first == reordered)
        #expect(first.hashValue == reordered.hashValue)
        #expect(!first.differs(from: reordered, in: .discovery))
        #expect(first.differs(from: other, in: .discovery))
        #expect(first != withContent, "a category that appears is a difference")
        #expect(withContent.differs(from: first, in: .content))
        #expect(!withContent.differs(from: first, in: .discovery))
        #expect(reordered.segments(in: .discovery) == [b, a], "duplicates removed, order kept")
    }

    @Test func categoriesKnowWhichAreDocumented() {
        #expect(SegmentCategory.documented.allSatisfy { $0.isDocumented })
        #expect(!SegmentCategory("recommendations").isDocumented)
        #expect(SegmentCategory(rawValue: "discovery") == .discovery)
    }
}
