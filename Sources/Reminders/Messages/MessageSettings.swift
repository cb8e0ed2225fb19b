// The settings of docs/reminders.md 4 (`messages.enabled`, `messages.locale`, `messages.pool`). The pool
// file is the caller's to read (this module does no I/O): it hands over the file's lines, and
// `MessagePool.messages(fromLines:)` applies the file format.

package struct MessageSettings: Equatable, Sendable {
    /// `messages.enabled`, default false.
    package var enabled: Bool
    /// `messages.locale`: the shipped pool's language and the title's.
    package var locale: MessageLocale
    /// The messages of the user's pool file (already filtered by `MessagePool.messages(fromLines:)`),
    /// or nil for the shipped pool. Decision: an empty list also means the shipped pool.
    package var userPool: [String]?

    package init(enabled: Bool = false, locale: MessageLocale = .en, userPool: [String]? = nil) {
        self.enabled = enabled
        self.locale = locale
        self.userPool = userPool
    }

    /// The pool in use: the user's when it has a message, else the shipped one of the locale.
    package var pool: [String] {
        if let userPool, !userPool.isEmpty { return userPool }
        return MessagePool.shipped(locale)
    }
}

/// `messages.locale`: `en` (default) or `es`.
package enum MessageLocale: String, CaseIterable, Codable, Sendable {
    case en, es

    /// `Daily affirmation` / `Afirmación del día`.
    package var title: String {
        switch self {
        case .en: return "Daily affirmation"
        case .es: return "Afirmación del día"
        }
    }
}

extension MessageSettings: Codable {
    private enum CodingKeys: String, CodingKey {
        case enabled, locale
        case userPool = "user_pool"
    }

    package init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        self.init(enabled: try values.decodeIfPresent(Bool.self, forKey: .enabled) ?? false,
                  locale: try values.decodeIfPresent(MessageLocale.self, forKey: .locale) ?? .en,
                  userPool: try values.decodeIfPresent([String].self, forKey: .userPool))
    }

    package func encode(to encoder: any Encoder) throws {
        var values = encoder.container(keyedBy: CodingKeys.self)
        try values.encode(enabled, forKey: .enabled)
        try values.encode(locale, forKey: .locale)
        try values.encodeIfPresent(userPool, forKey: .userPool)
    }
}
