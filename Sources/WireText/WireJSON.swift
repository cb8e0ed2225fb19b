// JSON on the wire (MQTT payloads, Home Assistant discovery, household messages, ntfy action
// bodies, the JSON events of docs/design.md 3.4, the web's refusals), written and read by
// Codable. The writer is deterministic (keys sorted, no spaces, `/` as is), so the same message is
// always the same bytes: a retained message only changes when something changed, and tests
// compare text. What goes to the broker writes apostrophes `\u0027`, so the text can sit inside a
// single-quoted ntfy action value; every JSON reader reads it back the same.

import Foundation

package enum WireJSON {
    /// How an apostrophe is written: escaped (`\u0027`, what goes to the broker and may end up
    /// in a single-quoted ntfy action), or as it is (the events and the web's answers, which the
    /// hand-written event lines must equal byte for byte).
    package enum Apostrophes: Sendable {
        case escaped
        case asIs
    }

    /// The message's compact JSON text. Encoding a message of strings, numbers and booleans
    /// cannot fail; should a non-finite number ever reach one, the result is `{}`, never a crash.
    package static func text(_ message: some Encodable, apostrophes: Apostrophes = .escaped) -> String {
        let data = (try? encoder.encode(message)) ?? Data("{}".utf8)
        let text = String(decoding: data, as: UTF8.self)
        switch apostrophes {
        case .escaped: return text.replacingOccurrences(of: "'", with: "\\u0027")
        case .asIs: return text
        }
    }

    /// One encoder for every message (its options never change), as the events' writer had for
    /// the web's long answers, a line per event.
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// The message in `bytes`. Throws (a DecodingError) when it is not UTF-8 JSON, or a key
    /// the message needs is missing or of another type.
    package static func decode<Message: Decodable>(_ type: Message.Type, from bytes: some Sequence<UInt8>) throws -> Message {
        try JSONDecoder().decode(type, from: Data(bytes))
    }

    /// The same, nil instead of an error: for a peer's message, which is dropped (and counted)
    /// whatever is wrong with it.
    package static func read<Message: Decodable>(_ type: Message.Type, from bytes: some Sequence<UInt8>) -> Message? {
        try? decode(type, from: bytes)
    }
}

/// A message written as WireJSON: `message.text` is its JSON.
package protocol WireMessage: Encodable {}

extension WireMessage {
    package var text: String { WireJSON.text(self) }
}

/// An optional field written as `null` when absent (Codable's default leaves the key out): the
/// documented payloads (docs/design.md 3.4) list every key, unknown values as null. Read back, a
/// missing key and `null` are both nil.
@propertyWrapper
package struct Nullable<Value: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
    package var wrappedValue: Value?

    package init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try container.decode(Value.self)
    }
}

extension KeyedDecodingContainer {
    /// A missing key reads as nil, as `null` does.
    package func decode<Value>(_ type: Nullable<Value>.Type, forKey key: Key) throws -> Nullable<Value> {
        try decodeIfPresent(type, forKey: key) ?? Nullable(wrappedValue: nil)
    }
}

/// Any member name, for an object whose keys are data (a hello's bridges) or are checked
/// against the known ones rather than assumed (a command's name).
package struct WireMemberName: CodingKey, Sendable {
    package var stringValue: String
    package var intValue: Int? { nil }
    package init(stringValue: String) { self.stringValue = stringValue }
    package init?(intValue: Int) { nil }
}
