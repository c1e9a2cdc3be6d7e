/// The one table of HTML contexts: for a value that stands in an attribute value or in the text of an
/// element, how it is written, or why the template is refused.
///
/// The rule is: a value is written only where the engine knows how to make it inert. Where a value could
/// become code (script, CSS, a document in `srcdoc`) or a navigation (a link, a refresh, an animated link)
/// and no escaping makes it safe, the template is refused when it is compiled, with its line and column.
/// Everything not listed is a plain attribute, whose value is only escaped; attribute names beginning with
/// `on` are event handlers wherever they stand.
enum HTMLContext {
    /// How a value inside an attribute's value is treated.
    enum Attribute: Equatable {
        /// A plain attribute (`class`, `title`, `alt`, `data-*`…): escaped.
        case text
        /// A URL (`href`, `src`, `action`…): checked for its scheme, then escaped.
        case url
        /// A list of URLs with descriptors (`srcset`): every candidate checked.
        case sourceSet
        /// An event handler (`onclick`…): written as JavaScript escapes, and only inside quotes.
        case script
        /// CSS (`style`): only a value made of plain characters is written (see ``CSSValue``).
        case css
        /// An HTML document inside an attribute (`srcdoc`): the value must stand where the inner document
        /// has text, and is escaped twice (for the inner document, then for the attribute).
        case document
        /// `<meta content>`: plain, unless the tag also has `http-equiv` (a refresh is a navigation, and
        /// other pragmas set cookies or policies); the tag's end decides.
        case metaContent
        /// `values`, `to`, `from` and `by` of an SVG animation: plain, unless the animated attribute is a
        /// link, a handler or a style (the animation would set it to the value); the tag's end decides.
        case animationValue
        /// No escaping makes a value here safe: the template is refused with this reason.
        case refused(String)
    }

    /// How a value in the text of an element is written: raw text elements read their own way, the rest is
    /// HTML text.
    enum Text: Equatable {
        case text, script, css
    }

    /// Elements whose text the scanner follows as raw text, up to their end tag.
    static let rawTextElements: Set<String> = ["script", "style", "textarea", "title"]

    /// SVG animation elements, whose `values`/`to`/`from`/`by` set the attribute named by `attributeName`.
    static let animationElements: Set<String> = ["animate", "set", "animatemotion", "animatetransform", "animatecolor"]

    /// Attributes whose value is a URL.
    static let urlAttributes: Set<String> = [
        "href", "src", "action", "formaction", "poster", "cite", "data", "background", "longdesc", "usemap",
        "manifest", "icon", "codebase", "ping", "xlink:href", "lowsrc", "dynsrc", "itemtype", "profile",
    ]

    /// The schemes a URL written in the template may have when a value follows in it (`mailto:{{email}}`):
    /// their text cannot run. After `javascript:`, `data:` or any other, a value is refused.
    static let schemesTakingValues: Set<String> = ["http", "https", "mailto", "tel", "sms"]

    /// Attributes that load code or change where every link goes, whatever the URL's scheme: an https URL
    /// there is as dangerous as `javascript:`.
    private static let codeLoading: [String: Set<String>] = [
        "script": ["src", "href", "xlink:href"], "base": ["href"], "object": ["data", "codebase", "classid", "archive"],
        "embed": ["src", "code"], "applet": ["code", "codebase", "archive", "object"], "param": ["value"],
    ]

    /// The context of a value in attribute `name` (lowercased) of element `tag` (lowercased).
    static func attribute(_ name: String, of tag: String) -> Attribute {
        if name.hasPrefix("on") { return .script }
        if let loading = codeLoading[tag], loading.contains(name) {
            return .refused("a value in <\(tag) \(name)> could load code from anywhere; write this URL in the template itself")
        }
        switch name {
        case "style": return .css
        case "srcdoc": return .document
        case "srcset", "imagesrcset": return .sourceSet
        case "xml:base", "xlink:base":
            return .refused("a value in \(name) would change where every link goes; write the base in the template itself")
        case "http-equiv":
            return .refused("a value in http-equiv could make the page refresh to another address or set cookies; write it in the template itself")
        case "attributename" where animationElements.contains(tag):
            return .refused("a value in an animation's attributeName could make it animate a link or a handler; write the name in the template itself")
        case "values", "to", "from", "by":
            // (A `where` after several patterns guards the last one only: the tag is checked here.)
            return animationElements.contains(tag) ? .animationValue : .text
        case "content" where tag == "meta": return .metaContent
        default: return urlAttributes.contains(name) ? .url : .text
        }
    }

    /// The context of a value in the raw text of `tag`.
    static func text(of tag: String) -> Text {
        switch tag {
        case "script": .script
        case "style": .css
        default: .text
        }
    }

    /// Why a value is refused in `<meta content>` once the tag turns out to have `http-equiv`.
    static let refusedMetaContent =
        "a value in the content of <meta http-equiv> could refresh the page to another address (or set a cookie or a policy); write it in the template itself"

    /// Why a value in an animation's `values`/`to`/`from`/`by` is refused, given what it animates (nil when
    /// it is not named; `differs` when sections of the template name different ones).
    static func refusedAnimation(of tag: String, target: String?, differs: Bool) -> String? {
        if differs {
            return "a value in an animation whose attributeName differs by section could set a link or a handler; name one animated attribute"
        }
        guard let target else {
            return tag == "animatemotion"
                ? nil : "a value in an animation without a written attributeName could set a link or a handler; name the animated attribute"
        }
        if attribute(target, of: "") == .text { return nil }
        return "a value animating \(target) could set a link, a handler or a style to script; animate a plain attribute or write the values in the template"
    }
}
