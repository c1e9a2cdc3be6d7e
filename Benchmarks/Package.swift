// swift-tools-version: 6.0
// RecoKit's benchmarks: a package of its own, so that peers (swift-mustache, Stencil) can be measured
// beside RecoKit while the root package keeps zero dependencies. Run them all with `Benchmarks/run`.
import PackageDescription

let package = Package(
    name: "RecoKitBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "RecoKit", path: ".."),
    ],
    targets: [
        .target(name: "BenchmarkSupport"),
        .executableTarget(
            name: "DecodingBenchmark",
            dependencies: ["BenchmarkSupport", .product(name: "RecoVendors", package: "RecoKit")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
