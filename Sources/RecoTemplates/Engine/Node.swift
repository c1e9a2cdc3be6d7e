/// One piece of a compiled template. A template compiles once into a tree of these and is rendered many times.
enum Node: Sendable {
    case text(TextNode)
    case variable(VariableNode)
    case section(SectionNode)
    case partial(PartialNode)
    case parent(ParentNode)
    case block(BlockNode)
}

/// Keeps every node of one compiled template in a plain array, beside the tree.
///
/// The tree holds its nodes itself; this array is for tools that follow pointers. `Node`'s cases store
/// their references with the case in the pointer's spare bits, which LeakSanitizer (the fuzz targets run
/// under it) cannot follow: without the array, the nodes of every template kept for the process's life
/// (the built-in library's) were reported as leaked.
struct NodeArena: Sendable {
    private var nodes: [any AnyObject & Sendable] = []

    /// Keeps `node` in the array and gives it back.
    mutating func keep<Kind: AnyObject & Sendable>(_ node: Kind) -> Kind {
        nodes.append(node)
        return node
    }
}

/// Static text, written as it is.
final class TextNode: Sendable {
    let text: String
    /// Whether the text is all ASCII (written the quick way, see ``Output``).
    let isASCII: Bool
    /// Whether the text contains a newline (indented partials then need the slow path).
    let hasNewline: Bool
    /// Whether the text ends with a newline (the next line starts after it).
    let endsWithNewline: Bool
    /// The text cut after every newline, for indented partials, which write each line after the indentation.
    let lines: [String]

    init(text: String, hasNewline: Bool, endsWithNewline: Bool) {
        self.text = text
        self.isASCII = text.utf8.allSatisfy { $0 < 0x80 }
        self.hasNewline = hasNewline
        self.endsWithNewline = endsWithNewline
        var lines: [String] = []
        let utf8 = text.utf8
        var start = utf8.startIndex
        while let newline = utf8[start...].firstIndex(of: 0x0A) {
            let end = utf8.index(after: newline)
            lines.append(String(text[start..<end]))
            start = end
        }
        if start != utf8.endIndex { lines.append(String(text[start...])) }
        self.lines = lines
    }
}

/// `{{name}}`, `{{{name}}}` or `{{& name}}`, and the static text right after it, if any. The text is kept
/// in this node, field by field as in ``TextNode``, so that a render visits one node for both.
final class VariableNode: Sendable {
    let name: Name
    let rule: OutputRule
    /// The text that follows the tag; empty when another tag or the end follows.
    let after: String
    /// Whether ``after`` is not empty.
    let hasAfter: Bool
    /// Whether ``after`` is all ASCII.
    let afterIsASCII: Bool
    let afterHasNewline: Bool
    let afterEndsWithNewline: Bool
    let afterLines: [String]

    init(name: Name, rule: OutputRule, after: TextNode? = nil) {
        self.name = name
        self.rule = rule
        self.after = after?.text ?? ""
        self.hasAfter = !self.after.isEmpty
        self.afterIsASCII = after?.isASCII ?? true
        self.afterHasNewline = after?.hasNewline ?? false
        self.afterEndsWithNewline = after?.endsWithNewline ?? false
        self.afterLines = after?.lines ?? []
    }
}

/// `{{#name}}…{{/name}}` or `{{^name}}…{{/name}}`.
final class SectionNode: Sendable {
    let name: Name
    let inverted: Bool
    let children: [Node]
    /// How many names the children look up (each time they are rendered, not counting partials').
    let lookups: Int
    /// Where its opening tag is: a render stopped by its ``RenderLimits`` says so.
    let location: SourceLocation

    init(name: Name, inverted: Bool, children: [Node], lookups: Int, location: SourceLocation) {
        self.name = name
        self.inverted = inverted
        self.children = children
        self.lookups = lookups
        self.location = location
    }
}

/// `{{>name}}` or `{{>*name}}`.
final class PartialNode: Sendable {
    /// The template's name, or for a dynamic partial the name of the value that holds it.
    let name: String
    /// For `{{>*name}}`: the name looked up in the data.
    let dynamicName: Name?
    /// For a standalone tag, the whitespace before it, put before every line of the partial.
    let indentation: String?
    let location: SourceLocation

    init(name: String, dynamicName: Name?, indentation: String?, location: SourceLocation) {
        self.name = name
        self.dynamicName = dynamicName
        self.indentation = indentation
        self.location = location
    }
}

/// `{{<name}}…{{/name}}`: another template rendered with some of its blocks replaced.
final class ParentNode: Sendable {
    let name: String
    /// The replacement for each block, by block name.
    let overrides: [String: BlockNode]
    let indentation: String?
    let location: SourceLocation

    init(name: String, overrides: [String: BlockNode], indentation: String?, location: SourceLocation) {
        self.name = name
        self.overrides = overrides
        self.indentation = indentation
        self.location = location
    }
}

/// `{{$name}}…{{/name}}`: a replaceable block with its default content.
final class BlockNode: Sendable {
    let name: String
    /// Its content, with the block's own indentation removed when it stands alone.
    let children: [Node]
    /// For a standalone block, the indentation its content gets where it is shown.
    let indentation: String?
    /// Where its opening tag is, for an error raised while rendering it.
    let location: SourceLocation

    init(name: String, children: [Node], indentation: String?, location: SourceLocation) {
        self.name = name
        self.children = children
        self.location = location
        self.indentation = indentation
    }
}

/// A partial or parent named by a template, checked when a library is loaded.
struct TemplateReference: Sendable {
    let name: String
    let isParent: Bool
    let location: SourceLocation
}
