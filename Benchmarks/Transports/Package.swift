// swift-tools-version: 6.0
// Delivery to the benchmark's C sink through AsyncHTTPClient beside URLSession: what a server's own transport
// gives the tracker. A package of its own (AsyncHTTPClient and SwiftNIO take about 15 minutes to build in
// release on a 2-core machine), run by hand with `Benchmarks/Transports/run`, not by `Benchmarks/run` or CI.
import PackageDescription

let package = Package(
    name: "TransportBenchmark",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "RecoKit", path: "../.."),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.30.0"),
    ],
    targets: [
        .executableTarget(
            name: "TransportBenchmark",
            dependencies: [
                .product(name: "RecoKit", package: "RecoKit"),
                .product(name: "RecoTracking", package: "RecoKit"),
                .product(name: "RecoDestinations", package: "RecoKit"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
