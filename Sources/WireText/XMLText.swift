// Text inside XML and HTML (D-Bus introspection, the web page and its SVG charts): the five
// characters that could end an attribute or open markup, written as entities. The apostrophe is
// `&#39;`, which XML and every HTML parser read (`&apos;` is not HTML 4's).

package enum XMLText {
    /// `text` with `&`, `<`, `>`, `"` and `'` as entities: safe in an element and in a quoted
    /// attribute of either kind of quote.
    package static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}
