// docs/reminders.md 2.3–2.5: the anchor app's exact strings, the rounding of X and its printf format.

import Testing
@testable import Reminders

struct HydrationTextTests {
    @Test(arguments: [(0, 0), (24, 0), (25, 50), (74, 50), (75, 100), (150, 150), (174, 150), (175, 200), (999, 1000)])
    func deficitRoundsToTheNearestFifty(deficit: Int, rounded: Int) {
        #expect(HydrationText.roundedToFifty(deficit) == rounded)
    }

    @Test(arguments: [
        (150, "150ml"), (974, "950ml"), (975, "1.0L"), (1000, "1.0L"),
        // The exact tie 1.25 rounds to even; 1.15 is stored as 1.1499… and 1.05 as 1.0500…04.
        (1250, "1.2L"), (1150, "1.1L"), (1050, "1.1L"), (1350, "1.4L"), (1450, "1.4L"),
        (2050, "2.0L"), (2250, "2.2L"), (2500, "2.5L"), (9950, "9.9L"), (10050, "10.1L"),
    ])
    func volumeText(deficit: Int, text: String) {
        #expect(HydrationText.volume(deficit) == text)
    }

    @Test func reminderBodies() {
        #expect(HydrationText.reminderBody(urgency: .attention, displayedDeficitML: 150)
                == "Time to hydrate! You're 150ml behind pace.")
        #expect(HydrationText.reminderBody(urgency: .overdue, displayedDeficitML: 1240)
                == "You're falling behind! Drink 1.2L to catch up.")
        #expect(HydrationText.reminderTitle == "Hydration Reminder")
    }

    @Test func alertTexts() {
        #expect(HydrationText.backOnTrackTitle == "Back On Track!")
        #expect(HydrationText.backOnTrackBody == "Nice work catching up on your hydration.")
        #expect(HydrationText.backOnTrackLogLine == "[HydrationReminder] Back on track!")
        #expect(HydrationText.goalReachedTitle == "Goal Reached! 💧")
        #expect(HydrationText.goalReachedBody == "Good job! You've hit your daily hydration goal.")
        #expect(HydrationText.lowBatteryTitle == "Low Battery")
        #expect(HydrationText.lowBatteryBody(percent: 15) == "Your Aquavate bottle battery is at 15%. Please charge soon.")
    }

    @Test func identifiers() {
        #expect(HydrationID.reminder(7) == "hydration-7")
        #expect(HydrationID.backOnTrack(2) == "hydration-back-on-track-2")
        #expect(HydrationID.goalReached == "hydration-goal-reached")
        #expect(HydrationID.lowBattery == "bottle-low-battery")
    }
}
