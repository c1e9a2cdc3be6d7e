import Foundation

/// A set of named templates: partials (`{{>name}}`) and parents (`{{<name}}`) resolve here, and every name a
/// template includes is checked when the library is built.
///
/// A library may fall back on another: a name resolves in this library first, then in the fallback, which is
/// how a folder of user templates overrides some built-in ones and inherits the rest.
///
/// ```swift
/// let builtIn = try TemplateLibrary(templates: ["page": "<main>{{$body}}{{/body}}</main>"])
/// let user = try TemplateLibrary(templates: ["home": "{{<page}}{{$body}}Hi{{/body}}{{/page}}"], fallback: builtIn)
/// try user.render("home", .null)   // "<main>Hi</main>"
/// ```
public struct TemplateLibrary: Sendable {
    private let storage: Storage

    private final class Storage: Sendable {
        let templates: [String: Template]
        /// The file each template read from a folder came from, by name.
        let files: [String: String]
        let fallback: TemplateLibrary?
        let missingPartials: MissingPartials

        init(templates: [String: Template], files: [String: String], fallback: TemplateLibrary?, missingPartials: MissingPartials) {
            self.templates = templates
            self.files = files
            self.fallback = fallback
            self.missingPartials = missingPartials
        }
    }

    /// Compiles named templates.
    /// - Parameters:
    ///   - templates: Template text by name.
    ///   - escaping: How the templates write values. A template that overrides one of the fallback's keeps
    ///     the fallback's escaping, so a user's `text` stays plain text.
    ///   - missingPartials: Whether a partial or parent that names no template is an error (the default)
    ///     or renders as empty text.
    ///   - fallback: Where names not found here resolve.
    /// - Throws: ``TemplateError`` for the first malformed template, or the first partial or parent that
    ///   names no template, with its template, line and column.
    public init(
        templates: [String: String], escaping: TemplateEscaping = .html, missingPartials: MissingPartials = .error,
        fallback: TemplateLibrary? = nil
    ) throws(TemplateError) {
        var compiled: [Template] = []
        for name in templates.keys.sorted() {
            let mode = fallback?.template(named: name)?.escaping ?? escaping
            compiled.append(try Template(templates[name]!, name: name, escaping: mode))
        }
        try self.init(compiled: compiled, missingPartials: missingPartials, fallback: fallback)
    }

    /// Gathers compiled templates (each keeps its own escaping), by their names.
    /// - Throws: ``TemplateError`` for the first partial or parent that names no template.
    public init(compiled templates: [Template], missingPartials: MissingPartials = .error, fallback: TemplateLibrary? = nil)
        throws(TemplateError)
    {
        try self.init(compiled: templates, files: [:], missingPartials: missingPartials, fallback: fallback)
    }

    private init(compiled templates: [Template], files: [String: String], missingPartials: MissingPartials, fallback: TemplateLibrary?)
        throws(TemplateError)
    {
        var byName: [String: Template] = [:]
        for template in templates { byName[template.name] = template }
        storage = Storage(templates: byName, files: files, fallback: fallback, missingPartials: missingPartials)
        for name in byName.keys.sorted() {
            do throws(TemplateError) { try check(byName[name]!) } catch { throw located(error) }
        }
    }

    /// The largest template file a folder may hold (16 MiB): a larger one is refused, not read.
    public static let largestFileBytes = 16 << 20

