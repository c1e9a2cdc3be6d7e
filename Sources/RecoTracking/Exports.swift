@_exported import RecoKit
@_exported import RecoHTTP
