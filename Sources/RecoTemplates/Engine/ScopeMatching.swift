/// Pairs every `{{#name}}`, `{{^name}}`, `{{<name}}` and `{{$name}}` with its `{{/name}}`, or says precisely
/// which tag is missing or out of place.
enum ScopeMatching {
    static func match(_ tokens: inout [Token], in source: SourceText) throws(TemplateError) {
        var open: [Int] = []
        for index in tokens.indices {
            let token = tokens[index]
            if token.kind.opensScope {
                open.append(index)
            } else if token.kind == .close {
                let tag = source.text(token.start..<token.end)
                guard let top = open.last else {
                    throw .syntax("unexpected closing tag \(tag), no section is open", at: source.location(of: token.start))
                }
                let opener = tokens[top]
                guard opener.name == token.name else {
                    let what = describe(opener.kind)
                    throw .syntax(
                        "mismatched closing tag \(tag), expected \(opener.closing(opener.name)) to close the \(what) \"\(opener.name)\" opened at line \(source.location(of: opener.start).line)",
                        at: source.location(of: token.start))
                }
                open.removeLast()
                tokens[top].partner = index
                tokens[index].partner = top
            }
        }
        if let top = open.last {
            let opener = tokens[top]
            throw .syntax(
                "unclosed \(describe(opener.kind)) \"\(opener.name)\", expected \(opener.closing(opener.name))",
                at: source.location(of: opener.start))
        }
    }

    static func describe(_ kind: TokenKind) -> String {
        switch kind {
        case .inverted: "inverted section"
        case .parent: "parent"
        case .block: "block"
        default: "section"
        }
    }
}
