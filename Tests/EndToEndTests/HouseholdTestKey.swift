// The household key the tests' bridges share (docs/household.md): a bridge without it is in no
// household, and one with another key is a stranger.

@testable import Settings
@testable import Sinks

enum HouseholdTestKey {
    static let text = "AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA="
    static let key = HouseholdKey(base64: text)!
    /// The `run` option that makes a bridge a member.
    static let option = ["--set", "household.key=\(text)"]
}
