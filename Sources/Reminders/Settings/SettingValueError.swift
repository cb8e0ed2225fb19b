// A bad value of a known key (docs/design.md 3.2: "refused with the reason and the valid choices").

public struct SettingValueError: Error, Equatable, CustomStringConvertible {
    public let key: String
    public let value: String
    /// What the key accepts, e.g. `one of day, week, both`.
    public let expected: String

    public init(key: String, value: String, expected: String) {
        self.key = key
        self.value = value
        self.expected = expected
    }

    public var description: String { "\(key) = \"\(value)\" refused; expected \(expected)" }
}
