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
        .library(name: "RecoDestinations", targets: ["RecoDestinations"]),
        .library(name: "RecoPage", targets: ["RecoPage"]),
        .library(name: "RecoKitTesting", targets: ["RecoKitTesting"]),
        // `relay` over any store, for programs of companion packages (recokit-postgres).
        .library(name: "RecoRelay", targets: ["RecoRelay"]),
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
        // Vendors' replies and requests: decoding needs no tracking engine.
        .target(name: "RecoVendors", dependencies: ["RecoKit", "RecoHTTP"]),
        // The vendors' tracking destinations (Segmentify, Reteno): what a Tracker delivers to.
        .target(name: "RecoDestinations", dependencies: ["RecoKit", "RecoHTTP", "RecoTracking", "RecoVendors"]),
        .target(name: "RecoPage", dependencies: ["RecoKit", "RecoHTTP", "RecoTracking", "RecoVendors", "RecoDestinations"],
                exclude: ["Impressions/known-bots.txt"]),
        .target(name: "RecoKitTesting", dependencies: ["RecoKit", "RecoTemplates", "RecoTracking", "RecoVendors", "RecoDestinations"]),
        .target(name: "RecoRelay", dependencies: ["RecoKit", "RecoHTTP", "RecoTracking", "RecoVendors", "RecoDestinations"]),
        .executableTarget(name: "RecoKitCLI", dependencies: ["RecoKit", "RecoTemplates", "RecoTracking", "RecoVendors", "RecoDestinations", "RecoRelay"]),

        .testTarget(name: "RecoKitTests", dependencies: ["RecoKit", "RecoKitTesting"]),
        .testTarget(name: "RecoTemplatesTests", dependencies: ["RecoTemplates", "RecoVendors", "RecoKitTesting"], exclude: ["Golden", "FuzzRegressions"]),
        .testTarget(name: "RecoTrackingTests", dependencies: ["RecoTracking", "RecoVendors", "RecoDestinations", "RecoKitTesting"], exclude: ["Fixtures"]),
        .testTarget(name: "RecoVendorsTests", dependencies: ["RecoVendors", "RecoDestinations", "RecoKitTesting"]),
        .testTarget(name: "RecoPageTests", dependencies: ["RecoPage", "RecoTemplates", "RecoKitTesting"]),
        .testTarget(name: "RecoKitCLITests", dependencies: ["RecoKitTesting", "RecoTemplates", "RecoTracking", "RecoDestinations"]),
    ],
    swiftLanguageModes: [.v6]
)
