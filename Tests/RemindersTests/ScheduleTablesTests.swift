// docs/reminders.md 3 and docs/design.md 3.2: `[[schedule]]` tables as text values into validated schedules.
// A bad table is refused with ONE line giving the reason and the valid choices; the other tables
// still load; unknown keys are warnings.

import Foundation
import Testing
@testable import Reminders

struct ScheduleTablesTests {
    let valid: [String: String] = ["id": "VITD", "name": "Vitamin D", "intake": "Vitamin-D",
                                   "frequency": "weekly", "first": "2026-11-22T09:00"]

    func table(_ changes: [String: String?]) -> [String: String] {
        var table = valid
        for (key, value) in changes { table[key] = value }
        return table
    }

    func refusal(_ changes: [String: String?]) -> String {
        let parsed = ScheduleTables(parsing: [table(changes)])
        #expect(parsed.schedules.isEmpty)
        #expect(parsed.errors.count == 1)
        return parsed.errors.first?.description ?? ""
    }

    @Test func aValidTable() throws {
        let parsed = ScheduleTables(parsing: [valid, ["id": "NOON", "intake": "WATER", "frequency": " Twice-Daily ",
                                                      "first": "2026-03-10 12:00:00", "min_ml": "250", "enabled": "false",
                                                      "body": "  Drink something.  "]])
        #expect(parsed.errors.isEmpty)
        #expect(parsed.warnings.isEmpty)
        let vitaminD = try #require(parsed.schedules.first)
        #expect(vitaminD.id == "VITD")
        #expect(vitaminD.name == "Vitamin D")
        #expect(vitaminD.intake == .manual("vitamin-d"))
        #expect(vitaminD.frequency == .weekly)
        #expect(vitaminD.first.description == "2026-11-22T09:00")
        #expect(vitaminD.enabled)
        #expect(vitaminD.bodyText == "Time for your Vitamin D.")
        let water = parsed.schedules[1]
        #expect(water.name == "NOON")
        #expect(water.intake == .water(minML: 250))
        #expect(water.frequency == .twiceDaily)
        #expect(!water.enabled)
        #expect(water.bodyText == "Drink something.")
    }

    @Test func unknownFrequency() {
        #expect(refusal(["frequency": "fortnightly"]) == "[[schedule]] #1 (id \"VITD\") refused: unknown frequency \"fortnightly\"; expected one of daily, twice-daily, three-times-daily, four-times-daily, six-times-daily, weekly, twice-weekly, three-times-weekly, four-times-weekly, monthly, twice-monthly, three-times-monthly")
    }

    @Test func unparseableFirst() {
        #expect(refusal(["first": "next Sunday"]) == "[[schedule]] #1 (id \"VITD\") refused: first \"next Sunday\" is not a local date-time; expected YYYY-MM-DDTHH:MM in local time, e.g. 2026-11-22T09:00")
        #expect(refusal(["first": "2026-11-22T25:00"]) == "[[schedule]] #1 (id \"VITD\") refused: first \"2026-11-22T25:00\": \"25:00\" is not a time of day; expected HH:MM from 00:00 to 23:59")
        #expect(refusal(["first": "2026-13-01T09:00"]) == "[[schedule]] #1 (id \"VITD\") refused: first \"2026-13-01T09:00\": there is no month 13; expected a month from 01 to 12")
        #expect(refusal(["first": "2026-11-22T09:00:30"]).contains("is not a time of day"))
    }

    @Test func dayZeroAndDayThirtyTwo() {
        #expect(refusal(["first": "2026-10-00T09:00"]) == "[[schedule]] #1 (id \"VITD\") refused: first \"2026-10-00T09:00\": day 0 does not exist in 2026-10, which has 31 days; expected 01 to 31")
        #expect(refusal(["first": "2026-10-32T09:00"]) == "[[schedule]] #1 (id \"VITD\") refused: first \"2026-10-32T09:00\": day 32 does not exist in 2026-10, which has 31 days; expected 01 to 31")
        #expect(refusal(["first": "2026-02-29T09:00"]) == "[[schedule]] #1 (id \"VITD\") refused: first \"2026-02-29T09:00\": day 29 does not exist in 2026-02, which has 28 days; expected 01 to 28")
    }

