/// A name as written in a tag, split once at compile time: `.` or `product.price.amount`.
struct Name: Sendable {
    /// The name as written.
    let text: String
    /// The dot-separated parts (empty for the implicit iterator `.`).
    let parts: [String]
    /// The first part (lookups start with it).
    let head: String
    /// A name without dots (the common case, looked up directly).
    let isSimple: Bool
    /// The number of ``head`` in its template's ``NameTable`` (-1 for the implicit iterator).
    let slot: Int

    /// Splits a name and numbers its first part in the template's names.
    init(_ text: String, in names: inout NameTable.Builder) {
        self.text = text
        self.parts = text == "." ? [] : text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        self.head = parts.first ?? ""
        self.isSimple = parts.count == 1
        self.slot = parts.isEmpty ? -1 : names.slot(for: head)
    }

    var isImplicit: Bool { parts.isEmpty }
}
