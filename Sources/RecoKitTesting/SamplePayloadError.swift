/// A sample payload that cannot be found or read. Its description says which and where.
public struct SamplePayloadError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Base: Hashable, Sendable {
        case missingFolder(String)
        case missingPayload(String, folder: String, available: [String])
        case unreadable(String, reason: String)
    }

    private let base: Base

    private init(_ base: Base) { self.base = base }

    /// The payload folder does not exist.
    public static func missingFolder(_ path: String) -> SamplePayloadError { SamplePayloadError(.missingFolder(path)) }

    /// No payload has this name.
    public static func missingPayload(_ name: String, folder: String, available: [String]) -> SamplePayloadError {
        SamplePayloadError(.missingPayload(name, folder: folder, available: available))
    }

    /// The payload's file exists but cannot be read.
    public static func unreadable(_ path: String, reason: String) -> SamplePayloadError { SamplePayloadError(.unreadable(path, reason: reason)) }

    /// What kind of failure this is: compare with the static members (`error.kind == .missingFolder`).
    /// New kinds may be added; a `switch` over them needs a `default`.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        fileprivate let name: String
        /// The payload folder does not exist.
        public static let missingFolder = Kind(name: "missingFolder")
        /// No payload has the name asked for.
        public static let missingPayload = Kind(name: "missingPayload")
        /// The payload's file exists but cannot be read.
        public static let unreadable = Kind(name: "unreadable")
        public var description: String { name }
    }

    /// The kind of failure.
    public var kind: Kind {
        switch base {
        case .missingFolder: .missingFolder
        case .missingPayload: .missingPayload
        case .unreadable: .unreadable
        }
    }

    public var description: String {
        switch base {
        case .missingFolder(let path):
            "the sample payload folder \(path) does not exist: RecoKitTesting finds Samples/Payloads beside its own sources; set \(SamplePayloads.environmentVariable) to another folder"
        case .missingPayload(let name, let folder, let available):
            "no sample payload named \"\(name)\" in \(folder); there are: \(available.isEmpty ? "none" : available.joined(separator: ", "))"
        case .unreadable(let path, let reason):
            "cannot read the sample payload \(path): \(reason)"
        }
    }
}
