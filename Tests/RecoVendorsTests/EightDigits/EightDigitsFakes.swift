import Foundation
@testable import RecoVendors

/// Answers 8digits requests from a queue of replies and remembers every request.
actor ScriptedEightDigitsTransport: EightDigitsTransport {
    private var replies: [String] = []
    private(set) var requests: [EightDigitsRequest] = []

    func reply(_ json: String...) { replies.append(contentsOf: json) }

    func send(_ request: EightDigitsRequest) async throws(EightDigitsError) -> Data {
        requests.append(request)
        guard !replies.isEmpty else { throw .transport("no scripted reply for \(request.url.path)") }
        return Data(replies.removeFirst().utf8)
    }

    var paths: [String] { requests.map(\.url.path) }
}

enum EightDigitsReplies {
    static let ok = #"{"result":{"code":0}}"#
    static let token = #"{"result":{"code":0},"data":{"authToken":"7b3f0c9e"}}"#
    static let refused = #"{"result":{"code":1,"message":"Authentication failed: invalid username or password"}}"#
    static func visit(_ session: String, hit: String) -> String { #"{"result":{"code":0},"data":{"sessionCode":"\#(session)","hitCode":"\#(hit)"}}"# }
    static func hit(_ code: String) -> String { #"{"result":{"code":0},"data":{"hitCode":"\#(code)"}}"# }
}
