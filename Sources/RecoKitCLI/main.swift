import Foundation
import RecoKit
import RecoRelay

// Before anything opens a file: a standard descriptor the caller closed is not handed to one.
StandardStreams.secure()
// A write past the file size limit (`ulimit -f`) fails with EFBIG, which every writer reports with the
// file's name, instead of killing the process (SIGXFSZ's default) on whichever thread does not block it.
signal(SIGXFSZ, SIG_IGN)
exit(StandardStreams.finish(await Recokit.run(Array(CommandLine.arguments.dropFirst()))))
