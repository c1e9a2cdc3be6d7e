import RecoHTTP
import RecoRelay

/// `recokit relay`: the relay (``RecoRelay/Relay``) over a journal.
enum RelayCommand: Command {
    static let name = "relay"
    static let summary = "Journal interactions from stdin (JSON lines) and deliver them to a vendor"
    static let usage = Relay.usage(program: "recokit", store: Relay.journal)

    static func run(_ words: [String]) async throws -> Int32 {
        await Relay.run(program: "recokit", words, store: Relay.journal, transport: URLSessionTransport.shared)
    }
}
