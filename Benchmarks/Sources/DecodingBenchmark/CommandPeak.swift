import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The peak resident memory of a command (a program and its arguments) run to its end, output
/// discarded; and its exit status.
///
/// The driver runs this in a small process of its own (the `peak` mode), which starts the command
/// and reads its peak from `wait4`. A child's peak starts at the resident size of the process that
/// started it (Linux carries it over `exec`); the driver, holding replies of 50 MB, would be counted
/// in, so the starting process must stay small.
func commandPeak(_ program: String, _ arguments: [String]) -> (bytes: Int, status: Int32) {
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
    guard posix_spawn(&pid, program, &actions, nil, argv, envp) == 0 else { return (0, -1) }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) == -1 && errno == EINTR {}
    #if canImport(Darwin)
    let bytes = Int(usage.ru_maxrss)  // bytes on Darwin
    #else
    let bytes = Int(usage.ru_maxrss) * 1024  // kilobytes on Linux
    #endif
    let exitStatus: Int32 = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    return (bytes, exitStatus)
}
