// The page's words for the one who reads it, often a parent and not the drinker: about the person
// in the third person ("Leo is 668 ml behind"), nothing said twice ("falling behind · 134 ml
// behind" was), the bottle's own name ("Aquavate-A3F2" reads like an id) only in the bottle's part
// of the panel, and both languages complete.

import Foundation
import TestFixtures
import Testing
@testable import Web

@Suite struct ParentWordsTests {
    /// The text a person reads in `html`: tags out, entities of the page back.
    static func text(_ html: String) -> String {
        var out = "", inTag = false
        for character in html {
            if character == "<" { inTag = true; out += " "; continue }
            if character == ">" { inTag = false; continue }
            if !inTag { out.append(character) }
        }
        let spaced = out.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return spaced.replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&amp;", with: "&")
    }

    @Test("about the person, in the third person; no word said twice; the device name in the bottle's part only")
    func wordsForAParent() throws {
        let fixture = try WebFixture.family()
        defer { fixture.remove() }
        let page = DashboardPage.render(try DashboardModel.make(fixture.context))
        let leo = try #require(PageReading.panel(of: WebFixture.bea, in: page))
        #expect(leo.contains("Leo is 1100 ml behind"), "\(Self.text(leo).prefix(600))")
        #expect(leo.contains("class=\"next-reminder\">due now<"))
        #expect(Self.text(leo).contains("overdue · Leo is 1100 ml behind"))
        let dan = try #require(PageReading.panel(of: "AQ-DAN-0004", in: page))
        let danText = Self.text(dan)
        #expect(danText.contains("needs a drink · Dan is 260 ml behind"), "\(danText.prefix(600))")
        #expect(dan.contains("if Dan does not drink"), "\(danText.prefix(600))")
        // Nothing addresses the reader as the drinker.
        let words = Self.text(page).lowercased().split { !$0.isLetter && $0 != "'" }
        for second in ["you", "your", "you're"] { #expect(!words.contains(Substring(second)), "\(second)") }
        // "behind" once per sentence: the urgency word is not "falling behind".
        for line in Self.text(page).components(separatedBy: "·") where line.contains("behind") {
            #expect(line.components(separatedBy: "behind").count <= 2, "\(line)")
        }
        #expect(!page.contains("falling behind"))
        // The device's name only in the bottle's part, never under the person's name.
        let sub = try #require(leo.range(of: "<p class=\"sub\">"))
        let subText = String(leo[sub.upperBound...].prefix { $0 != "\n" })
        #expect(!subText.contains("Aquavate-B2C4"), "\(subText)")
        #expect(leo.components(separatedBy: "Aquavate-B2C4").count == 2, "once, in the bottle's part")
        #expect(leo.contains("class=\"bottle-name\">Aquavate-B2C4<"))
        let strip = try #require(page.range(of: "<nav class=\"family\""))
        #expect(!Self.text(String(page[strip.lowerBound...].prefix { $0 != "\n" })).contains("Aquavate-"))
    }

    @Test("the Spanish page: about the person, and every word translated")
    func spanishIsComplete() throws {
        let fixture = try WebFixture.family()
        defer { fixture.remove() }
        try fixture.history.settings.set("messages.locale", "es")
        let page = DashboardPage.render(try DashboardModel.make(fixture.context))
        #expect(page.contains("Leo va 1100 ml por detrás"))
        #expect(!page.contains("bebes") && !page.contains("has bebido") && !page.contains(" vas "), "no second person")
        #expect(page.contains("<nav class=\"family\" aria-label=\"Familia\">"))
        // Every word of the English table has its own Spanish (a few are the same in both).
        let same: Set<String> = ["title"]
        let english = Mirror(reflecting: WebWords.english).children, spanish = Mirror(reflecting: WebWords.spanish).children
        for (en, es) in zip(english, spanish) {
            guard let label = en.label, let a = en.value as? String, let b = es.value as? String else { continue }
            #expect(a != b || same.contains(label), "\(label) is not translated: \(a)")
            #expect(!b.isEmpty, "\(label)")
        }
        // The closures too, for the words they take.
        #expect(WebWords.spanish.weekSummary(5, 7, "1523") == "5 de 7 días cumplidos · media 1523 ml")
        #expect(WebWords.spanish.syncTheBottle("Leo").contains("Leo"))
        #expect(WebWords.spanish.nextReminderAt("17:20", "Leo") == "hacia las 17:20 si Leo no bebe")
    }
}
