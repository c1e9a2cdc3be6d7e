// swift-tools-version: 6.0
// RecoKit: render product recommendations and track how people interact with them, on the server.
// The root package has no package dependencies (Foundation and the toolchain only).
import PackageDescription

let package = Package(
    name: "RecoKit",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "RecoKit", targets: ["RecoKit"]),
        .library(name: "RecoTemplates", targets: ["RecoTemplates"]),
        .library(name: "RecoHTTP", targets: ["RecoHTTP"]),
        .library(name: "RecoTracking", targets: ["RecoTracking"]),
        .library(name: "RecoVendors", targets: ["RecoVendors"]),
        .library(name: "RecoPage", targets: ["RecoPage"]),
        .library(name: "RecoKitTesting", targets: ["RecoKitTesting"]),
        .executable(name: "recokit", targets: ["RecoKitCLI"]),
    ],
    targets: [
        .target(name: "RecoKit"),
        .target(name: "RecoTemplates", dependencies: ["RecoKit"]),
        .target(name: "RecoHTTP"),
        // The journal's CRC-32 with the processor's own instructions (C: Swift has no carry-less multiply).
        .target(name: "CRecoChecksum"),
        // JSON string escaping sixteen bytes at a time (C: SSE2 intrinsics), for the event batches' bodies.
        .target(name: "CRecoEscaping"),
        .target(name: "RecoTracking", dependencies: ["RecoKit", "RecoHTTP", "CRecoChecksum", "CRecoEscaping"]),
        .target(name: "RecoVendors", dependencies: ["RecoKit", "RecoTracking"]),
        .target(name: "RecoPage", dependencies: ["RecoKit", "RecoHTTP", "RecoTracking", "RecoVendors"], exclude: ["Impressions/known-bots.txt"]),
        .target(name: "RecoKitTesting", dependencies: ["RecoKit", "RecoTemplates", "RecoTracking", "RecoVendors"]),
        .executableTarget(name: "RecoKitCLI", dependencies: ["RecoKit", "RecoTemplates", "RecoTracking", "RecoVendors"]),

        .testTarget(name: "RecoKitTests", dependencies: ["RecoKit", "RecoKitTesting"]),
        .testTarget(name: "RecoTemplatesTests", dependencies: ["RecoTemplates", "RecoVendors", "RecoKitTesting"], exclude: ["Golden", "FuzzRegressions"]),
        .testTarget(name: "RecoTrackingTests", dependencies: ["RecoTracking", "RecoVendors", "RecoKitTesting"], exclude: ["Fixtures"]),
        .testTarget(name: "RecoVendorsTests", dependencies: ["RecoVendors", "RecoKitTesting"]),
        .testTarget(name: "RecoPageTests", dependencies: ["RecoPage", "RecoTemplates", "RecoKitTesting"]),
        .testTarget(name: "RecoKitCLITests", dependencies: ["RecoKitTesting", "RecoTemplates", "RecoTracking"]),
    ],
    swiftLanguageModes: [.v6]
)
