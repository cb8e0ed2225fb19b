// A value stored and sent as its text (a time of day `07:05`, a local date-time): decoded by the
// same parser that reads it from a setting or a form, so a stored value is checked as typed
// text is, and a bad one is a decoding error that says why; encoded as its `description`.

package protocol CodableAsText: Codable, CustomStringConvertible {
    /// Why a text is not a value.
    associatedtype TextError: Error & CustomStringConvertible
    /// The value of `text`, or why it is none.
    init(parsing text: String) throws(TextError)
}

extension CodableAsText {
    package init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do {
            try self.init(parsing: text)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description))
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
