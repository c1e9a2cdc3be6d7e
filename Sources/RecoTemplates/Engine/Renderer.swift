/// One render in progress: the output buffer, the context stack, the blocks passed down by parents, and
/// the indentation of standalone partials. Created per render, so renders share nothing mutable.
struct Renderer {
    /// The text written so far.
    var output: String
    /// The context stack, every value (the implicit iterator `.` reads the top).
    private var stack: [RenderValue]
    /// The objects of the context stack below the innermost JSON object (which is passed down the render
    /// as `top`), where names are looked up next: kept apart so that a lookup asks each scope in place,
    /// without copying stack entries.
    private var scopes: [Scope]
    /// The JSON objects of the stack, which ``Scope/object(_:)`` points into.
    private var objects: [[String: JSONValue]]
    /// The other objects of the stack, which ``Scope/context(_:)`` points into.
    private var contexts: [any TemplateContext]
    /// Block overrides, outermost parent first: the first match wins, so the top-level template decides.
    private var overrides: [[String: BlockNode]] = []
    private var indentation = ""
    private var atLineStart = false
    private var depth = 0
    /// The root value when it is a JSON object: the first `top`.
    private let rootObject: [String: JSONValue]?
    private let library: TemplateLibrary?
    private let missingPartials: MissingPartials

    static let depthLimit = 200

    init(root: TemplateValue, library: TemplateLibrary?, capacity: Int) {
        output = ""
        output.reserveCapacity(capacity)
        stack = [.template(root)]
        stack.reserveCapacity(16)
        scopes = []
        scopes.reserveCapacity(16)
        objects = []
        objects.reserveCapacity(16)
        contexts = []
        rootObject = Self.jsonObject(root)
        if rootObject == nil, case .context(let context) = root {
            scopes.append(.context(0))
            contexts.append(context)
        }
        self.library = library
        self.missingPartials = library?.missingPartials ?? .error
    }

    /// A JSON object at the root is recognised once, here; below it, JSON data stays JSON.
    private static func jsonObject(_ root: TemplateValue) -> [String: JSONValue]? {
        guard case .context(let context) = root, let json = context as? JSONValue, case .object(let members) = json else { return nil }
        return members
    }

    /// Renders a template's nodes with the root value at the bottom of the stack.
    mutating func render(_ nodes: [Node]) throws(TemplateError) {
        try render(nodes, top: rootObject)
    }

    /// Renders nodes. `top` is the innermost scope when it is a JSON object, passed down as an argument so
    /// that looking a name up in it retains nothing (``scopes`` holds the ones below it); nil when the
    /// innermost scope is another kind of object, or there is none.
    private mutating func render(_ nodes: [Node], top: [String: JSONValue]?) throws(TemplateError) {
        // Through a buffer pointer, so that visiting a node does not retain and release it.
        try nodes.withUnsafeBufferPointer { (buffer) throws(TemplateError) in
            for index in buffer.indices { try render(buffer[index], top: top) }
        }
    }

    @inline(__always)
    private mutating func render(_ node: Node, top: [String: JSONValue]?) throws(TemplateError) {
        switch node {
        case .text(let text):
            if indentation.isEmpty || !atLineStart && !text.hasNewline {
                output.append(text.text)
            } else {
                writeIndented(text.lines)
            }
            atLineStart = text.endsWithNewline
        case .variable(let variable):
            if atLineStart {
                if !indentation.isEmpty { output.append(indentation) }
                atLineStart = false
            }
            if variable.name.isSimple {
                writeValue(named: variable.name.head, variable.rule, top: top)
            } else if let value = resolve(variable.name, top: top) {
                write(value, variable.rule)
            }
            if !variable.after.isEmpty {
                if indentation.isEmpty || !atLineStart && !variable.afterHasNewline {
                    output.append(variable.after)
                } else {
                    writeIndented(variable.afterLines)
                }
                atLineStart = variable.afterEndsWithNewline
            }
        case .section(let section):
            try render(section, top: top)
        case .partial(let partial):
            try render(partial, top: top)
        case .parent(let parent):
            try render(parent, top: top)
        case .block(let block):
            try render(block, top: top)
        }
    }

    // MARK: Values

    /// Looks a name up: the first part down the context stack, the other parts inside what it found.
    @inline(__always)
    private func resolve(_ name: Name, top: [String: JSONValue]?) -> RenderValue? {
        if name.isImplicit { return stack.last }
        var index = scopes.count - 1
        if let top {
            if let member = top[name.head] {
                return name.isSimple ? .json(member) : RenderValue.json(member).descending(name.parts)
            }
        }
        while index >= 0 {
            if let value = lookUp(name.head, in: index) {
                return name.isSimple ? value : value.descending(name.parts)
            }
            index -= 1
        }
        return nil
    }

    /// Asks one scope of the stack for a key, in place (an array subscript would copy a context first).
    @inline(__always)
    private func lookUp(_ key: String, in index: Int) -> RenderValue? {
        switch scopes[index] {
        case .object(let position):
            objects.withUnsafeBufferPointer { $0[position][key] }.map(RenderValue.json)
        case .context(let position):
            contexts.withUnsafeBufferPointer { $0[position].value(forKey: key) }.map(RenderValue.template)
        }
    }

