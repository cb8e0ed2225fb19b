// Typed access to the keys of one capture line as JSONDecoder hands them over, for the rules of
// docs/design.md 3.3: a key of the wrong type is refused with what was found instead
// (`mtu is not an integer from 1 to 65535: "big"`), and `null` is a value of the wrong type, not an
// absent key.
//
// JSONDecoder checks a line's structure when it parses it, but a string's escapes and a number's
// digits only when that value is decoded (`"\ud800"`, `01`, `1e400`). So every value is decoded
// here, the unknown keys' too (`checkUnknownValues`): a line that is not JSON is refused whichever
// key holds the fault, as the reader refused it before it read lines with Codable.

import Foundation

/// Why a line breaks docs/design.md 3.3.
enum CaptureLineProblem: Error {
    /// Not JSON: what JSONDecoder found and where (`t: number with leading zero`), or nothing
    /// when it says only that the line is not JSON.
    case notJSON(String?)
    /// JSON, but not a capture line: one line naming the key.
    case refused(String)
}

extension KeyedDecodingContainer {
    /// The value at `key` as a `Value`, or nil when it is JSON of another type (`null` included).
    func typed<Value: Decodable>(_ type: Value.Type, _ key: Key) throws(CaptureLineProblem) -> Value? {
        do {
            return try decode(Value.self, forKey: key)
        } catch DecodingError.typeMismatch {
            return nil
        } catch DecodingError.valueNotFound {
            return nil
        } catch {
            throw .notJSON(CaptureJSONFault.describe(error, at: key.stringValue))
        }
    }

    /// The string at `key`, nil when the key is absent; refused when it is anything but a string.
    func optionalString(_ key: Key, label: String? = nil) throws(CaptureLineProblem) -> String? {
        guard contains(key) else { return nil }
        guard let text = try typed(String.self, key) else {
            throw .refused("\(label ?? key.stringValue) is not a string: \(try found(key))")
        }
        return text
    }

    /// The whole number at `key` (`1` and `1.0` alike), or nil.
    func integer(_ key: Key) throws(CaptureLineProblem) -> Int? {
        guard let double = try typed(Double.self, key), double.rounded() == double, abs(double) < 1e15 else { return nil }
        return Int(double)
    }

    /// The value at `key` shown in a message: a string quoted and shortened, a number, `true`,
    /// `null`, `an array`, `an object`.
    func found(_ key: Key) throws(CaptureLineProblem) -> String {
        if (try? decodeNil(forKey: key)) == true { return "null" }
        if let text = try typed(String.self, key) { return JSONText.quotedForMessage(text) }
        if let flag = try typed(Bool.self, key) { return flag ? "true" : "false" }
        if let number = try typed(Double.self, key) { return CaptureJSONFault.shown(number) }
        if (try? nestedUnkeyedContainer(forKey: key)) != nil { return "an array" }
        return "an object"
    }
}

extension KeyedDecodingContainer where Key == CaptureLineKey {
    /// Decodes every value whose key is not in `known`, so that a fault in one of them refuses the
    /// line (docs/design.md 3.3: readers ignore unknown keys, but not a line that is not JSON).
    /// The line types read their known keys from this same container: one dictionary per line.
    func checkUnknownValues(known: Set<String>) throws(CaptureLineProblem) {
        // In name order: `allKeys` comes from a dictionary, whose order changes from one decoding
        // to the next, and a line with two faults must be refused the same each time it is read.
        let unknown = allKeys.filter { !known.contains($0.stringValue) }
        for key in unknown.count > 1 ? unknown.sorted(by: { $0.stringValue < $1.stringValue }) : unknown {
            do {
                _ = try decode(AnyJSONValue.self, forKey: key)
            } catch {
                throw .notJSON(CaptureJSONFault.describe(error, at: key.stringValue))
            }
        }
    }
}

/// A key of a capture line, known or not.
struct CaptureLineKey: CodingKey, ExpressibleByStringLiteral {
    let stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init(stringLiteral value: String) { stringValue = value }
    init?(intValue: Int) { nil }
}

/// Any JSON value, decoded all the way down and then dropped: only its faults matter.
private struct AnyJSONValue: Decodable {
    init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: CaptureLineKey.self) {
            // In name order, as above: the fault reported is the same at every reading.
            for key in object.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
                _ = try object.decode(AnyJSONValue.self, forKey: key)
            }
            return
        }
        if var array = try? decoder.unkeyedContainer() {
            while !array.isAtEnd { _ = try array.decode(AnyJSONValue.self) }
            return
        }
        let value = try decoder.singleValueContainer()
        if value.decodeNil() { return }
        if try Self.decodes(Bool.self, value) || Self.decodes(String.self, value) { return }
        _ = try value.decode(Double.self)
    }

    /// True when the value is a `Value`; false when it is of another type; throws when it is not JSON.
    private static func decodes<Value: Decodable>(_ type: Value.Type, _ value: any SingleValueDecodingContainer) throws -> Bool {
        do {
            _ = try value.decode(Value.self)
            return true
        } catch DecodingError.typeMismatch {
            return false
        }
    }
}

/// What JSONDecoder says of a value that is not JSON, for a message.
enum CaptureJSONFault {
    /// `t: number with leading zero`: the key and JSONDecoder's own name for the fault in words.
    /// Its errors carry no message of their own, only their case (`numberWithLeadingZero(…)`).
    static func describe(_ error: any Error, at key: String) -> String {
        let text = String(reflecting: error)
        guard let range = text.range(of: "JSONError.") else { return "\(key): not a valid value" }
        let name = text[range.upperBound...].prefix { $0.isLetter || $0.isNumber }
        var words = ""
        for character in name {
            if character.isUppercase, !words.isEmpty, words.last?.isUppercase == false { words += " " }
            words.append(character)
        }
        return "\(key): " + (words.isEmpty ? "not a valid value" : words.lowercased())
    }

    /// A number in a message: a whole number as it is usually written (`12`), any other as Swift
    /// prints it (`1.5`, `-0.0`, `1e+20`).
    static func shown(_ number: Double) -> String {
        let whole = number.rounded() == number && abs(number) < 1e15 && !(number == 0 && number.sign == .minus)
        return whole ? String(Int64(number)) : "\(number)"
    }
}
