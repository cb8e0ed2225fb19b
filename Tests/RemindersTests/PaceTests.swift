// docs/reminders.md 2.2: expected, deficit and urgency, in integers.

import Testing
@testable import Reminders

struct PaceTests {
    let settings = HydrationSettings.test()

    func pace(_ hour: Int, _ minute: Int, total: Int = 0, _ settings: HydrationSettings? = nil) -> Pace {
        Pace(minuteOfDay: hour * 60 + minute, dayTotalML: total, settings: settings ?? self.settings)
    }

    @Test func expectedFollowsTheWallClockWindow() {
        #expect(pace(6, 59).expectedML == 0)
        #expect(pace(7, 0).expectedML == 0)
        #expect(pace(7, 1).expectedML == 2)          // floor(1 × 2500 / 900)
        #expect(pace(7, 54).expectedML == 150)       // 54 × 2500 / 900 = 150 exactly
        #expect(pace(7, 53).expectedML == 147)
        #expect(pace(10, 0).expectedML == 500)
        #expect(pace(14, 30).expectedML == 1250)
        #expect(pace(21, 59).expectedML == 2497)     // floor(899 × 2500 / 900) = 2497
        #expect(pace(22, 0).expectedML == 2500)
        #expect(pace(23, 59).expectedML == 2500)
        #expect(pace(0, 0).expectedML == 0)
    }

    @Test func deficitMayBeNegativeButIsDisplayedFromZero() {
        let ahead = pace(10, 0, total: 800)
        #expect(ahead.deficitML == -300)
        #expect(ahead.displayedDeficitML == 0)
        #expect(ahead.urgency == .onTrack)
        let behind = pace(10, 0, total: 100)
        #expect(behind.deficitML == 400)
        #expect(behind.displayedDeficitML == 400)
    }

    @Test func urgencyThresholds() {
        // overdue from floor(2500 × 0.20) = 500 behind.
        #expect(pace(10, 0, total: 1).urgency == .attention)    // 499
        #expect(pace(10, 0, total: 0).urgency == .overdue)      // 500
        #expect(pace(10, 0, total: 500).urgency == .onTrack)    // 0
        #expect(pace(7, 1).urgency == .attention)               // 2 ml behind is attention already
        #expect(pace(6, 0).urgency == .onTrack)                 // nothing expected yet
        // The goal met is on_track whatever the pace says.
        #expect(pace(22, 0, total: 2500).urgency == .onTrack)
        #expect(pace(22, 0, total: 2499).urgency == .attention)
    }

    @Test func overdueThresholdIsTheFloorInIntegers() {
        #expect(Pace.overdueThreshold(goalML: 2500) == 500)
        #expect(Pace.overdueThreshold(goalML: 2504) == 500)     // 500.8
        #expect(Pace.overdueThreshold(goalML: 2505) == 501)
        #expect(Pace.overdueThreshold(goalML: 4) == 0)          // 0.8
    }

    @Test func urgencyOrder() {
        #expect(Urgency.onTrack < .attention)
        #expect(Urgency.attention < .overdue)
        #expect(Urgency.onTrack.displayName == "On Track")
        #expect(Urgency.attention.displayName == "Time to Hydrate")
        #expect(Urgency.overdue.displayName == "Overdue")
    }

    @Test func customWindow() {
        let short = HydrationSettings.test { $0.activeStartMinute = 9 * 60; $0.activeEndMinute = 17 * 60; $0.goalML = 2000 }
        #expect(pace(8, 59, short).expectedML == 0)
        #expect(pace(13, 0, short).expectedML == 1000)          // 240 × 2000 / 480
        #expect(pace(13, 1, short).expectedML == 1004)          // floor(241 × 2000 / 480) = 1004
        #expect(pace(17, 0, short).expectedML == 2000)
    }

    @Test func nonsenseSettingsNeverTrap() {
        let inverted = HydrationSettings.test { $0.activeStartMinute = 22 * 60; $0.activeEndMinute = 7 * 60 }
        #expect(pace(6, 0, inverted).expectedML == 0)
        #expect(pace(23, 0, inverted).expectedML == 2500)
        let empty = HydrationSettings.test { $0.activeStartMinute = 600; $0.activeEndMinute = 600 }
        #expect(pace(10, 0, empty).expectedML == 2500)
        let absurd = HydrationSettings.test { $0.goalML = Int.max; $0.activeStartMinute = Int.min; $0.activeEndMinute = Int.max }
        #expect(pace(12, 0, absurd).expectedML > 0)
        let negative = HydrationSettings.test { $0.goalML = -5 }
        #expect(pace(12, 0, negative).urgency == .onTrack)
    }
}
