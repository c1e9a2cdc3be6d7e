import RecoHTTP

/// The request a destination builds for one batch: RecoHTTP's ``RecoHTTP/VendorRequest`` under the
/// name tracking code has always used.
public typealias TrackingRequest = VendorRequest

/// The answer to a ``TrackingRequest``: RecoHTTP's ``RecoHTTP/VendorReply``.
public typealias TrackingReply = VendorReply
