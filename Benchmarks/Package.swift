// swift-tools-version: 6.0
// RecoKit's benchmarks: a package of its own, so that peers (swift-mustache, Stencil) can be measured
// beside RecoKit while the root package keeps zero dependencies. Run them all with `Benchmarks/run`.
import PackageDescription

let package = Package(
    name: "RecoKitBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "RecoKit", path: ".."),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", exact: "2.1.1"),
        .package(url: "https://github.com/stencilproject/Stencil.git", exact: "0.15.1"),
    ],
    targets: [
        .target(name: "BenchmarkSupport"),
        .executableTarget(
            name: "DecodingBenchmark",
            dependencies: ["BenchmarkSupport", .product(name: "RecoVendors", package: "RecoKit")]
        ),
        .executableTarget(name: "LinearityBenchmark", dependencies: ["BenchmarkSupport"]),
        .executableTarget(
            name: "DeliveryBenchmark",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "RecoTracking", package: "RecoKit"),
                .product(name: "RecoDestinations", package: "RecoKit"),
            ]
        ),
        .executableTarget(
            name: "TrackingBenchmark",
            dependencies: [
                .product(name: "RecoTracking", package: "RecoKit"),
                .product(name: "RecoDestinations", package: "RecoKit"),
            ]
        ),
        .executableTarget(
            name: "RenderingBenchmark",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "RecoTemplates", package: "RecoKit"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "Stencil", package: "Stencil"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