    @Test func aMonthlyFirstDayThatPassesThirtyOne() {
        #expect(refusal(["frequency": "twice-monthly", "first": "2026-06-20T08:00"]) == "[[schedule]] #1 (id \"VITD\") refused: first falls on day 20, and day 20 + 15 passes 31; for twice-monthly the largest first day is 16")
        #expect(refusal(["frequency": "three-times-monthly", "first": "2026-06-12T08:00"]).hasSuffix("the largest first day is 11"))
        // Day 16 + 15 = 31 is allowed; so is any day for `monthly`.
        #expect(ScheduleTables(parsing: [table(["frequency": "twice-monthly", "first": "2026-06-16T08:00"])]).errors.isEmpty)
        #expect(ScheduleTables(parsing: [table(["frequency": "monthly", "first": "2026-05-31T08:00"])]).errors.isEmpty)
    }

    @Test func missingAndMalformedValues() {
        #expect(refusal(["id": nil]) == "[[schedule]] #1 refused: no id; expected a short name such as id = \"VITD\"")
        #expect(refusal(["intake": nil]) == "[[schedule]] #1 (id \"VITD\") refused: no intake; expected intake = \"water\" (bottle drinks) or a name such as \"vitamin-d\"")
        #expect(refusal(["frequency": nil]).hasPrefix("[[schedule]] #1 (id \"VITD\") refused: no frequency; expected one of daily, "))
        #expect(refusal(["first": nil]) == "[[schedule]] #1 (id \"VITD\") refused: no first; expected the first occurrence in local time, e.g. first = \"2026-11-22T09:00\"")
        #expect(refusal(["enabled": "yes"]) == "[[schedule]] #1 (id \"VITD\") refused: enabled \"yes\" is not a switch; expected true or false")
        #expect(refusal(["id": "VIT-D"]) == "[[schedule]] #1 (id \"VIT-D\") refused: id \"VIT-D\" is not usable; expected 1 to 32 letters, digits or _, e.g. id = \"VITD\"")
        #expect(refusal(["intake": "water", "min_ml": "0"]) == "[[schedule]] #1 (id \"VITD\") refused: min_ml \"0\" is not usable; expected a whole number of millilitres from 1")
        #expect(refusal(["intake": " "]) == "[[schedule]] #1 (id \"VITD\") refused: the intake type is empty; expected \"water\" (bottle drinks) or a name such as \"vitamin-d\"")
    }

    @Test func badTablesAreRefusedAndTheOthersStillLoad() {
        let tables = [
            valid,
            ["id": "VITD", "intake": "other", "frequency": "daily", "first": "2026-11-22T08:00"],
            ["id": "BAD", "intake": "x", "frequency": "hourly", "first": "2026-11-22T08:00"],
            ["id": "MED", "intake": "med", "frequency": "monthly", "first": "2026-11-32T08:00"],
            ["id": "OK2", "intake": "water", "frequency": "daily", "first": "2026-11-22T08:00", "days": "mon,thu"],
        ]
        let parsed = ScheduleTables(parsing: tables)
        #expect(parsed.schedules.map(\.id) == ["VITD", "OK2"])
        #expect(parsed.errors.map(\.table) == [2, 3, 4])
        #expect(parsed.errors[0].description == "[[schedule]] #2 (id \"VITD\") refused: id \"VITD\" is already used by an earlier schedule; expected an id of its own")
        #expect(parsed.errors.allSatisfy { !$0.description.contains("\n") })
        #expect(parsed.warnings == ["[[schedule]] #5 (id \"OK2\"): unknown key \"days\" ignored; known keys: id, name, intake, frequency, first, enabled, body, min_ml"])
    }

    @Test func minMLOnAManualTypeIsAWarning() {
        let parsed = ScheduleTables(parsing: [table(["min_ml": "100"])])
        #expect(parsed.schedules.count == 1)
        #expect(parsed.warnings == ["[[schedule]] #1 (id \"VITD\"): min_ml ignored; it applies to intake = \"water\" only"])
    }

    @Test func schedulesRoundTripThroughTheirStoredForm() throws {
        let parsed = ScheduleTables(parsing: [valid, ["id": "W", "intake": "water", "frequency": "six-times-daily",
                                                      "first": "2026-03-10T08:00", "min_ml": "120", "body": "Sip."]])
        let data = try JSONEncoder().encode(parsed.schedules)
        #expect(try JSONDecoder().decode([IntakeSchedule].self, from: data) == parsed.schedules)
        // A stored schedule is validated again.
        let bad = Data(#"[{"id":"X","intake":"x","frequency":"twice-monthly","first":"2026-01-20T08:00"}]"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([IntakeSchedule].self, from: bad) }
    }
}
