// A DNS host name as the setting `web.public_name` holds it: the name browsers use to reach the
// page through a reverse proxy, which the web server's Host check then accepts (docs/design.md
// 3.6). Lower case, no trailing dot, labels of letters, digits and hyphens (RFC 1123), so that
// comparing it with a request's Host is a plain string comparison.

package struct HostName: Sendable, Equatable {
    package let text: String

    package init?(_ raw: String) {
        var name = raw.lowercased()
        if name.hasSuffix(".") { name.removeLast() }
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        guard !name.isEmpty, name.utf8.count <= 253, labels.allSatisfy(Self.isLabel) else { return nil }
        text = name
    }

    private static func isLabel(_ label: Substring) -> Bool {
        guard (1...63).contains(label.utf8.count), label.first != "-", label.last != "-" else { return false }
        return label.utf8.allSatisfy { ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 45 }
    }
}
