// The journal line of a message: one line, the message's bytes otherwise untouched, whatever
// kind of string it is (native, bridged from Foundation, a substring's copy).

import Foundation
import Reports
import Testing

@Suite struct JournalLogHandlerTests {
    @Test func lineBreaksBecomeSpacesAndNothingElseChanges() {
        #expect(JournalLogHandler.oneLine("drink #12 at 2026-11-25 09:12:34: 40 ml") == "drink #12 at 2026-11-25 09:12:34: 40 ml")
        #expect(JournalLogHandler.oneLine("a\nb\n") == "a b ")
        #expect(JournalLogHandler.oneLine("Ünïcödé — \n☕️") == "Ünïcödé —  ☕️")
        #expect(JournalLogHandler.oneLine("") == "")
    }

    @Test func aStringFromFoundationIsSearchedToo() {
        let bridged = NSString(string: "first\nsecond").description
        #expect(JournalLogHandler.oneLine(bridged) == "first second")
        let sliced = String("xx\nyy\nzz".dropFirst(3))
        #expect(JournalLogHandler.oneLine(sliced) == "yy zz")
    }
}
