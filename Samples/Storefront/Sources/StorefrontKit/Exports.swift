@_exported import StorefrontCore
