import Foundation
import StorefrontKit

do {
    let options = try StorefrontOptions(arguments: Array(CommandLine.arguments.dropFirst()))
    if options.help {
        print(StorefrontOptions.usage, terminator: "")
    } else {
        try await StorefrontServer.run(options)
    }
} catch {
    FileHandle.standardError.write(Data("storefront: \(error)\n".utf8))
    exit(2)
}
