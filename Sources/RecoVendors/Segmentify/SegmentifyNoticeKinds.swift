extension DecodingNotice.Kind {
    /// A Segmentify dynamic item (algorithm) that gave no products to its block: its product list is
    /// missing, its `itemCount` is not a number, or `recommendedProducts` holds a list that no
    /// dynamic item asks for.
    public static let skippedSource = DecodingNotice.Kind("skippedSource")
    /// A Segmentify block whose `elimination` mode is not one the toolkit knows; nothing was eliminated.
    public static let unknownElimination = DecodingNotice.Kind("unknownElimination")
    /// A Segmentify reply whose `responses` hold no item at all (no campaign matched the event).
    public static let noBlocks = DecodingNotice.Kind("noBlocks")
    /// A value of a shape the toolkit cannot read where it is optional (a search reply's
    /// `categoryProducts` that is not an object of product arrays, …): left out, kept in the raw reply.
    public static let unexpectedShape = DecodingNotice.Kind("unexpectedShape")
}
