import RecoKit

/// How the renderer finds the value of a name: its first part down the context stack, innermost scope
/// first, the other parts inside what it found.
extension Renderer {
    /// Looks a name up.
    @inline(__always)
    func resolve(_ name: Name, top: JSONScope?) -> RenderValue? {
        if name.isImplicit {
            switch stack.last {
            case .value(let value)?: return value
            case .top?: return top.map { .json(.object($0.members)) }
            case nil: return nil
            }
        }
        if let top, let member = top.member(name, in: names, slots: slots) {
            return name.isSimple ? .json(member) : RenderValue.json(member).descending(name.parts)
        }
        var index = scopes.count - 1
        while index >= 0 {
            if let value = lookUp(name, in: index) {
                return name.isSimple ? value : value.descending(name.parts)
            }
            index -= 1
        }
        return nil
    }

    /// Asks one scope of the stack for a name, in place (an array subscript would copy a context first).
    @inline(__always)
    private func lookUp(_ name: Name, in index: Int) -> RenderValue? {
        switch scopes[index] {
        case .object(let position):
            objects[position].member(name, in: names, slots: slots).map(RenderValue.json)
        case .context(let position):
            contexts[position].value(forKey: name.head).map(RenderValue.template)
        }
    }

    /// Writes the value of a name without dots: looked up scope by scope, and written from where it is
    /// found without wrapping it first.
    @inline(__always)
    mutating func writeValue(named name: Name, _ rule: OutputRule, top: JSONScope?) {
        if let top, let member = top.member(name, in: names, slots: slots) {
            write(member, rule)
            return
        }
        var index = scopes.count - 1
        while index >= 0 {
            switch scopes[index] {
            case .object(let position):
                if let member = objects[position].member(name, in: names, slots: slots) {
                    write(member, rule)
                    return
                }
            case .context(let position):
                if let value = contexts[position].value(forKey: name.head) {
                    write(value, rule)
                    return
                }
            }
            index -= 1
        }
    }
}
