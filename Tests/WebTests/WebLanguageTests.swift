// The page's language is the message pools' (`messages.locale`), case for case: the setting's
// typed value is mapped, not its text parsed again with English as a silent fallback.

import Reminders
import Settings
import Testing
@testable import Web

@Suite struct WebLanguageTests {
    @Test(arguments: MessageLocale.allCases)
    func thePageSpeaksTheMessagesLanguage(_ locale: MessageLocale) throws {
        #expect(WebLanguage(locale).rawValue == locale.rawValue)
        var configuration = Configuration()
        try configuration.applyOverride("messages.locale=\(locale.rawValue)")
        #expect(WebLanguage(configuration[Setting.messagesLocale]) == WebLanguage(rawValue: locale.rawValue))
    }
}
