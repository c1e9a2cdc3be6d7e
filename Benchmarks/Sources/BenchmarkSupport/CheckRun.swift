import Foundation

/// Whether this is a check run (`Benchmarks/run --check`, as CI runs it): every benchmark still builds
/// its inputs, runs every path and checks that the paths agree (same output, same products, linear
/// cost), but with short timing loops, so its figures are rough.
public let isCheckRun = ProcessInfo.processInfo.environment["RECOKIT_BENCH_CHECK"] == "1"
