/// Compiles a template's text into a tree of nodes: tokenizes, pairs scopes, removes standalone lines,
/// re-indents standalone blocks, and decides for each `{{name}}` how its value is written.
struct TemplateCompiler {
    private let source: SourceText
    private var tokens: [Token]
    private var html: HTMLContextScanner?
    private(set) var references: [TemplateReference] = []
    /// The names the template looks up, numbered as they are met.
    private(set) var names = NameTable.Builder()
    /// Every node compiled, in a plain array the compiled template keeps (see ``NodeArena``).
    private(set) var arena = NodeArena()
    /// Sections, inverted sections, parents and blocks open around the tokens being compiled.
    private var nesting = 0

    /// How deep sections, parents and blocks may nest in one template. Compiling (and rendering) a level
    /// takes stack, and about 7,700 levels overflowed it: a template of 200 KB crashed the process instead
    /// of failing. Templates nest a handful of levels; a user who needs more is told where and how many.
    static let nestingLimit = 100

    init(_ text: String, name: String, escaping: TemplateEscaping) throws(TemplateError) {
        source = SourceText(text, name: name)
        var tokenizer = Tokenizer(source)
        tokens = try tokenizer.tokens()
        try ScopeMatching.match(&tokens, in: source)
        StandaloneLines.mark(&tokens, in: source)
        html = escaping == .html ? HTMLContextScanner() : nil
    }

    mutating func compile() throws(TemplateError) -> [Node] {
        let nodes = try build(0..<tokens.count)
        try finishHTML()
        return nodes
    }

    private mutating func build(_ range: Range<Int>) throws(TemplateError) -> [Node] {
        let opensLevel = range.lowerBound > 0  // the tokens inside a section, parent or block
        if opensLevel {
            guard nesting < Self.nestingLimit else {
                let opening = tokens[range.lowerBound - 1]
                throw .syntax(
                    "\"\(opening.name)\" opens a level \(nesting + 1) deep, expected sections, parents and blocks nested at most \(Self.nestingLimit) deep",
                    at: source.location(of: opening.start))
            }
            nesting += 1
        }
        defer { if opensLevel { nesting -= 1 } }
        var nodes: [Node] = []
        var text: [UInt8] = []
        func flush() {
            guard !text.isEmpty else { return }
            let node = TextNode(
                text: String(decoding: text, as: UTF8.self), hasNewline: text.contains(0x0A), endsWithNewline: text.last == 0x0A)
            if case .variable(let variable)? = nodes.last, variable.after.isEmpty {
                // Text right after a value travels with it: one node to visit instead of two.
                nodes[nodes.count - 1] = .variable(arena.keep(VariableNode(name: variable.name, rule: variable.rule, after: node)))
            } else {
                nodes.append(.text(arena.keep(node)))
            }
            text.removeAll(keepingCapacity: true)
        }
        var index = range.lowerBound
        while index < range.upperBound {
            let token = tokens[index]
            switch token.kind {
            case .text:
                if !token.isRemoved {
                    let bytes = source.bytes[dedented(token)..<token.end]
                    html?.scan(bytes)
                    try checkHTML()
                    text.append(contentsOf: bytes)
                }
            case .variable, .rawVariable:
                flush()
                var rule = OutputRule.raw
                if var scanner = html {
                    let contextual = scanner.ruleForValue(at: token.start, raw: token.kind == .rawVariable)
                    html = scanner
                    try checkHTML()
                    if token.kind == .variable { rule = contextual }
                }
                nodes.append(.variable(arena.keep(VariableNode(name: Name(token.name, in: &names), rule: rule))))
            case .section, .inverted:
                flush()
                let before = names.lookups
                let scannerBefore = html
                // Before the children's, so that locations are asked in order (see `SourceText`).
                let location = source.location(of: token.start)
                let children = try build((index + 1)..<token.partner)
                try mergeHTML(skipped: scannerBefore, section: token)
                let lookups = names.lookups - before
                let section = SectionNode(
                    name: Name(token.name, in: &names), inverted: token.kind == .inverted, children: children, lookups: lookups,
                    location: location)
                nodes.append(.section(arena.keep(section)))
                index = token.partner
            case .partial:
                flush()
                try requireTextLevel(token, what: "a partial")
                let location = source.location(of: token.start)
                if !token.isDynamic { references.append(TemplateReference(name: token.name, isParent: false, location: location)) }
                nodes.append(
                    .partial(
                        arena.keep(
                            PartialNode(
                                name: token.name, dynamicName: token.isDynamic ? Name(token.name, in: &names) : nil,
                                indentation: indentation(of: token), location: location))))
            case .parent:
                flush()
                try requireTextLevel(token, what: "a parent")
                let location = source.location(of: token.start)
                references.append(TemplateReference(name: token.name, isParent: true, location: location))
                var overrides: [String: BlockNode] = [:]
                for child in try build((index + 1)..<token.partner) {
                    if case .block(let block) = child, overrides[block.name] == nil {
                        overrides[block.name] = block
                    }
                }
                nodes.append(
                    .parent(arena.keep(ParentNode(name: token.name, overrides: overrides, indentation: indentation(of: token), location: location))))
                index = token.partner
            case .block:
                flush()
                try requireTextLevel(token, what: "a block")
                let scannerBefore = html
                nodes.append(.block(arena.keep(try block(at: index))))
                try mergeHTML(skipped: scannerBefore, section: token)
                index = token.partner
            case .close, .comment, .delimiters:
                break
            }
            index += 1
        }
        flush()
        return nodes
    }

