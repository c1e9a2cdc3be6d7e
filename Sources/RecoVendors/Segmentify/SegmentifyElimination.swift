/// A Segmentify block's `params.elimination`: whether products already shown are left out.
enum SegmentifyElimination: Hashable, Sendable {
    /// `NO_ELIMINATION`, or no `elimination` at all (the vendor's default): nothing is skipped.
    case none
    /// `ELIMINATE_DUPLICATES` or `ELIMINATE_PREVIOUS` (the vendor treats both alike): a product is
    /// skipped when it is already in the block, or when an earlier block of the reply showed it.
    case eliminate(String)
    /// A mode the toolkit does not know: treated as ``none`` and reported.
    case unknown(String)

    init(_ value: String?) {
        switch value {
        case nil, "", "NO_ELIMINATION": self = .none
        case let mode? where mode == "ELIMINATE_DUPLICATES" || mode == "ELIMINATE_PREVIOUS": self = .eliminate(mode)
        case let mode?: self = .unknown(mode)
        }
    }

    /// Whether products are eliminated at all.
    var eliminates: Bool { if case .eliminate = self { true } else { false } }
}
