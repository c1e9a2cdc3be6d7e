// swift-tools-version: 6.0
// A storefront that puts RecoKit's recommendation blocks into server-rendered pages, with
// click-through and impression tracking. Its own package: Hummingbird is a dependency of the
// sample only, so RecoKit's root package stays dependency-free.
import PackageDescription

let package = Package(
    name: "Storefront",
    platforms: [.macOS(.v14)],
    products: [
        // For the Fuzz/ package: the pure checks alone (Hummingbird only for its form decoder, no server).
        .library(name: "StorefrontCore", targets: ["StorefrontCore"]),
    ],
    dependencies: [
        .package(name: "RecoKit", path: "../.."),
        .package(name: "RecoKitIntegrations", path: "../../Integrations"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.0.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.30.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.80.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
    ],
    targets: [
        // The storefront's pure checks of untrusted text (click tokens, visitor cookies, the beacon's form,
        // the bounded memories): no server, so a fuzz target can call them directly.
        .target(
            name: "StorefrontCore",
            dependencies: [
                .product(name: "RecoKit", package: "RecoKit"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .target(
            name: "StorefrontKit",
            dependencies: [
                "StorefrontCore",
                .product(name: "RecoKit", package: "RecoKit"),
                .product(name: "RecoTemplates", package: "RecoKit"),
                .product(name: "RecoTracking", package: "RecoKit"),
                .product(name: "RecoVendors", package: "RecoKit"),
                .product(name: "RecoPage", package: "RecoKit"),
                .product(name: "RecoDestinations", package: "RecoKit"),
                .product(name: "RecoKitAsyncHTTPClient", package: "RecoKitIntegrations"),
                .product(name: "RecoKitMetrics", package: "RecoKitIntegrations"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            resources: [.copy("Resources")]
        ),
        .executableTarget(
            name: "Storefront",
            dependencies: [
                "StorefrontKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "StorefrontTests",
            dependencies: [
                "StorefrontKit",
                "StorefrontCore",
                .product(name: "RecoPage", package: "RecoKit"),
                .product(name: "RecoKitTesting", package: "RecoKit"),
                .product(name: "RecoKitAsyncHTTPClient", package: "RecoKitIntegrations"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
