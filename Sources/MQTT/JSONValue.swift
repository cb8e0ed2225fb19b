// A small JSON value with a deterministic writer (keys sorted, no spaces), for MQTT payloads and
// Home Assistant discovery: the same state always gives the same bytes, so retained messages
// only change when something changed, and tests can compare text.

import Foundation

package enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    package static func optional(_ value: Int?) -> JSONValue { value.map(JSONValue.int) ?? .null }
    package static func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
    package static func optional(_ value: Bool?) -> JSONValue { value.map(JSONValue.bool) ?? .null }

    /// Compact JSON text, object keys sorted, written by Foundation's JSONSerialization.
    /// Apostrophes are escaped as `\u0027` so the text can sit inside a single-quoted ntfy
    /// action value.
    package var text: String {
        // A JSONValue holds only JSON types, so serialisation cannot fail.
        let data = (try? JSONSerialization.data(withJSONObject: foundationObject,
                                                options: [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed])) ?? Data()
        return String(decoding: data, as: UTF8.self).replacingOccurrences(of: "'", with: "\\u0027")
    }

    private var foundationObject: Any {
        switch self {
        case .null: return NSNull()
        case let .bool(value): return value
        case let .int(value): return value
        case let .string(value): return value
        case let .array(values): return values.map(\.foundationObject)
        case let .object(members): return members.mapValues(\.foundationObject)
        }
    }

    /// Parses JSON text with Foundation's JSONSerialization; nil when it is not valid JSON.
    /// Integral numbers become `.int`; other numbers are kept as their text, which is all a
    /// command needs.
    package static func parse(_ bytes: [UInt8]) -> JSONValue? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]) else {
            return nil
        }
        return JSONValue(foundation: object)
    }

    private init?(foundation object: Any) {
        switch object {
        case is NSNull:
            self = .null
        case let string as String:
            self = .string(string)
        case let number as NSNumber:
            // JSONSerialization gives booleans as NSNumber of ObjC type "c" (char).
            if String(cString: number.objCType) == "c" {
                self = .bool(number.boolValue)
            } else if let integer = Int(exactly: number.doubleValue) {
                self = .int(integer)
            } else {
                self = .string(number.stringValue)
            }
        case let array as [Any]:
            var values: [JSONValue] = []
            for element in array {
                guard let value = JSONValue(foundation: element) else { return nil }
                values.append(value)
            }
            self = .array(values)
        case let dictionary as [String: Any]:
            var members: [String: JSONValue] = [:]
            for (key, element) in dictionary {
                guard let value = JSONValue(foundation: element) else { return nil }
                members[key] = value
            }
            self = .object(members)
        default:
            return nil
        }
    }

    package subscript(key: String) -> JSONValue? {
        if case let .object(members) = self { return members[key] }
        return nil
    }

    package var stringValue: String? {
        if case let .string(value) = self { return value }
        return nil
    }

    var arrayValue: [JSONValue]? {
        if case let .array(values) = self { return values }
        return nil
    }

    var objectValue: [String: JSONValue]? {
        if case let .object(members) = self { return members }
        return nil
    }
}

extension JSONValue: ExpressibleByStringLiteral {
    package init(stringLiteral value: String) { self = .string(value) }
}
