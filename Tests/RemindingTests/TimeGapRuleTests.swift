// When the reminder runner treats time that moved as a restart rather than minutes to tick
// (`TimeGapRule`, docs/reminders.md 0): the daemon's clock jumping more than five minutes either
// way (an NTP step, a suspend) is a restart; replay ticks every minute of a gap up to 366 days.

@testable import Reminding
import Testing
import Timekeeping

@Suite("Reminding: time that jumps")
struct TimeGapRuleTests {
    @Test("the daemon: more than five minutes either way since the last evaluation is a restart")
    func theDaemonsRule() {
        let rule = TimeGapRule.daemon
        #expect(rule == .restartAfter(.seconds(300)))
        #expect(!rule.isRestart(from: WallInstant(secondsSince1970: 1_000), lastTick: WallInstant(secondsSince1970: 1_000), to: WallInstant(secondsSince1970: 1_060)), "a minute's tick")
        #expect(!rule.isRestart(from: WallInstant(secondsSince1970: 1_000), lastTick: WallInstant(secondsSince1970: 1_000), to: WallInstant(secondsSince1970: 1_300)), "five minutes exactly: still ticks")
        #expect(rule.isRestart(from: WallInstant(secondsSince1970: 1_000), lastTick: WallInstant(secondsSince1970: 1_000), to: WallInstant(secondsSince1970: 1_301)))
        #expect(rule.isRestart(from: WallInstant(secondsSince1970: 1_000), lastTick: WallInstant(secondsSince1970: 1_000), to: WallInstant(secondsSince1970: 699)), "backwards")
        #expect(!rule.isRestart(from: WallInstant(secondsSince1970: 1_000), lastTick: WallInstant(secondsSince1970: 0), to: WallInstant(secondsSince1970: 1_060)), "measured from the last evaluation, not the last tick")
    }

    @Test("replay: every minute of a gap is ticked, up to 366 days since the last tick")
    func replaysRule() {
        let rule = TimeGapRule.replay
        let start = WallInstant.epoch, day = Duration.seconds(86_400)
        #expect(!rule.isRestart(from: start, lastTick: start, to: start + day * 30), "a month without events is ticked through")
        #expect(!rule.isRestart(from: start, lastTick: start, to: start + day * 366))
        #expect(rule.isRestart(from: start, lastTick: start, to: start + day * 366 + .seconds(1)))
        #expect(!rule.isRestart(from: start, lastTick: start, to: start - day), "a capture's earlier event is not a restart for replay")
    }
}
