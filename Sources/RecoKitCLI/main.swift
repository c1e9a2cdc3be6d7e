import Foundation
import RecoKit

exit(await Recokit.run(Array(CommandLine.arguments.dropFirst())))
