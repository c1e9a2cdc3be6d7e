/// A widget that could not be rendered: the template does not exist, or the template failed.
///
/// Its description is one line: `no template named "carusel" (have: carousel, email, grid, list, text)`,
/// or the template error with its name, line and column.
public struct RenderError: Error, Sendable, CustomStringConvertible {
    private enum Base: Sendable {
        case unknownTemplate(name: String, available: [String])
        case template(TemplateError)
    }

    private let base: Base

    private init(_ base: Base) { self.base = base }

    /// No template has this name.
    public static func unknownTemplate(_ name: String, available: [String]) -> RenderError {
        RenderError(.unknownTemplate(name: name, available: available))
    }

    /// The template failed to render.
    public static func template(_ error: TemplateError) -> RenderError {
        RenderError(.template(error))
    }

    /// What kind of failure this is: compare with the static members (`error.kind == .unknownTemplate`).
    /// New kinds may be added; a `switch` over them needs a `default`.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        fileprivate let name: String
        /// No template has the name asked for (``missingTemplate`` names it).
        public static let unknownTemplate = Kind(name: "unknownTemplate")
        /// The template failed to render (``templateError`` says where).
        public static let template = Kind(name: "template")
        public var description: String { name }
    }

    /// The kind of failure.
    public var kind: Kind {
        switch base {
        case .unknownTemplate: .unknownTemplate
        case .template: .template
        }
    }

    /// The engine's error, when the template itself failed.
    public var templateError: TemplateError? {
        if case .template(let error) = base { error } else { nil }
    }

    /// The missing template's name, when no template had the name asked for.
    public var missingTemplate: String? {
        if case .unknownTemplate(let name, _) = base { name } else { nil }
    }

    public var description: String {
        switch base {
        case .unknownTemplate(let name, let available):
            let names = available.filter { !$0.hasPrefix("reco-") }
            return "no template named \"\(name)\" (have: \(names.joined(separator: ", ")))"
        case .template(let error):
            return error.description
        }
    }
}
