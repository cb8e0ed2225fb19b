// How much a secret typed as a token (`web.token`) could be guessed: an estimate of its entropy
// from its length and the kinds of character it uses (lower case, upper case, digits, others),
// as a guesser who knows those kinds would count. A token of fewer than 128 bits (16 random
// bytes) is refused: behind a login throttle a short one still falls to a patient guesser, and
// `config set web.token abc` used to be accepted. `openssl rand -hex 16` (32 hex digits) and
// `openssl rand -base64 24` pass; so do five or more random words.

import Foundation

package enum AccessToken {
    /// 16 bytes of entropy.
    package static let minimumBits = 128.0
    /// Fewer different characters than this is a pattern, not a random token, whatever its length.
    static let minimumDistinct = 8

    /// The estimated entropy of `text`, in bits.
    package static func bits(_ text: String) -> Double {
        var pool = 0
        let scalars = text.unicodeScalars
        if scalars.contains(where: { ("a"..."z").contains($0) }) { pool += 26 }
        if scalars.contains(where: { ("A"..."Z").contains($0) }) { pool += 26 }
        if scalars.contains(where: { ("0"..."9").contains($0) }) { pool += 10 }
        if scalars.contains(where: { !(("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)) }) { pool += 33 }
        guard pool > 1, Set(scalars).count >= minimumDistinct else { return 0 }
        return Double(scalars.count) * log2(Double(pool))
    }

    /// Whether `text` is strong enough to guard the web page.
    package static func isStrong(_ text: String) -> Bool { bits(text) >= minimumBits }
}
