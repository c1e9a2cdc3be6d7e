/// How the renderer includes other templates: partials (`{{>name}}`), parents (`{{<name}}`) and the
/// blocks (`{{$name}}`) a parent's includer may replace.
extension Renderer {
    mutating func render(_ partial: PartialNode, top: JSONScope?) throws(TemplateError) {
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

    mutating func render(_ parent: ParentNode, top: JSONScope?) throws(TemplateError) {
        guard let template = library?.template(named: parent.name) else {
            if missingPartials == .renderEmpty { return }
            throw .unknownParent(parent.name, at: parent.location)
        }
        overrides.append((parent.overrides, names))
        defer { overrides.removeLast() }
        try include(template, indentation: parent.indentation, location: parent.location, top: top)
    }

    /// Renders another template's nodes here, with its own names.
    private mutating func include(
        _ template: Template, indentation extra: String?, location: SourceLocation, top: JSONScope?
    ) throws(TemplateError) {
        guard depth < Self.depthLimit else { throw .tooDeep(template.name, limit: Self.depthLimit, at: location) }
        try pass(template.compiled.nodes, at: location)
        depth += 1
        defer { depth -= 1 }
        let saved = indentation
        if let extra {
            indentation += extra
            atLineStart = true
        }
        defer { indentation = saved }
        try render(template.compiled.nodes, names: template.compiled.names, top: top)
    }

    mutating func render(_ block: BlockNode, top: JSONScope?) throws(TemplateError) {
        // A block counts as a level, as an inclusion does: an override that shows the block it replaces
        // shows itself again, without end (found by FuzzTemplate: a stack overflow).
        guard depth < Self.depthLimit else { throw .blockTooDeep(block.name, limit: Self.depthLimit, at: block.location) }
        depth += 1
        defer { depth -= 1 }
        var content = block.children
        var contentNames = names
        for frame in overrides {
            if let replacement = frame.blocks[block.name] {
                content = replacement.children
                contentNames = frame.names
                break
            }
        }
        count(content)
        guard let extra = block.indentation else {
            try render(content, names: contentNames, top: top)
            return
        }
        let saved = indentation
        indentation += extra
        atLineStart = true
        defer { indentation = saved }
        try render(content, names: contentNames, top: top)
    }

    /// Renders nodes whose names number in `table` (those of another template, or of a block's override).
    private mutating func render(_ nodes: [Node], names table: NameTable, top: JSONScope?) throws(TemplateError) {
        let saved = names
        names = table
        defer { names = saved }
        try render(nodes, top: top)
    }
}