    /// Loads every `*.mustache` file of a folder (the name is the file name without its extension).
    /// - Parameters:
    ///   - directory: The folder; files in subfolders are named `sub/name`.
    ///   - fileExtension: The extension of template files.
    ///   - escaping: How the templates write values (a file that overrides a fallback template keeps its escaping).
    ///   - fallback: Where names not found in the folder resolve (for example the built-in templates).
    /// - Throws: ``TemplateError`` when the folder cannot be read; a template file is not a regular file, is
    ///   larger than ``largestFileBytes`` or is not UTF-8 (with the line and column of the first byte that
    ///   is not); a template is malformed; or a partial or parent names no template here or in the fallback.
    public init(
        directory: URL, fileExtension: String = "mustache", escaping: TemplateEscaping = .html,
        missingPartials: MissingPartials = .error, fallback: TemplateLibrary? = nil
    ) throws(TemplateError) {
        let files = try Self.templateFiles(in: directory, fileExtension: fileExtension)
        var compiled: [Template] = []
        for (name, url) in files.sorted(by: { $0.key < $1.key }) {
            let text = try TemplateFile.text(of: url, name: name)
            let mode = fallback?.template(named: name)?.escaping ?? escaping
            do throws(TemplateError) {
                compiled.append(try Template(text, name: name, escaping: mode))
            } catch {
                throw error.inFile(url.path)
            }
        }
        try self.init(compiled: compiled, files: files.mapValues(\.path), missingPartials: missingPartials, fallback: fallback)
    }

    private static func templateFiles(in directory: URL, fileExtension: String) throws(TemplateError) -> [String: URL] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .unreadable(directory.path, reason: "no such folder")
        }
        guard let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles]) else {
            throw .unreadable(directory.path, reason: "the folder cannot be listed")
        }
        let base = directory.standardizedFileURL.resolvingSymlinksInPath().pathComponents
        var files: [String: URL] = [:]
        for case let url as URL in enumerator where url.pathExtension == fileExtension {
            let components = url.standardizedFileURL.resolvingSymlinksInPath().pathComponents
            let relative = components.dropFirst(base.count).joined(separator: "/")
            let name = String(relative.dropLast(fileExtension.count + 1))
            files[name] = url
        }
        return files
    }

    /// The template of this name, here or in the fallback.
    public func template(named name: String) -> Template? {
        storage.templates[name] ?? storage.fallback?.template(named: name)
    }

    /// Renders the template of this name, its partials and parents resolving in this library.
    /// - Parameter limits: How much the render may repeat and write (see ``RenderLimits``).
    /// - Throws: ``TemplateError`` when there is no such template, or rendering fails.
    public func render(_ name: String, _ value: TemplateValue, limits: RenderLimits = .default) throws(TemplateError) -> String {
        guard let template = template(named: name) else { throw .unknownTemplate(name, known: names) }
        return try template.render(value, partials: self, limits: limits)
    }

    /// The file the template of this name was read from, here or in the fallback; nil for one given as text.
    public func file(of name: String) -> String? {
        if storage.templates[name] != nil { return storage.files[name] }
        return storage.fallback?.file(of: name)
    }

    /// `error`, placed in the file of the template it names when this library read that from a folder.
    /// An error in `template` (the one rendered) is placed only when it is this library's template of that
    /// name, not another that shares its name.
    func located(_ error: TemplateError, renderedFrom template: Template? = nil) -> TemplateError {
        if let template, error.templateName == template.name, self.template(named: template.name)?.compiled !== template.compiled {
            return error
        }
        return error.inFile(file(of: error.templateName))
    }

    /// Every name that resolves, here or in the fallback, sorted.
    public var names: [String] {
        Array(Set(storage.templates.keys).union(storage.fallback?.names ?? [])).sorted()
    }

    /// Whether a partial or parent that names no template is an error or renders as empty text.
    public var missingPartials: MissingPartials { storage.missingPartials }

    /// Checks that every partial and parent a template names exists in this library.
    /// - Throws: ``TemplateError`` for the first that does not, with its line and column.
    public func check(_ template: Template) throws(TemplateError) {
        guard missingPartials == .error else { return }
        for reference in template.compiled.references where self.template(named: reference.name) == nil {
            throw reference.isParent
                ? .unknownParent(reference.name, at: reference.location)
                : .unknownPartial(reference.name, at: reference.location)
        }
    }
}
