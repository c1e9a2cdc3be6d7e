/// What decoding one reply did, counted where a decoder reads: the measure of its cost that tests and
/// the fuzz targets check stays linear in the reply's bytes whatever its shape (seconds are too noisy,
/// and this machine has no instruction counters). Counted for Segmentify recommendation replies.
@_spi(DecodingWork)
public struct DecodingWork: Hashable, Sendable {
    /// Values of the reply looked at: response items, dynamic items, members of `recommendedProducts`,
    /// elements of the product lists, and each product position assembly examines.
    public var examined = 0
    /// Products made from the reply (a position of a list is made at most once per block).
    public var decoded = 0

    public init() {}

    /// Both counts together.
    public var steps: Int { examined + decoded }
}
