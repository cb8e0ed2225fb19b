// The date and time texts are written digit by digit into one string (CivilDateText): byte for
// byte what the padded pieces wrote before, which these tests keep as the reference — around
// every DST transition of zones with whole-hour, half-hour and 45-minute shifts, at random
// instants, and at the absurd years a clamped instant reaches.

import Foundation
import Testing
import Timekeeping

@Suite struct DateTimeTextEqualityTests {
    // MARK: - The reference: the texts as they were built before

    private func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(abs(value))
        return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    private func referenceText(_ seconds: Int, separator: String, suffix: String) -> String {
        let (days, secondOfDay) = CivilDate.split(seconds: seconds)
        let (year, month, day) = CivilDate.date(daysSince1970: days)
        func two(_ value: Int) -> String { padded(value, 2) }
        return "\(padded(year, 4))-\(two(month))-\(two(day))"
            + "\(separator)\(two(secondOfDay / 3600)):\(two(secondOfDay % 3600 / 60)):\(two(secondOfDay % 60))\(suffix)"
    }

    private func referenceLocal(_ seconds: Double, in zone: TimeZone) -> String {
        let instant = seconds.isFinite ? min(max(seconds, -1e12), 1e12).rounded(.down) : 0
        let offset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: instant))
        return referenceText(Int(instant) + offset, separator: " ", suffix: "")
    }

    private func referenceISO(_ seconds: Double) -> String {
        let instant = seconds.isFinite ? min(max(seconds, -1e12), 1e12) : 0
        return referenceText(Int(instant.rounded(.down)), separator: "T", suffix: "Z")
    }

    // MARK: - Local time

    @Test(arguments: ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kathmandu", "America/St_Johns", "UTC"])
    func aroundEveryTransitionFrom1970To2040(_ identifier: String) {
        let zone = TimeZone(identifier: identifier)!
        var transitions: [Double] = []
        var cursor = Date(timeIntervalSince1970: 0)
        let end = Date(timeIntervalSince1970: 2_208_988_800)  // 2040-01-01
        while let next = zone.nextDaylightSavingTimeTransition(after: cursor), next < end {
            transitions.append(next.timeIntervalSince1970)
            cursor = next
        }
        if identifier == "Europe/Berlin" || identifier == "America/New_York" { #expect(transitions.count > 100) }
        var compared = 0
        for transition in transitions {
            for step in [-7200.0, -3601, -3600, -2700, -1801, -1800, -60, -1, -0.5, 0, 0.25, 1, 59, 1799, 1800, 2700, 3599, 3600, 7200] {
                let instant = transition + step
                #expect(LocalTimeText.format(WallInstant(secondsSince1970: instant), in: zone) == referenceLocal(instant, in: zone), "\(identifier) \(instant)")
                compared += 1
            }
        }
        #expect(compared == transitions.count * 19)
    }

    @Test func theTwoSidesOfATransitionDifferByTheShift() {
        // Berlin, 2026-03-29 01:00:00Z: 01:59:59 CET, then 03:00:00 CEST.
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        #expect(LocalTimeText.format(WallInstant(secondsSince1970: 1_774_745_999), in: berlin) == "2026-03-29 01:59:59")
        #expect(LocalTimeText.format(WallInstant(secondsSince1970: 1_774_746_000), in: berlin) == "2026-03-29 03:00:00")
        // New York, 2026-11-01 06:00:00Z: 01:59:59 EDT, then 01:00:00 EST.
        let newYork = TimeZone(identifier: "America/New_York")!
        #expect(LocalTimeText.format(WallInstant(secondsSince1970: 1_793_512_799), in: newYork) == "2026-11-01 01:59:59")
        #expect(LocalTimeText.format(WallInstant(secondsSince1970: 1_793_512_800), in: newYork) == "2026-11-01 01:00:00")
    }

    @Test func atRandomInstantsAndAbsurdOnes() {
        var generator = SystemRandomNumberGenerator()
        var instants: [Double] = [0, -1, -0.5, 1e12, -1e12, 1e13, -1e13, .nan, .infinity, -.infinity,
                                  253_402_300_799, 253_402_300_800, -62_167_219_200, -62_167_219_201]
        for _ in 0..<5_000 {
            instants.append(Double.random(in: -1e10...1e10, using: &generator))
            instants.append(Double(Int.random(in: -100_000_000...4_000_000_000, using: &generator)))
        }
        for identifier in ["Europe/Berlin", "America/New_York", "Asia/Kathmandu"] {
            let zone = TimeZone(identifier: identifier)!
            for instant in instants {
                #expect(LocalTimeText.format(WallInstant(secondsSince1970: instant), in: zone) == referenceLocal(instant, in: zone), "\(identifier) \(instant)")
            }
        }
        for instant in instants {
            #expect(ISO8601Text.format(WallInstant(secondsSince1970: instant)) == referenceISO(instant), "\(instant)")
        }
    }

    // MARK: - The years the fast way does not write

    @Test func yearsOutsideFourDigitsAsBefore() {
        #expect(ISO8601Text.format(WallInstant(secondsSince1970: -1e12)) == referenceISO(-1e12))
        #expect(ISO8601Text.format(WallInstant(secondsSince1970: -1e12)).hasPrefix("-29719-"))
        #expect(ISO8601Text.format(WallInstant(secondsSince1970: 1e12)).hasPrefix("33658-"))
        #expect(ISO8601Text.format(WallInstant(secondsSince1970: -62_167_219_201)) == "-0001-12-31T23:59:59Z")
        #expect(ISO8601Text.format(WallInstant(secondsSince1970: 253_402_300_800)) == "10000-01-01T00:00:00Z")
        #expect(ISO8601Text.formatWithMilliseconds(WallInstant(secondsSince1970: -62_167_219_200.5)) == "-0001-12-31T23:59:59.500Z")
        for days in [-12_000_000, -719_529, -719_528, -1, 0, 2_932_896, 2_932_897, 12_000_000] {
            let (year, month, day) = CivilDate.date(daysSince1970: days)
            #expect(LocalDay(daysSince1970: days).description == "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))")
        }
    }
}
