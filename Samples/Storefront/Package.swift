// swift-tools-version: 6.0
// A storefront that puts RecoKit's recommendation blocks into server-rendered pages, with
// click-through and impression tracking. Its own package: Hummingbird is a dependency of the
// sample only, so RecoKit's root package stays dependency-free.
import PackageDescription

let package = Package(
    name: "Storefront",
    platforms: [.macOS(.v14)],
    products: [
        // For the Fuzz/ package: the pure checks alone, without Hummingbird.
        .library(name: "StorefrontCore", targets: ["StorefrontCore"]),
    ],
    dependencies: [
        .package(name: "RecoKit", path: "../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.0.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.30.0"),
    ],
    targets: [
        // The storefront's pure checks of untrusted text (click tokens, visitor cookies, the beacon's form,
        // the bounded memories): no Hummingbird, so a fuzz target can call them directly.
        .target(
            name: "StorefrontCore",
            dependencies: [.product(name: "RecoKit", package: "RecoKit")]
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
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            resources: [.copy("Resources")]
        ),
        .executableTarget(
            name: "Storefront",
            dependencies: ["StorefrontKit"]
        ),
        .testTarget(
            name: "StorefrontTests",
            dependencies: [
                "StorefrontKit",
                "StorefrontCore",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
