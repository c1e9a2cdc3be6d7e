// swift-tools-version: 6.0
// RecoKit's companions that need a package dependency, one product each, in one package so that they
// share one build of SwiftNIO: the AsyncHTTPClient transport and metrics through swift-metrics. The root package (by path) keeps zero dependencies.
import PackageDescription

let package = Package(
    name: "RecoKitIntegrations",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "RecoKitAsyncHTTPClient", targets: ["RecoKitAsyncHTTPClient"]),
        .library(name: "RecoKitMetrics", targets: ["RecoKitMetrics"]),
        .library(name: "RecoKitPostgres", targets: ["RecoKitPostgres"]),
        .executable(name: "recokit-postgres", targets: ["RecoKitPostgresCLI"]),
    ],
    dependencies: [
        .package(name: "RecoKit", path: ".."),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.80.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.5.3"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.3.0"),
    ],
    targets: [
        .target(
            name: "RecoKitAsyncHTTPClient",
            dependencies: [
                .product(name: "RecoHTTP", package: "RecoKit"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
        .target(
            name: "RecoKitMetrics",
            dependencies: [
                .product(name: "RecoTracking", package: "RecoKit"),
                .product(name: "RecoPage", package: "RecoKit"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]
        ),
        // An HTTP server on 127.0.0.1 that answers as a test says, for the tests of both products.
        .target(
            name: "HTTPStandIn",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Tests/HTTPStandIn"
        ),
        .target(
            name: "RecoKitPostgres",
            dependencies: [
                .product(name: "RecoTracking", package: "RecoKit"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .executableTarget(
            name: "RecoKitPostgresCLI",
            dependencies: [
                "RecoKitPostgres",
                "RecoKitAsyncHTTPClient",
                .product(name: "RecoRelay", package: "RecoKit"),
                .product(name: "RecoTracking", package: "RecoKit"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "RecoKitPostgresTests",
            dependencies: [
                "RecoKitPostgres",
                "HTTPStandIn",
                .product(name: "RecoTracking", package: "RecoKit"),
                .product(name: "RecoDestinations", package: "RecoKit"),
                .product(name: "RecoKitTesting", package: "RecoKit"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "RecoKitMetricsTests",
            dependencies: [
                "RecoKitMetrics",
                "HTTPStandIn",
                .product(name: "RecoTracking", package: "RecoKit"),
                .product(name: "RecoPage", package: "RecoKit"),
                .product(name: "RecoKitTesting", package: "RecoKit"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        // The README's blocks that use this package, word for word, compiled.
        .testTarget(
            name: "ReadmeExamples",
            dependencies: [
                "RecoKitPostgres",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                "RecoKitAsyncHTTPClient",
                "RecoKitMetrics",
                .product(name: "RecoDestinations", package: "RecoKit"),
                .product(name: "RecoPage", package: "RecoKit"),
                .product(name: "RecoTracking", package: "RecoKit"),
            ]
        ),
        .testTarget(
            name: "RecoKitAsyncHTTPClientTests",
            dependencies: [
                "RecoKitAsyncHTTPClient",
                "HTTPStandIn",
                .product(name: "RecoTracking", package: "RecoKit"),
                .product(name: "RecoDestinations", package: "RecoKit"),
                .product(name: "RecoKitTesting", package: "RecoKit"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
