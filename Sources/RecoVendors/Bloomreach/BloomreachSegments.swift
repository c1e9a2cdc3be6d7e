import Foundation

/// Decodes Bloomreach's real-time segments answer:
/// `{"discovery":[{"id":"…","segmentation_id":"…"}],"merchandising":[],"content":[]}`.
///
/// The decoder is forgiving where the official SDK is not: one bad value (a number where an id
/// should be, a segment that is not an object) is reported with its path and left out, and the rest
/// of the answer is kept. Categories this toolkit does not know are kept too, with a notice.
///
/// ```swift
/// let decoded = try BloomreachSegments.decode(data)
/// decoded.segments.segments(in: .discovery)   // [Segment(id: "6614…", segmentationId: "6614…")]
/// decoded.notices                             // what was left out or unusual, with where and why
/// ```
public enum BloomreachSegments {
    /// A decoded answer with what was left out of it.
    public struct Decoded: Hashable, Sendable {
        /// The segments by category.
        public var segments: CustomerSegments
        /// Values left out (kind `invalidSegment`) and categories not documented by Bloomreach
        /// (kind `unknownCategory`, kept in ``segments``), each with its path.
        public var notices: [DecodingNotice]

        /// An answer and its notices.
        public init(segments: CustomerSegments, notices: [DecodingNotice] = []) {
            self.segments = segments
            self.notices = notices
        }
    }

    /// Decodes a segments answer from its bytes.
    /// - Parameter limits: bounds on the reply's size and shape (documents of 1 MiB unless given:
    ///   ``VendorPayloadKind/defaultLimits``); a reply beyond them is a `limitExceeded` error.
    /// - Throws: ``PayloadError`` when the bytes are not JSON or the answer is not an object.
    public static func decode(_ data: Data, limits: JSONLimits = VendorPayloadKind.bloomreachSegments.defaultLimits) throws(PayloadError) -> Decoded {
        try decode(JSONValue(parsing: data, limits: limits))
    }

    /// Decodes a segments answer already parsed.
    /// - Throws: ``PayloadError`` when the answer is not an object.
    public static func decode(_ value: JSONValue) throws(PayloadError) -> Decoded {
        try decode(node: value)
    }

    /// Decodes a segments answer read as a tree or a tape (see the `JSONValue` overload).
    static func decode<Node: JSONNode>(node value: Node) throws(PayloadError) -> Decoded {
        guard let names = value.nodeKeys else {
            throw .typeMismatch(expected: "an object of segment categories", found: value.kindPlaceholder, at: .root)
        }
        var categories: [SegmentCategory: [Segment]] = [:]
        var notices: [DecodingNotice] = []
        for name in names.sorted() {
            let category = SegmentCategory(name)
            let path = JSONPath.root.appending(key: name)
            guard let entries = value[name]?.nodeElements else {
                let found = value[name]?.kindPlaceholder.kindDescription ?? "nothing"
                notices.append(DecodingNotice(.invalidSegment, at: path, "expected an array of segments, found \(found); category left out"))
                continue
            }
            if !category.isDocumented {
                notices.append(DecodingNotice(.unknownCategory, at: path, "category \"\(name)\" is not documented by Bloomreach; kept"))
            }
            var segments: [Segment] = []
            for (index, entry) in entries.enumerated() {
                switch segment(entry, at: path.appending(index: index)) {
                case .read(let segment): segments.append(segment)
                case .leftOut(let notice): notices.append(notice)
                }
            }
            categories[category] = segments
        }
        return Decoded(segments: CustomerSegments(categories), notices: notices)
    }

    private enum Entry {
        case read(Segment)
        case leftOut(DecodingNotice)
    }

    private static func segment<Node: JSONNode>(_ entry: Node, at path: JSONPath) -> Entry {
        guard entry.isObject else {
            return .leftOut(DecodingNotice(.invalidSegment, at: path, "expected a segment object, found \(entry.kindPlaceholder.kindDescription); segment left out"))
        }
        var strings: [String] = []
        for key in ["id", "segmentation_id"] {
            let keyPath = path.appending(key: key)
            guard let member = entry[key] else {
                return .leftOut(DecodingNotice(.invalidSegment, at: keyPath, "missing \"\(key)\"; segment left out"))
            }
            guard let text = member.stringValue else {
                return .leftOut(DecodingNotice(.invalidSegment, at: keyPath, "expected a string, found \(member.kindPlaceholder.kindDescription); segment left out"))
            }
            strings.append(text)
        }
        return .read(Segment(id: strings[0], segmentationId: strings[1]))
    }
}

extension DecodingNotice.Kind {
    /// A Bloomreach segment (or a whole category) that could not be read and was left out.
    public static let invalidSegment = DecodingNotice.Kind("invalidSegment")
    /// A Bloomreach segment category that is not one of the documented three (kept).
    public static let unknownCategory = DecodingNotice.Kind("unknownCategory")
}