    /// Throws the scanner's refusal, if it has one, at its place in the template.
    private func checkHTML() throws(TemplateError) {
        guard let refusal = html?.refusal else { return }
        throw .syntax(refusal.reason, at: source.location(of: refusal.offset))
    }

    /// After a section: it may be skipped or repeated, so it must end where it began in the HTML, and
    /// what follows is read carefully for either way.
    private mutating func mergeHTML(skipped before: HTMLContextScanner?, section token: Token) throws(TemplateError) {
        guard var scanner = html, let before else { return }
        guard scanner.merge(skipped: before) else {
            throw .syntax(
                "section \"\(token.name)\" ends in another HTML context than it begins (a tag, an attribute, a script…), expected it to open and close in the same one",
                at: source.location(of: tokens[token.partner].start))
        }
        html = scanner
        try checkHTML()
    }

    /// Partials, parents and blocks are compiled on their own, from HTML text to HTML text, so they may
    /// only stand where a value is written as HTML text (text, or a quoted plain attribute).
    private func requireTextLevel(_ token: Token, what: String) throws(TemplateError) {
        guard let html, !html.takesPlainText else { return }
        throw .syntax(
            "\(what) (\"\(token.name)\") stands inside a tag, a URL, a script or a style, where its values would not be escaped for their place, expected it in the HTML text or a plain quoted attribute",
            at: source.location(of: token.start))
    }

    /// Checks that the template ends in HTML text, so that a template including it reads on from text.
    mutating func finishHTML() throws(TemplateError) {
        guard let html, !html.isAtTextLevel else { return }
        throw .syntax(
            "the template ends inside a tag, an attribute or a script, expected every tag, attribute and <script> or <style> closed",
            at: source.location(of: source.bytes.count))
    }

    /// Where a text run starts once the enclosing standalone block's indentation is removed from its line.
    private func dedented(_ token: Token) -> Int {
        guard token.dedent > 0, token.start == 0 || source.bytes[token.start - 1] == 0x0A else { return token.start }
        var start = token.start
        while start < token.end, start - token.start < token.dedent, source.bytes[start] == 0x20 || source.bytes[start] == 0x09 {
            start += 1
        }
        return start
    }

    /// The indentation of a standalone tag, less what the enclosing block removes.
    private func indentation(of token: Token) -> String? {
        guard token.isStandalone else { return nil }
        return String(token.indentation.utf8.dropFirst(token.dedent)) ?? ""
    }

    /// Compiles a block; when its opening tag stands alone, its content loses its common indentation, which
    /// is put back (or replaced by the overriding content's) where the block is shown.
    private mutating func block(at index: Int) throws(TemplateError) -> BlockNode {
        let open = tokens[index]
        let close = tokens[open.partner]
        var blockIndentation: String?
        if open.isStandalone {
            let common = commonIndentation(contentRange(open, close))
            for inner in (index + 1)..<open.partner { tokens[inner].dedent = common.count }
            let ownIndentation = common.isEmpty ? open.indentation : String(decoding: common, as: UTF8.self)
            blockIndentation = String(ownIndentation.utf8.dropFirst(open.dedent)) ?? ""
        }
        // Before the children's, so that locations are asked in order (see `SourceText`).
        let location = source.location(of: open.start)
        let children = try build((index + 1)..<open.partner)
        return BlockNode(name: open.name, children: children, indentation: blockIndentation, location: location)
    }

    private func contentRange(_ open: Token, _ close: Token) -> Range<Int> {
        let bytes = source.bytes
        var start = open.end
        if open.isStandalone, let newline = bytes[open.end..<close.start].firstIndex(of: 0x0A) { start = newline + 1 }
        var end = close.start
        if close.isStandalone, let newline = bytes[start..<close.start].lastIndex(of: 0x0A) { end = newline + 1 }
        if close.isStandalone, bytes[start..<close.start].lastIndex(of: 0x0A) == nil { end = start }
        return start..<max(start, end)
    }

    /// The whitespace every non-blank line of the range starts with.
    private func commonIndentation(_ range: Range<Int>) -> [UInt8] {
        var common: [UInt8]?
        var lineStart = range.lowerBound
        while lineStart < range.upperBound {
            var lineEnd = lineStart
            while lineEnd < range.upperBound, source.bytes[lineEnd] != 0x0A { lineEnd += 1 }
            var contentStart = lineStart
            while contentStart < lineEnd, source.bytes[contentStart] == 0x20 || source.bytes[contentStart] == 0x09 { contentStart += 1 }
            let blank = contentStart == lineEnd || (contentStart == lineEnd - 1 && source.bytes[contentStart] == 0x0D)
            if !blank {
                let leading = Array(source.bytes[lineStart..<contentStart])
                if let current = common {
                    common = Array(zip(current, leading).prefix(while: { $0 == $1 }).map(\.0))
                } else {
                    common = leading
                }
            }
            lineStart = lineEnd + 1
        }
        return common ?? []
    }
}
