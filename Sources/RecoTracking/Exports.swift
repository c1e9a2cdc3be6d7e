@_exported import RecoKit
