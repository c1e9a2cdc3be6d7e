// swift-tools-version: 6.0
// RecoKit's fuzz targets: a package of its own (as Benchmarks/ is), because every target is built with
// `-sanitize=fuzzer` (libFuzzer supplies `main`) and the address sanitizer. Run them with `Fuzz/run`.
import PackageDescription

/// One libFuzzer executable per kind of outside input; each is a single file holding
/// `LLVMFuzzerTestOneInput`, compiled as a library (no `main`: libFuzzer's runs the loop).
func fuzzTarget(_ name: String, _ products: [String], package: String = "RecoKit") -> Target {
    .executableTarget(
        name: name,
        dependencies: ["FuzzSupport"] + products.map { .product(name: $0, package: package) },
        swiftSettings: [.unsafeFlags(["-parse-as-library"])]
    )
}

let package = Package(
    name: "RecoKitFuzz",
    // macOS 14: the Storefront sample's (Hummingbird 2) floor, which its StorefrontCore product inherits.
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "RecoKit", path: ".."),
        // Only its StorefrontCore product is used: with swift-crypto (HMAC) and Hummingbird (its form
        // decoder), which are built here with the sanitizers too, but no server.
        .package(name: "Storefront", path: "../Samples/Storefront"),
    ],
    targets: [
        .target(name: "FuzzSupport"),
        fuzzTarget("FuzzJSON", ["RecoKit"]),
        fuzzTarget("FuzzVendorReplies", ["RecoKit", "RecoVendors"]),
        fuzzTarget("FuzzDecodingCost", ["RecoKit", "RecoVendors"]),
        fuzzTarget("FuzzTrackingReplies", ["RecoHTTP", "RecoTracking", "RecoDestinations"]),
        fuzzTarget("FuzzDecodedModel", ["RecoKit", "RecoVendors"]),
        fuzzTarget("FuzzTemplate", ["RecoKit", "RecoTemplates"]),
        fuzzTarget("FuzzRender", ["RecoKit", "RecoVendors", "RecoTemplates"]),
        fuzzTarget("FuzzRelayLine", ["RecoKit", "RecoTracking", "RecoDestinations"]),
        fuzzTarget("FuzzJournal", ["RecoTracking"]),
        fuzzTarget("FuzzEventRecords", ["RecoKit", "RecoTracking", "RecoDestinations"]),
        fuzzTarget("FuzzClickToken", ["StorefrontCore"], package: "Storefront"),
        fuzzTarget("FuzzBeacon", ["StorefrontCore"], package: "Storefront"),
        fuzzTarget("FuzzUserAgent", ["RecoPage"]),
    ],
    swiftLanguageModes: [.v6]
)
