import RecoKit

/// The slots of the JSON scopes of a render (see ``JSONScope``): one run per scope, as many slots as its
/// template has names, each holding the index of that name's key in the object, or nil when it has none.
/// Runs are taken and given back like a stack, and the storage is kept for the next run, so that entering
/// a scope allocates nothing.
struct ScopeSlots {
    private var storage: [Dictionary<String, JSONValue>.Index?] = []
    /// How many slots the runs in use take.
    private var count = 0

    /// Starts a run for an object, its keys matched to `table`; returns where the run starts.
    mutating func push(_ members: [String: JSONValue], matching table: NameTable) -> Int {
        let base = count
        count += table.count
        if storage.count < count { storage.append(contentsOf: repeatElement(nil, count: count - storage.count)) }
        table.match(members, into: &storage, at: base)
        return base
    }

    /// Gives back the run that starts at `base` and every run after it.
    mutating func pop(to base: Int) {
        count = base
    }

    /// The index a slot holds.
    @inline(__always)
    subscript(slot: Int) -> Dictionary<String, JSONValue>.Index? {
        storage[slot]
    }
}