    /// Writes the value of a name without dots: looked up scope by scope, and written from where it is
    /// found without wrapping it first.
    @inline(__always)
    private mutating func writeValue(named key: String, _ rule: OutputRule, top: [String: JSONValue]?) {
        var index = scopes.count - 1
        if let top {
            if let member = top[key] {
                write(member, rule)
                return
            }
        }
        while index >= 0 {
            switch scopes[index] {
            case .object(let position):
                if let member = objects.withUnsafeBufferPointer({ $0[position][key] }) {
                    write(member, rule)
                    return
                }
            case .context(let position):
                if let value = contexts.withUnsafeBufferPointer({ $0[position].value(forKey: key) }) {
                    write(value, rule)
                    return
                }
            }
            index -= 1
        }
    }

    /// Writes static text with the current indentation at the start of each line.
    private mutating func writeIndented(_ lines: [String]) {
        for line in lines {
            if atLineStart { output.append(indentation) }
            output.append(line)
            atLineStart = line.utf8.last == 0x0A
        }
    }

    // MARK: Sections, partials, parents, blocks

    private mutating func render(_ section: SectionNode, top: [String: JSONValue]?) throws(TemplateError) {
        let value = resolve(section.name, top: top)
        if section.inverted {
            if !(value?.isTruthy ?? false) { try render(section.children, top: top) }
            return
        }
        guard let value, value.isTruthy else { return }
        switch value {
        case .template(.list(let elements)):
            let lowered = lower(top)
            defer { if lowered { raise() } }
            try elements.withUnsafeBufferPointer { (buffer) throws(TemplateError) in
                for index in buffer.indices { try render(section.children, innermost: .template(buffer[index])) }
            }
        case .json(.array(let elements)):
            let lowered = lower(top)
            defer { if lowered { raise() } }
            try elements.withUnsafeBufferPointer { (buffer) throws(TemplateError) in
                for index in buffer.indices { try render(section.children, innermost: .json(buffer[index])) }
            }
        case .template(.context), .json(.object):
            let lowered = lower(top)
            defer { if lowered { raise() } }
            try render(section.children, innermost: value)
        default:
            // Not an object: names are still looked up where they were.
            stack.append(value)
            defer { stack.removeLast() }
            try render(section.children, top: top)
        }
    }

    /// Moves the innermost JSON object, if any, into ``scopes``, under a scope about to be pushed over it.
    /// Returns whether there was one (then ``raise()`` must follow).
    private mutating func lower(_ top: [String: JSONValue]?) -> Bool {
        guard let top else { return false }
        scopes.append(.object(objects.count))
        objects.append(top)
        return true
    }

    /// Undoes ``lower(_:)``.
    private mutating func raise() {
        scopes.removeLast()
        objects.removeLast()
    }

    /// Renders nodes with a value pushed on the context stack, as the innermost scope when it is an object
    /// (the previous innermost JSON object must already be lowered into ``scopes``).
    private mutating func render(_ nodes: [Node], innermost value: RenderValue) throws(TemplateError) {
        stack.append(value)
        defer { stack.removeLast() }
        switch value {
        case .json(.object(let members)):
            try render(nodes, top: members)
        case .template(.context(let context)):
            scopes.append(.context(contexts.count))
            contexts.append(context)
            defer {
                scopes.removeLast()
                contexts.removeLast()
            }
            try render(nodes, top: nil)
        default:
            try render(nodes, top: nil)
        }
    }

    private mutating func render(_ partial: PartialNode, top: [String: JSONValue]?) throws(TemplateError) {
        var name = partial.name
        if let dynamicName = partial.dynamicName {
            guard let resolved = resolve(dynamicName, top: top)?.string else { return }
            name = resolved
        }
        guard let template = library?.template(named: name) else {
            if missingPartials == .renderEmpty { return }
            throw .unknownPartial(name, at: partial.location, dynamicFrom: partial.dynamicName?.text)
        }
        try include(template, indentation: partial.indentation, location: partial.location, top: top)
    }

    private mutating func render(_ parent: ParentNode, top: [String: JSONValue]?) throws(TemplateError) {
        guard let template = library?.template(named: parent.name) else {
            if missingPartials == .renderEmpty { return }
            throw .unknownParent(parent.name, at: parent.location)
        }
        overrides.append(parent.overrides)
        defer { overrides.removeLast() }
        try include(template, indentation: parent.indentation, location: parent.location, top: top)
    }

    private mutating func include(
        _ template: Template, indentation extra: String?, location: SourceLocation, top: [String: JSONValue]?
    ) throws(TemplateError) {
        guard depth < Self.depthLimit else { throw .tooDeep(template.name, limit: Self.depthLimit, at: location) }
        depth += 1
        defer { depth -= 1 }
        let saved = indentation
        if let extra {
            indentation += extra
            atLineStart = true
        }
        defer { indentation = saved }
        try render(template.compiled.nodes, top: top)
    }

    private mutating func render(_ block: BlockNode, top: [String: JSONValue]?) throws(TemplateError) {
        var content = block.children
        for frame in overrides {
            if let replacement = frame[block.name] {
                content = replacement.children
                break
            }
        }
        guard let extra = block.indentation else {
            try render(content, top: top)
            return
        }
        let saved = indentation
        indentation += extra
        atLineStart = true
        defer { indentation = saved }
        try render(content, top: top)
    }
}
