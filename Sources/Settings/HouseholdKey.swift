// The household's shared secret (docs/household.md): 32 random bytes, written in base64 as the
// setting `household.key`. A bridge with it is a member; the broker and its other clients are
// not, whatever topics they write (HouseholdSeal signs and checks every household message with it).

import Crypto
import Foundation

package struct HouseholdKey: Sendable {
    /// The length a key must have, in bytes.
    package static let byteCount = 32

    package let symmetric: SymmetricKey

    /// A key from its base64 text; nil when it is not base64 of exactly 32 bytes.
    package init?(base64 text: String) {
        guard let data = Data(base64Encoded: text.trimmingCharacters(in: .whitespaces)), data.count == Self.byteCount else { return nil }
        symmetric = SymmetricKey(data: data)
    }

    /// A new random key, as the base64 text `household.key` holds.
    package static func generate() -> String {
        SymmetricKey(size: .bits256).withUnsafeBytes { Data($0).base64EncodedString() }
    }

    /// Whether `text` is a key (for the setting's check: one line names what is wrong, never the value).
    package static func isValid(_ text: String) -> Bool { HouseholdKey(base64: text) != nil }
}
