import Foundation
import RecoTemplates
import RecoRelay

/// The `--templates DIR` option: a folder of `NAME.mustache` files searched before the built-in ones.
struct TemplateFolder {
    /// The folder, nil for the built-in templates only.
    let path: String?

    /// A folder that cannot be used as templates.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Whether the folder holds `NAME.mustache` (a template of the user's that may replace a built-in one).
    func holds(_ name: String) -> Bool {
        guard let path else { return false }
        return FileManager.default.fileExists(atPath: URL(fileURLWithPath: path, isDirectory: true).appendingPathComponent(name + ".mustache").path)
    }

    /// The library: the folder's templates first, then the built-in ones. The templates named in
    /// `plainText` (and the built-in `text`) render without HTML escaping.
    func library(plainText: Set<String> = []) throws -> TemplateLibrary {
        guard let path else { return .builtIn }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw Failure(description: "--templates \(path): \(FileManager.default.fileExists(atPath: path) ? FileProblem.isFile : "no such folder")")
        }
        let folder = URL(fileURLWithPath: path, isDirectory: true)
        let html = try TemplateLibrary(directory: folder, fallback: .builtIn)
        var texts: [String: String] = [:]
        for name in plainText.union(BuiltInTemplates.plainText) {
            let file = folder.appendingPathComponent(name + ".mustache")
            guard FileManager.default.fileExists(atPath: file.path) else { continue }
            do {
                texts[name] = try String(contentsOf: file, encoding: .utf8)
            } catch {
                throw Failure(description: "cannot read \(file.path): \(FileProblem.reason(error))")
            }
        }
        return texts.isEmpty ? html : try TemplateLibrary(templates: texts, escaping: .none, fallback: html)
    }
}
