extension String {
    /// The characters of a vendor's code (a status code, an error code, an id) quoted in a message.
    package static let quotedCodeLength = 64
    /// The characters of a vendor's words (an error's detail or meaning) quoted in a message.
    package static let quotedWordsLength = 300

    /// This text as a message quotes it: whole when it has at most `limit` characters, else its first
    /// `limit` and "…".
    ///
    /// For text a vendor wrote (a status code, an error's detail, a reply's body) that goes into a
    /// message, a reason or a dead letter: a reply is bounded only by the transport's limit (16 MiB), and
    /// a 1 MB `statusCode` went whole into the dead letter of every event of its batch. Costs the
    /// characters kept, not the text's length.
    package func shortened(to limit: Int) -> String {
        let limit = Swift.max(0, limit)
        // No more bytes than the limit, so no more characters: nothing walked (a native string knows its
        // UTF-8 count), as for nearly every message.
        if utf8.count <= limit { return self }
        guard let end = index(startIndex, offsetBy: limit, limitedBy: endIndex), end < endIndex else { return self }
        return String(self[..<end]) + "…"
    }
}
