import Foundation
import RecoKit

// Before anything opens a file: a standard descriptor the caller closed is not handed to one.
StandardStreams.secure()
exit(StandardStreams.finish(await Recokit.run(Array(CommandLine.arguments.dropFirst()))))
