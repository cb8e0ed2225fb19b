// ISO 8601 text: the `…Z` of docs/design.md 3.4, byte for byte what Foundation's formatter wrote
// for the bridge's output, and the reading of `--at` style options.

import Foundation
import Testing
import Timekeeping

@Suite struct ISO8601TextTests {
    @Test func wholeSecondsInUTCWithZ() {
        #expect(ISO8601Text.format(WallInstant(secondsSince1970: 0)) == "1970-01-01T00:00:00Z")
        #expect(ISO8601Text.format(WallInstant(secondsSince1970: 1_763_712_000.9)) == "2025-11-21T08:00:00Z")
        #expect(ISO8601Text.format(WallInstant(secondsSince1970: 1_709_164_800)) == "2024-02-29T00:00:00Z")
        #expect(ISO8601Text.format(WallInstant(secondsSince1970: 951_782_400)) == "2000-02-29T00:00:00Z")
        #expect(ISO8601Text.format(WallInstant(secondsSince1970: -0.5)) == "1969-12-31T23:59:59Z")
        #expect(ISO8601Text.format(WallInstant(secondsSince1970: -62_135_596_800)) == "0001-01-01T00:00:00Z")
        #expect(ISO8601Text.format(WallInstant(secondsSince1970: .nan)) == "1970-01-01T00:00:00Z")
    }

    @Test func millisecondsOnlyWhenThereIsAFraction() {
        #expect(ISO8601Text.formatWithMilliseconds(WallInstant(secondsSince1970: 1_763_712_000)) == "2025-11-21T08:00:00Z")
        #expect(ISO8601Text.formatWithMilliseconds(WallInstant(secondsSince1970: 1_763_712_000.5)) == "2025-11-21T08:00:00.500Z")
        #expect(ISO8601Text.formatWithMilliseconds(WallInstant(secondsSince1970: 1_763_712_000.123)) == "2025-11-21T08:00:00.122Z")
        #expect(ISO8601Text.formatWithMilliseconds(WallInstant(secondsSince1970: -1.25)) == "1969-12-31T23:59:58.750Z")
    }

    /// The same text as Foundation's `ISO8601FormatStyle`, which wrote the bridge's output before
    /// this module did: whole seconds, and milliseconds where the instant has a fraction.
    @Test func matchesFoundationsFormatter() {
        var generator = SystemRandomNumberGenerator()
        var instants: [Double] = [0, 1, -1, 0.0001, 0.9999, 1.0005, 1.9996, 253_402_300_799.9]
        for _ in 0..<20_000 {
            let whole = Double(Int.random(in: -2_000_000_000...4_000_000_000, using: &generator))
            instants.append(whole)
            instants.append(whole + Double.random(in: 0..<1, using: &generator))
            instants.append(whole + Double(Int.random(in: 0..<1000, using: &generator)) / 1000)
        }
        for instant in instants {
            let date = Date(timeIntervalSince1970: instant)
            let foundation = instant.rounded(.down) == instant
                ? date.formatted(Date.ISO8601FormatStyle())
                : date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
            guard ISO8601Text.formatWithMilliseconds(WallInstant(secondsSince1970: instant)) == foundation,
                  ISO8601Text.format(WallInstant(secondsSince1970: instant)) == date.ISO8601Format() else {
                Issue.record("\(instant): \(ISO8601Text.formatWithMilliseconds(WallInstant(secondsSince1970: instant))) / \(ISO8601Text.format(WallInstant(secondsSince1970: instant))) vs \(foundation) / \(date.ISO8601Format())")
                return
            }
        }
    }

    @Test func readsADateAndTimeWithAZone() {
        #expect(ISO8601Text.parse("2026-11-20T18:00:00Z") == WallInstant(secondsSince1970: 1_795_197_600))
        #expect(ISO8601Text.parse("2026-11-20T19:00:00+01:00") == WallInstant(secondsSince1970: 1_795_197_600))
        #expect(ISO8601Text.parse("2026-11-20T18:00:00.5Z") == WallInstant(secondsSince1970: 1_795_197_600.5))
        for text in ["2026-11-20", "2026-11-20T18:00:00", "2026-11-20T18:00Z", "yesterday", ""] {
            #expect(ISO8601Text.parse(text) == nil, "\(text)")
        }
    }
}
