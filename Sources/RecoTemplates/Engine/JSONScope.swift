import RecoKit

/// A JSON object of the context stack, with where its keys were matched to a template's names (see
/// ``NameTable``), so that looking a name up in it reads a slot instead of hashing the name.
struct JSONScope {
    /// The object's members.
    let members: [String: JSONValue]
    /// Where the object's run of slots starts in the renderer's ``ScopeSlots``; -1 when its keys were not
    /// matched.
    let base: Int
    /// The table the slots follow (that of the template that pushed the object); nil when not matched.
    let names: ObjectIdentifier?

    /// Makes a scope of an object, matching its keys to `names` into a new run of slots (unless the object
    /// is too large for that to pay for the `lookups` names the scope's nodes look up).
    init(_ members: [String: JSONValue], names table: NameTable, lookups: Int, slots: inout ScopeSlots) {
        self.members = members
        guard table.isWorthMatching(keyCount: members.count, lookups: lookups) else {
            base = -1
            names = nil
            return
        }
        base = slots.push(members, matching: table)
        names = ObjectIdentifier(table)
    }

    /// The member a name's first part stands for, read from its slot when the keys were matched to the
    /// table the name belongs to, and hashed otherwise (a name of another template, such as a partial's).
    @inline(__always)
    func member(_ name: Name, in table: NameTable, slots: ScopeSlots) -> JSONValue? {
        if base >= 0, names == ObjectIdentifier(table) {
            guard let index = slots[base + name.slot] else { return nil }
            return members.values[index]
        }
        return members[name.head]
    }

    /// Gives back the slots the scope took (scopes end in the reverse order they start).
    func release(_ slots: inout ScopeSlots) {
        if base >= 0 { slots.pop(to: base) }
    }
}
