import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a program run by ``runDiscardingOutput(_:_:)`` ended.
public struct ProgramRun: Sendable {
    /// Its exit status; 128 plus the signal's number when a signal ended it.
    public var exitStatus: Int32
    /// Its peak resident memory, in bytes, from `wait4`. Linux starts a child's peak at the resident
    /// size of the process that started it (it is carried over `exec`), so it is the program's own
    /// only when that process is small.
    public var peakResidentBytes: Int
}

/// Runs a program to its end, its standard output and error to /dev/null; nil when it could not be
/// started. Spawned and waited for directly: Foundation's `Process.waitUntilExit` polls, which rounds
/// short runs to 50 ms steps.
public func runDiscardingOutput(_ program: String, _ arguments: [String]) -> ProgramRun? {
    let argv: [UnsafeMutablePointer<CChar>?] = ([program] + arguments).map { strdup($0) } + [nil]
    let envp: [UnsafeMutablePointer<CChar>?] = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { (argv + envp).forEach { free($0) } }
    #if canImport(Darwin)
    var actions: posix_spawn_file_actions_t?
    #else
    var actions = posix_spawn_file_actions_t()
    #endif
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var pid: pid_t = 0
    guard posix_spawn(&pid, program, &actions, nil, argv, envp) == 0 else { return nil }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) == -1 && errno == EINTR {}
    #if canImport(Darwin)
    let peak = Int(usage.ru_maxrss)  // bytes on Darwin
    #else
    let peak = Int(usage.ru_maxrss) * 1024  // kilobytes on Linux
    #endif
    return ProgramRun(exitStatus: status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F), peakResidentBytes: peak)
}
