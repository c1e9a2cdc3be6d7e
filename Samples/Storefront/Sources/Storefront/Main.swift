import StorefrontKit

/// The executable: argument-parser reads the command line and runs ``StorefrontCommand``.
@main
enum Main {
    static func main() async {
        await StorefrontCommand.main(nil)
    }
}
