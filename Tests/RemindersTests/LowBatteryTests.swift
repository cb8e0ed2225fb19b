// docs/reminders.md 2.5: the low-battery alert, once per episode, remembered across restarts.

import Foundation
import Testing
@testable import Reminders

struct LowBatteryTests {
    let day = "2026-03-10"

    @Test func oncePerEpisode() {
        var sim = Simulation(settings: .test(), date: day, time: "09:00")
        let first = sim.currentState(lowBattery: true, percent: 15, on: day, at: "09:00:10")
        #expect(first == [Delivery(id: "bottle-low-battery", kind: .lowBattery, time: instant(day, "09:00:10", in: utc),
                                   title: "Low Battery", body: "Your Aquavate bottle battery is at 15%. Please charge soon.",
                                   thread: "bottle")])
        let result1 = sim.currentState(lowBattery: true, percent: 14, on: day, at: "09:30")
        #expect(result1.isEmpty)
        let result2 = sim.currentState(lowBattery: false, percent: 80, on: day, at: "11:00")
        #expect(result2.isEmpty)
        let result3 = sim.currentState(lowBattery: false, percent: 79, on: day, at: "11:05")
        #expect(result3.isEmpty)
        // A new episode the same local day does not alert again (at most once a day).
        let sameDay = sim.currentState(lowBattery: true, percent: 12, on: day, at: "18:00")
        #expect(sameDay.isEmpty)
        _ = sim.currentState(lowBattery: false, percent: 80, on: "2026-03-11", at: "08:00")
        let nextDay = sim.currentState(lowBattery: true, percent: 12, on: "2026-03-11", at: "18:00")
        #expect(nextDay.map(\.id) == ["bottle-low-battery"])
        #expect(nextDay.map(\.body) == ["Your Aquavate bottle battery is at 12%. Please charge soon."])
    }

    @Test("a flag that flickers 20 times in 20 seconds alerts once (it used to give 10 alerts)")
    func flickerAlertsOnce() {
        var sim = Simulation(settings: .test(), date: day, time: "09:00")
        var alerts = 0
        for second in 0..<20 {
            alerts += sim.currentState(lowBattery: second % 2 == 0, percent: 15, on: day,
                                       at: String(format: "09:00:%02d", second)).count
        }
        #expect(alerts == 1)
    }

    @Test("the day of the last alert survives a restart")
    func alertDayPersists() throws {
        var sim = Simulation(settings: .test(), date: day, time: "09:00")
        #expect(sim.currentState(lowBattery: true, percent: 15, on: day, at: "09:01").count == 1)
        _ = sim.currentState(lowBattery: false, percent: 80, on: day, at: "10:00")
        try sim.restart(on: day, at: "12:00")
        #expect(sim.currentState(lowBattery: true, percent: 14, on: day, at: "12:00:05").isEmpty)
    }

    @Test func aRestartDoesNotAlertAgain() throws {
        var sim = Simulation(settings: .test(), date: day, time: "09:00")
        let result4 = sim.currentState(lowBattery: true, percent: 15, on: day, at: "09:01")
        #expect(result4.count == 1)
        try sim.restart(on: day, at: "12:00")
        #expect(sim.state.lastLowBattery)
        let result5 = sim.currentState(lowBattery: true, percent: 14, on: day, at: "12:00:05")
        #expect(result5.isEmpty)
    }

    @Test func ignoresQuietHoursAndTheHydrationSwitchButNotTheMasterSwitch() {
        var sim = Simulation(settings: .test { $0.enabled = false }, date: day, time: "02:00")
        let result6 = sim.currentState(lowBattery: true, percent: 5, on: day, at: "03:00")
        #expect(result6.count == 1)
        var off = Simulation(settings: .test { $0.notificationsEnabled = false }, date: day, time: "09:00")
        let result7 = off.currentState(lowBattery: true, percent: 15, on: day, at: "09:01")
        #expect(result7.isEmpty)
        // The episode was seen: switching notifications on while it lasts does not announce it.
        off.updateSettings({ $0.notificationsEnabled = true }, on: day, at: "10:00")
        let result8 = off.currentState(lowBattery: true, percent: 14, on: day, at: "10:01")
        #expect(result8.isEmpty)
        let result9 = off.currentState(lowBattery: false, percent: 90, on: day, at: "11:00")
        #expect(result9.isEmpty)
        let result10 = off.currentState(lowBattery: true, percent: 14, on: day, at: "20:00")
        #expect(result10.count == 1)
    }
}
