@_exported import RecoKit
@_exported import RecoHTTP
@_exported import RecoTracking
@_exported import RecoVendors
@_exported import RecoDestinations
