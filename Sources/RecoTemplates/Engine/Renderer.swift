import RecoKit

/// One render in progress: the output buffer, the context stack, the blocks passed down by parents, and
/// the indentation of standalone partials. Created per render, so renders share nothing mutable.
struct Renderer {
    /// The text written so far.
    var output: Output
    /// The context stack, every value (the implicit iterator `.` reads the top).
    var stack: [StackEntry]
    /// The objects of the context stack below the innermost JSON object (which is passed down the render
    /// as `top`), where names are looked up next: kept apart so that a lookup asks each scope in place,
    /// without copying stack entries.
    var scopes: [Scope]
    /// The JSON objects of the stack, which ``Scope/object(_:)`` points into.
    var objects: [JSONScope]
    /// The other objects of the stack, which ``Scope/context(_:)`` points into.
    var contexts: [any TemplateContext]
    /// The slots of the JSON scopes whose keys were matched to a template's names (see ``JSONScope``).
    var slots = ScopeSlots()
    /// The names of the template whose nodes are being rendered: a ``Name/slot`` is a number in this table.
    var names: NameTable
    /// Block overrides, outermost parent first, each with the names of the template that wrote them: the
    /// first match wins, so the top-level template decides.
    var overrides: [(blocks: [String: BlockNode], names: NameTable)] = []
    /// What standalone partials and blocks put before each line they write.
    var indentation = "" {
        didSet { isIndented = !indentation.isEmpty }
    }
    /// Whether ``indentation`` is not empty (asked at every node, so kept at hand).
    private(set) var isIndented = false
    var atLineStart = false
    /// Templates included (partials, parents) and sections open around the node being rendered. Each level
    /// takes stack: inclusion stops at ``depthLimit``, and a template nests at most
    /// `TemplateCompiler.nestingLimit` sections, so rendering never goes deeper than the sum (a partial that
    /// included itself inside 60 sections overflowed an 8 MB stack when only inclusions counted).
    var depth = 0
    /// The root value when it is a JSON object: the first `top`.
    private var root: JSONScope?
    let library: TemplateLibrary?
    let missingPartials: MissingPartials
    let limits: RenderLimits
    /// The steps counted so far (see ``RenderLimits/maximumSteps``).
    private var steps = 0

    static let depthLimit = 200

    /// Starts a render of a template whose names are `names`, which makes `lookups` name lookups.
    init(root: TemplateValue, names: NameTable, lookups: Int, library: TemplateLibrary?, limits: RenderLimits, capacity: Int) {
        output = Output(capacity: capacity)
        stack = [.value(.template(root))]
        stack.reserveCapacity(16)
        scopes = []
        scopes.reserveCapacity(16)
        objects = []
        objects.reserveCapacity(16)
        contexts = []
        self.names = names
        self.library = library
        self.limits = limits
        self.missingPartials = library?.missingPartials ?? .error
        // A JSON object at the root is recognised once, here; below it, JSON data stays JSON.
        if case .context(let context) = root, let json = context as? JSONValue, case .object(let members) = json {
            self.root = JSONScope(members, names: names, lookups: lookups, slots: &slots)
        } else if case .context(let context) = root {
            scopes.append(.context(0))
            contexts.append(context)
        }
    }

    /// Renders a template's nodes with the root value at the bottom of the stack.
    mutating func render(_ nodes: [Node]) throws(TemplateError) {
        try render(nodes, top: root)
    }

    /// Renders nodes. `top` is the innermost scope when it is a JSON object, passed down as an argument so
    /// that looking a name up in it retains nothing (``scopes`` holds the ones below it); nil when the
    /// innermost scope is another kind of object, or there is none.
    mutating func render(_ nodes: [Node], top: JSONScope?) throws(TemplateError) {
        for node in nodes { try render(node, top: top) }
    }

