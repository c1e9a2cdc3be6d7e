import RecoRelay
/// What the gallery's index and the command's output say about one payload. Made from a payload
/// previewed in this process, read back from the process that previewed it (as one JSON line), or
/// made here for a payload whose process died.
struct PreviewEntry: Codable, Equatable {
    var name: String
    var file: String
    var page: String
    var vendor: String?
    var statusText: String
    var statusTone: String
    /// Where the index lists it (failures first; see ``PreviewGallery/indexOrder(_:)``).
    var rank: Int
    var widgetCount: Int
    var productCount: Int
    var failureCount: Int
    var noticeCount: Int
    /// One line for the command's output.
    var summary: String
    /// Whether the preview should exit non-zero because of this payload.
    var failed: Bool

    init(_ payload: PreviewPayload) {
        name = payload.name
        file = payload.file
        page = payload.page
        vendor = payload.vendor
        (statusText, statusTone) = payload.status
        rank = switch payload.outcome {
        case .failed: 0
        case .recommendations: 1
        case .vendorError: 2
        case .other: 3
        }
        widgetCount = payload.widgets.count
        productCount = payload.widgets.reduce(0) { $0 + $1.items.count }
        failureCount = payload.report.failureCount
        noticeCount = payload.report.noticeCount
        summary = payload.summary
        failed = payload.failed
    }
}
