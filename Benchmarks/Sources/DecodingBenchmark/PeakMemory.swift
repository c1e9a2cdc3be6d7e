import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's peak resident memory so far, in bytes.
///
/// On Linux it is `VmHWM` from `/proc/self/status`, which belongs to this program's own memory:
/// `getrusage`'s `ru_maxrss` survives `exec`, so a child started by a large parent would report the
/// parent's size.
func peakResidentBytes() -> Int {
    #if os(Linux)
    if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
       let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
       let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
    {
        return kilobytes * 1024
    }
    #endif
    var usage = rusage()
    #if canImport(Darwin)
    getrusage(RUSAGE_SELF, &usage)
    return Int(usage.ru_maxrss)
    #else
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Int(usage.ru_maxrss) * 1024
    #endif
}