    @inline(__always)
    private mutating func render(_ node: Node, top: JSONScope?) throws(TemplateError) {
        switch node {
        case .text(let text):
            render(text)
        case .variable(let variable):
            render(variable, top: top)
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

    @inline(__always)
    private mutating func render(_ text: TextNode) {
        if !isIndented || !atLineStart && !text.hasNewline {
            if text.isASCII { output.write(ascii: text.text) } else { output.write(text.text) }
        } else {
            writeIndented(text.lines)
        }
        atLineStart = text.endsWithNewline
    }

    @inline(__always)
    private mutating func render(_ variable: VariableNode, top: JSONScope?) {
        if atLineStart {
            if isIndented { output.write(indentation) }
            atLineStart = false
        }
        if variable.name.isSimple {
            writeValue(named: variable.name, variable.rule, top: top)
        } else if let value = resolve(variable.name, top: top) {
            write(value, variable.rule)
        }
        if variable.hasAfter {
            if !isIndented || !atLineStart && !variable.afterHasNewline {
                if variable.afterIsASCII { output.write(ascii: variable.after) } else { output.write(variable.after) }
            } else {
                writeIndented(variable.afterLines)
            }
            atLineStart = variable.afterEndsWithNewline
        }
    }

    /// Writes static text with the current indentation at the start of each line.
    private mutating func writeIndented(_ lines: [String]) {
        for line in lines {
            if atLineStart { output.write(indentation) }
            output.write(line)
            atLineStart = line.utf8.last == 0x0A
        }
    }

    // MARK: Sections

    private mutating func render(_ section: SectionNode, top: JSONScope?) throws(TemplateError) {
        depth += 1
        defer { depth -= 1 }
        let value = resolve(section.name, top: top)
        if section.inverted {
            if !(value?.isTruthy ?? false) {
                try pass(section.children, at: section.location)
                try render(section.children, top: top)
            }
            return
        }
        guard let value, value.isTruthy else { return }
        switch value {
        case .template(.list(let elements)):
            let lowered = lower(top)
            defer { if lowered { raise() } }
            for element in elements {
                try pass(section.children, at: section.location)
                try render(section.children, innermost: .template(element), lookups: section.lookups)
            }
        case .json(.array(let elements)):
            let lowered = lower(top)
            defer { if lowered { raise() } }
            for element in elements {
                try pass(section.children, at: section.location)
                if case .object(let members) = element {
                    try render(section.children, innermost: members, lookups: section.lookups)
                } else {
                    try render(section.children, innermost: .json(element), lookups: section.lookups)
                }
            }
        case .template(.context), .json(.object):
            try pass(section.children, at: section.location)
            let lowered = lower(top)
            defer { if lowered { raise() } }
            try render(section.children, innermost: value, lookups: section.lookups)
        default:
            try pass(section.children, at: section.location)
            // Not an object: names are still looked up where they were.
            stack.append(.value(value))
            defer { stack.removeLast() }
            try render(section.children, top: top)
        }
    }

    /// Counts the steps of rendering `nodes` once, content that starts at `location`, and stops the render
    /// when it has passed its ``limits``. Each node is counted once for every scope its name may be looked
    /// up through (``scopes``, the innermost object and the stack's values), so the count bounds the work
    /// however the names resolve; the nodes' own sections and partials count again when they render.
    @inline(__always)
    mutating func pass(_ nodes: [Node], at location: SourceLocation) throws(TemplateError) {
        count(nodes)
        if steps > limits.maximumSteps { throw .tooManySteps(limit: limits.maximumSteps, at: location) }
        let written = output.byteCount
        if written > limits.maximumOutputBytes {
            throw .outputTooLarge(bytes: written, limit: limits.maximumOutputBytes, at: location)
        }
    }

    /// Counts the steps of rendering `nodes` once, checked at the next ``pass(_:at:)`` (a block's content,
    /// which has no place of its own).
    @inline(__always)
    mutating func count(_ nodes: [Node]) {
        steps &+= nodes.count &* (scopes.count &+ 2)
    }

    /// Moves the innermost JSON object, if any, into ``scopes``, under a scope about to be pushed over it.
    /// Returns whether there was one (then ``raise()`` must follow).
    private mutating func lower(_ top: JSONScope?) -> Bool {
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
    /// (the previous innermost JSON object must already be lowered into ``scopes``). `lookups` is how many
    /// names the nodes look up (see ``NameTable/isWorthMatching(keyCount:lookups:)``).
    private mutating func render(_ nodes: [Node], innermost value: RenderValue, lookups: Int) throws(TemplateError) {
        if case .json(.object(let members)) = value {
            try render(nodes, innermost: members, lookups: lookups)
            return
        }
        stack.append(.value(value))
        defer { stack.removeLast() }
        if case .template(.context(let context)) = value {
            scopes.append(.context(contexts.count))
            contexts.append(context)
            defer {
                scopes.removeLast()
                contexts.removeLast()
            }
            try render(nodes, top: nil)
        } else {
            try render(nodes, top: nil)
        }
    }

    /// Renders nodes with a JSON object pushed on the context stack as the innermost scope (the previous
    /// innermost JSON object must already be lowered into ``scopes``).
    private mutating func render(
        _ nodes: [Node], innermost members: [String: JSONValue], lookups: Int
    ) throws(TemplateError) {
        stack.append(.top)
        defer { stack.removeLast() }
        let scope = JSONScope(members, names: names, lookups: lookups, slots: &slots)
        defer { scope.release(&slots) }
        try render(nodes, top: scope)
    }
}

/// An entry of the context stack, which the implicit iterator `.` reads.
enum StackEntry {
    /// A value pushed by a section.
    case value(RenderValue)
    /// A JSON object pushed by a section, which is the innermost scope (`top`) while it is on top of the
    /// stack: not copied again here.
    case top
}
