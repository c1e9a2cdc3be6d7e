import Foundation

/// RecoKit's sample vendor payloads (`Samples/Payloads/` in the package), as fixtures for your tests.
///
/// The folder is found from this source file's location, which works when your package depends on
/// RecoKit through SwiftPM (its sources are checked out beside your build). Set the environment
/// variable `RECOKIT_SAMPLE_PAYLOADS` to a folder to use other payloads.
///
/// ```swift
/// let data = try SamplePayloads.data(named: "reteno-recoms-full")
/// let recoms = try RetenoRecoms.decode(data, variantId: RetenoVariantId("r1107v1482"))
/// ```
public enum SamplePayloads {
    /// The environment variable that points at another payload folder.
    public static let environmentVariable = "RECOKIT_SAMPLE_PAYLOADS"

    /// The folder that holds the payloads (it may not exist; the other members check).
    public static var folder: URL {
        if let override = ProcessInfo.processInfo.environment[environmentVariable], !override.isEmpty {
            return URL(fileURLWithPath: override, isDirectory: true)
        }
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // RecoKitTesting
            .deletingLastPathComponent()  // Sources
            .deletingLastPathComponent()  // the package
            .appendingPathComponent("Samples/Payloads", isDirectory: true)
    }

    /// The names of every payload (file names without `.json`), sorted.
    /// - Throws: ``SamplePayloadError`` when the folder is missing.
    public static var names: [String] {
        get throws(SamplePayloadError) {
            try files().map { $0.deletingPathExtension().lastPathComponent }
        }
    }

    /// Every payload file, sorted by name.
    /// - Throws: ``SamplePayloadError`` when the folder is missing.
    public static var all: [URL] {
        get throws(SamplePayloadError) { try files() }
    }

    /// The file of a payload, named with or without `.json` (`"reteno-recoms-full"`).
    /// - Throws: ``SamplePayloadError`` when the folder or the file is missing (it lists the names there are).
    public static func url(named name: String) throws(SamplePayloadError) -> URL {
        let fileName = name.hasSuffix(".json") ? name : name + ".json"
        let available = try files()
        guard let url = available.first(where: { $0.lastPathComponent == fileName }) else {
            throw .missingPayload(name, folder: folder.path, available: available.map { $0.deletingPathExtension().lastPathComponent })
        }
        return url
    }

    /// The bytes of a payload.
    /// - Throws: ``SamplePayloadError`` when it is missing or cannot be read.
    public static func data(named name: String) throws(SamplePayloadError) -> Data {
        let url = try url(named: name)
        do {
            return try Data(contentsOf: url)
        } catch {
            throw .unreadable(url.path, reason: error.localizedDescription)
        }
    }

    /// A payload parsed as JSON.
    /// - Throws: ``SamplePayloadError`` when it is missing or unreadable, ``PayloadError`` when it is not JSON.
    public static func json(named name: String) throws -> JSONValue {
        try JSONValue(parsing: data(named: name))
    }

    static func files(in folder: URL = SamplePayloads.folder) throws(SamplePayloadError) -> [URL] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .missingFolder(folder.path)
        }
        let contents = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? []
        return contents.filter { $0.pathExtension == "json" }.sorted { $0.deletingPathExtension().lastPathComponent < $1.deletingPathExtension().lastPathComponent }
    }
}
