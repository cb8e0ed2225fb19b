// The local time a person reads (docs/design.md 3.4): the zone's wall clock to the second, DST
// from the time-zone database; the same instants as ISO8601Text's UTC.

import Foundation
import Testing
import Timekeeping

@Suite struct LocalTimeTextTests {
    let madrid = TimeZone(identifier: "Europe/Madrid")!
    let newYork = TimeZone(identifier: "America/New_York")!

    @Test func theZonesWallClockToTheSecond() {
        let instant = 1_795_248_000.0  // 2026-11-21T08:00:00Z
        #expect(LocalTimeText.format(WallInstant(secondsSince1970: instant), in: TimeZone(identifier: "UTC")!) == "2026-11-21 08:00:00")
        #expect(LocalTimeText.format(WallInstant(secondsSince1970: instant), in: madrid) == "2026-11-21 09:00:00")
        #expect(LocalTimeText.format(WallInstant(secondsSince1970: instant), in: newYork) == "2026-11-21 03:00:00")
        #expect(LocalTimeText.format(WallInstant(secondsSince1970: instant + 45.999), in: madrid) == "2026-11-21 09:00:45")
    }

    @Test func theDateIsTheLocalOne() {
        // 2026-11-21T02:30:00Z is still the 20th in New York.
        #expect(LocalTimeText.format(WallInstant(secondsSince1970: 1_795_228_200), in: newYork) == "2026-11-20 21:30:00")
    }

    @Test func daylightSavingChangesComeFromTheZone() {
        // Madrid, 2026-10-25: 00:59:59Z is 02:59:59 CEST, 01:00:00Z is 02:00:00 CET.
        #expect(LocalTimeText.format(WallInstant(secondsSince1970: 1_792_889_999), in: madrid) == "2026-10-25 02:59:59")
        #expect(LocalTimeText.format(WallInstant(secondsSince1970: 1_792_890_000), in: madrid) == "2026-10-25 02:00:00")
        // New York, 2026-03-08: 06:59:59Z is 01:59:59 EST, 07:00:00Z is 03:00:00 EDT.
        #expect(LocalTimeText.format(WallInstant(secondsSince1970: 1_772_953_199), in: newYork) == "2026-03-08 01:59:59")
        #expect(LocalTimeText.format(WallInstant(secondsSince1970: 1_772_953_200), in: newYork) == "2026-03-08 03:00:00")
    }

    @Test func absurdInstantsDoNotTrap() {
        #expect(LocalTimeText.format(WallInstant(secondsSince1970: .nan), in: TimeZone(identifier: "UTC")!) == "1970-01-01 00:00:00")
        #expect(!LocalTimeText.format(WallInstant(secondsSince1970: .infinity), in: madrid).isEmpty)
    }
}
