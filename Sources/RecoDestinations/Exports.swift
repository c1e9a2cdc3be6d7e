@_exported import RecoTracking
@_exported import RecoVendors
