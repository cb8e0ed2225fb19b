// A JSON document as a tree, for tests that look into what a payload says key by key (the
// discovery schema, an answer's `status`): read by Codable from the bytes that were sent, so a
// test sees the wire, not the value that was encoded. Numbers are integers when they are whole.

import Foundation

package enum JSONTree: Sendable, Equatable, Decodable, ExpressibleByStringLiteral {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONTree])
    case object([String: JSONTree])

    package init(stringLiteral value: String) { self = .string(value) }

    package init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer()
        if value.decodeNil() {
            self = .null
        } else if let flag = try? value.decode(Bool.self) {
            self = .bool(flag)
        } else if let whole = try? value.decode(Int.self) {
            self = .int(whole)
        } else if let number = try? value.decode(Double.self) {
            self = .double(number)
        } else if let text = try? value.decode(String.self) {
            self = .string(text)
        } else if let elements = try? value.decode([JSONTree].self) {
            self = .array(elements)
        } else {
            self = .object(try value.decode([String: JSONTree].self))
        }
    }

    /// The document in `bytes`; nil when it is not JSON.
    package static func parse(_ bytes: some Sequence<UInt8>) -> JSONTree? {
        try? JSONDecoder().decode(JSONTree.self, from: Data(bytes))
    }

    /// The document in `text`; nil when it is not JSON.
    package static func parse(_ text: String) -> JSONTree? { parse(Array(text.utf8)) }

    package subscript(key: String) -> JSONTree? {
        if case let .object(members) = self { return members[key] }
        return nil
    }

    package var stringValue: String? {
        if case let .string(value) = self { return value }
        return nil
    }

    package var arrayValue: [JSONTree]? {
        if case let .array(values) = self { return values }
        return nil
    }

    package var objectValue: [String: JSONTree]? {
        if case let .object(members) = self { return members }
        return nil
    }
}
