/// One render in progress: the output buffer, the context stack, the blocks passed down by parents, and
/// the indentation of standalone partials. Created per render, so renders share nothing mutable.
struct Renderer {
    private(set) var output: String
    private var stack: [TemplateValue]
    /// Block overrides, outermost parent first: the first match wins, so the top-level template decides.
    private var overrides: [[String: BlockNode]] = []
    private var indentation = ""
    private var atLineStart = false
    private var depth = 0
    private let library: TemplateLibrary?
    private let missingPartials: MissingPartials

    static let depthLimit = 200

    init(root: TemplateValue, library: TemplateLibrary?, capacity: Int) {
        output = ""
        output.reserveCapacity(capacity)
        stack = [root]
        stack.reserveCapacity(16)
        self.library = library
        self.missingPartials = library?.missingPartials ?? .error
    }

    mutating func render(_ nodes: [Node]) throws(TemplateError) {
        for node in nodes {
            switch node {
            case .text(let text):
                if indentation.isEmpty || !atLineStart && !text.hasNewline {
                    output.append(text.text)
                } else {
                    writeIndented(text.text)
                }
                atLineStart = text.endsWithNewline
            case .variable(let variable):
                if atLineStart {
                    if !indentation.isEmpty { output.append(indentation) }
                    atLineStart = false
                }
                guard let value = resolve(variable.name) else { continue }
                write(value, variable.rule)
            case .section(let section):
                try render(section)
            case .partial(let partial):
                try render(partial)
            case .parent(let parent):
                try render(parent)
            case .block(let block):
                try render(block)
            }
        }
    }

    // MARK: Values

    /// Looks a name up: the first part down the context stack, the other parts inside what it found.
    private func resolve(_ name: Name) -> TemplateValue? {
        if name.isImplicit { return stack.last }
        var found: TemplateValue?
        var index = stack.count - 1
        while index >= 0 {
            if case .context(let context) = stack[index], let value = context.value(forKey: name.head) {
                found = value
                break
            }
            index -= 1
        }
        guard var current = found else { return nil }
        if name.parts.count > 1 {
            for part in name.parts.dropFirst() {
                guard case .context(let context) = current, let next = context.value(forKey: part) else { return nil }
                current = next
            }
        }
        return current
    }

    private mutating func write(_ value: TemplateValue, _ rule: OutputRule) {
        let text: String
        switch value {
        case .string(let string): text = string
        case .number(let number): text = number.text
        case .bool(let flag): text = flag ? "true" : "false"
        case .null, .list, .context: return
        }
        switch rule {
        case .raw: output.append(text)
        case .text: HTMLEscaping.append(text, to: &output)
        case .unquoted: HTMLEscaping.appendUnquoted(text, to: &output)
        case .url(let part, let unquoted):
            let safe: String
            switch part {
            case .start: safe = HTMLEscaping.isSafeURL(text) ? text : HTMLEscaping.harmlessURL
            case .continuation: safe = HTMLEscaping.isSafeURLContinuation(text) ? text : ""
            case .sourceSet: safe = HTMLEscaping.isSafeSourceSet(text) ? text : HTMLEscaping.harmlessURL
            }
            if unquoted { HTMLEscaping.appendUnquoted(safe, to: &output) } else { HTMLEscaping.append(safe, to: &output) }
        }
    }

    /// Writes static text with the current indentation at the start of each line.
    private mutating func writeIndented(_ text: String) {
        var lineStart = text.utf8.startIndex
        var index = lineStart
        let utf8 = text.utf8
        while index != utf8.endIndex {
            let isNewline = utf8[index] == 0x0A
            utf8.formIndex(after: &index)
            if isNewline || index == utf8.endIndex {
                if atLineStart { output.append(indentation) }
                output.append(contentsOf: text[lineStart..<index])
                atLineStart = isNewline
                lineStart = index
            }
        }
    }

    // MARK: Sections, partials, parents, blocks

    private mutating func render(_ section: SectionNode) throws(TemplateError) {
        let value = resolve(section.name)
        if section.inverted {
            if !(value?.isTruthy ?? false) { try render(section.children) }
            return
        }
        guard let value, value.isTruthy else { return }
        if case .list(let elements) = value {
            for element in elements {
                stack.append(element)
                try render(section.children)
                stack.removeLast()
            }
        } else {
            stack.append(value)
            try render(section.children)
            stack.removeLast()
        }
    }

    private mutating func render(_ partial: PartialNode) throws(TemplateError) {
        var name = partial.name
        if let dynamicName = partial.dynamicName {
            guard case .string(let resolved)? = resolve(dynamicName) else { return }
            name = resolved
        }
        guard let template = library?.template(named: name) else {
            if missingPartials == .renderEmpty { return }
            throw .unknownPartial(name, at: partial.location, dynamicFrom: partial.dynamicName?.text)
        }
        try include(template, indentation: partial.indentation, location: partial.location)
    }

    private mutating func render(_ parent: ParentNode) throws(TemplateError) {
        guard let template = library?.template(named: parent.name) else {
            if missingPartials == .renderEmpty { return }
            throw .unknownParent(parent.name, at: parent.location)
        }
        overrides.append(parent.overrides)
        defer { overrides.removeLast() }
        try include(template, indentation: parent.indentation, location: parent.location)
    }

    private mutating func include(_ template: Template, indentation extra: String?, location: SourceLocation) throws(TemplateError) {
        guard depth < Self.depthLimit else { throw .tooDeep(template.name, limit: Self.depthLimit, at: location) }
        depth += 1
        defer { depth -= 1 }
        let saved = indentation
        if let extra {
            indentation += extra
            atLineStart = true
        }
        defer { indentation = saved }
        try render(template.compiled.nodes)
    }

    private mutating func render(_ block: BlockNode) throws(TemplateError) {
        var content = block.children
        for frame in overrides {
            if let replacement = frame[block.name] {
                content = replacement.children
                break
            }
        }
        guard let extra = block.indentation else {
            try render(content)
            return
        }
        let saved = indentation
        indentation += extra
        atLineStart = true
        defer { indentation = saved }
        try render(content)
    }
}
