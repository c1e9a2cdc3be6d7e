#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How many heap allocations the code under test made: a measure of its work that is the same on
/// every run of the same input (seconds are not, on a shared machine), read through the address
/// sanitizer's malloc hook, which every fuzz target links (`Fuzz/run` builds each with
/// `-sanitize=fuzzer,address`). Counts every thread's allocations; a target calls the code it measures
/// on its own thread, and libFuzzer's other threads do not allocate while an input runs.
public enum AllocationCount {
    /// The allocations made since the process started (since ``install()``).
    nonisolated(unsafe) public private(set) static var total = 0

    /// Installs the hook; false when the sanitizer runtime offers none (a build without it).
    @discardableResult
    public static func install() -> Bool {
        guard !installed else { return true }
        // Looked up by name, with C's calling convention: it is a C function of the sanitizer runtime.
        typealias Install = @convention(c) (
            @convention(c) (UnsafeRawPointer?, Int) -> Void, @convention(c) (UnsafeRawPointer?) -> Void
        ) -> CInt
        #if canImport(Darwin)
        let everywhere = RTLD_DEFAULT
        #else
        let everywhere: UnsafeMutableRawPointer? = nil  // glibc's RTLD_DEFAULT
        #endif
        guard let symbol = dlsym(everywhere, "__sanitizer_install_malloc_and_free_hooks") else { return false }
        let installHooks = unsafeBitCast(symbol, to: Install.self)
        installed = installHooks({ _, _ in AllocationCount.total &+= 1 }, { _ in }) != 0
        return installed
    }

    nonisolated(unsafe) private static var installed = false

    /// The allocations `body` made.
    public static func counting<T>(_ body: () throws -> T) rethrows -> (T, allocations: Int) {
        let before = total
        let result = try body()
        return (result, total - before)
    }
}
