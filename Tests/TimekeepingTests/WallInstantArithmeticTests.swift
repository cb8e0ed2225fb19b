// The arithmetic between a WallInstant and a Duration, and that no literal becomes an instant (so
// `instant - 600` does not compile, where it once meant `instant - WallInstant(600)`).

import Testing
import Timekeeping

@Suite struct WallInstantArithmeticTests {
    @Test func noLiteralConvertsToAWallInstant() {
        #expect(!(WallInstant.self is any ExpressibleByIntegerLiteral.Type))
        #expect(!(WallInstant.self is any ExpressibleByFloatLiteral.Type))
    }

    @Test func anInstantMinusADurationIsAnInstant() {
        let start = WallInstant(secondsSince1970: 1_763_712_000)
        #expect(start - .seconds(600) == WallInstant(secondsSince1970: 1_763_711_400))
        #expect(start + .milliseconds(500) == WallInstant(secondsSince1970: 1_763_712_000.5))
        #expect(start - (start - .seconds(600)) == .seconds(600))
        #expect(WallInstant.epoch.duration(to: start) == .seconds(1_763_712_000))
    }
}
