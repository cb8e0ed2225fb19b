// The daemon's clock jumps (NTP's first sync on a Pi without a real-time clock, a
// hand-set date, a suspend). A forward jump used to tick every missed minute at once (+30 days:
// 60 reminders); a backward one stopped the ticks until the clock caught up. The daemon's ticker
// wakes every minute, so a gap of more than 5 minutes either way is a restart of the reminder
// rules (docs/reminders.md 0): the on-start rules at the new time deliver nothing, what fell due in
// the gap is dropped as missed, and the ticks go on from there. So after a jump the bridge sends
// exactly what a bridge restarted at that moment on the same database would send.

@testable import Daemon
import Foundation
import History
import Locking
import Logging
import Reminders
@testable import Settings
import TestFixtures
import Testing
import Timekeeping

@Suite("Clock jumps in the daemon's reminder desk")
struct ClockJumpTests {
    /// Friday 2026-11-20 06:00 Europe/Madrid.
    static let friday0600: WallInstant = WallInstant(secondsSince1970: 1_795_150_800)

    /// The first whole minute at or after `instant`, where the ticker wakes after a jump.
    static func nextMinute(_ instant: WallInstant) -> WallInstant {
        WallInstant(secondsSince1970: (instant.secondsSince1970 / 60).rounded(.up) * 60)
    }

    /// Hydration reminders (the default), the daily message and the rituals, on the clock of a
    /// desk that reaches a person.
    static let configText = """
        timezone = "Europe/Madrid"
        [messages]
        enabled = true
        [rituals]
        enabled = true
        """

    /// A desk on `db`, and what it delivers.
    final class Rig: Sendable {
        let desk: ReminderDesk
        let delivered = Locked<[Delivery]>([])

        init(db: String, config: String) throws {
            let history = try DrinkHistory(path: db)
            let configuration = try Configuration.load(file: config, mustExist: true)
            let delivered = self.delivered
            desk = ReminderDesk(history: history, configuration: configuration,
                                logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }) { delivery in
                delivered.withLock { $0.append(delivery) }
            }
        }

        /// Every whole minute from `start` to `end` (as the daemon's ticker), returning what they delivered.
        func tick(from start: WallInstant, to end: WallInstant) async -> [Delivery] {
            let before = delivered.withLock { $0.count }
            for minute in start.everyMinute(through: end) {
                await desk.advance(to: minute)
            }
            return delivered.withLock { Array($0[before...]) }
        }

        func advance(to instant: WallInstant) async -> [Delivery] {
            let before = delivered.withLock { $0.count }
            await desk.advance(to: instant)
            return delivered.withLock { Array($0[before...]) }
        }
    }

    @Test("a jump of the clock gives what a restart at the new time gives, and not a delivery more",
          arguments: [Duration.seconds(30 * 86_400), .seconds(365 * 86_400), .seconds(-86_400 - 3600)])
    func jump(by offset: Duration) async throws {
        let folder = TemporaryFolder()
        let config = folder.write("bridge.toml", Self.configText)
        let before = Self.friday0600
        let last = before + .seconds(6 * 3600) // 12:00: an attention and an overdue reminder were sent
        // Not on a whole minute: a jump lands anywhere.
        let jumped = last + offset + .seconds(30)

        // The daemon whose clock jumps.
        let live = try Rig(db: folder.path + "/live.sqlite", config: config)
        let sentBefore = await live.tick(from: before, to: last)
        #expect(sentBefore.filter { $0.kind == .reminder }.count == 2)
        let atJump = await live.advance(to: jumped)
        let afterJump = await live.tick(from: Self.nextMinute(jumped), to: jumped + .seconds(15 * 60))

        // The same day, then a bridge restarted at the new time on the same database.
        let db = folder.path + "/restarted.sqlite"
        _ = try await Rig(db: db, config: config).tick(from: before, to: last)
        let restarted = try Rig(db: db, config: config)
        let atRestart = await restarted.advance(to: jumped)
        let afterRestart = await restarted.tick(from: Self.nextMinute(jumped), to: jumped + .seconds(15 * 60))

        // docs/reminders.md 0 / 1: starting delivers nothing; what came due while "down" is missed.
        #expect(atRestart.isEmpty)
        #expect(atJump == atRestart)
        #expect(afterJump == afterRestart)
        // And the restart does remind: the clock is at 11:00 to 12:00 with nothing drunk, so the
        // first tick sends one overdue reminder (2.3: a new reminder day, no urgency notified
        // yet) and the next ones none (escalation only). A backward jump does not silence it.
        #expect(afterJump.filter { $0.kind == .reminder }.count == 1)
        #expect(afterJump.first { $0.kind == .reminder }?.body.hasPrefix("You're falling behind!") == true)
    }

    @Test("gaps of up to 5 minutes are ticked through, minute by minute")
    func shortGapsTick() async throws {
        let folder = TemporaryFolder()
        let config = folder.write("bridge.toml", Self.configText)
        let live = try Rig(db: folder.path + "/live.sqlite", config: config)
        // 07:50 to 08:05 in 5-minute steps: the attention reminder at 07:54 is still delivered
        // at 07:54 (ticked in the gap), and the morning ritual at 08:00.
        let start = Self.friday0600 + .seconds(110 * 60)
        var sent: [Delivery] = []
        var instant = start
        while instant <= start + .seconds(15 * 60) {
            sent += await live.advance(to: instant)
            instant += .seconds(300)
        }
        let reminder = try #require(sent.first { $0.kind == .reminder })
        #expect(reminder.time == Self.friday0600 + .seconds(114 * 60))
        #expect(sent.contains { $0.kind == .ritual && $0.time == Self.friday0600 + .seconds(120 * 60) })
    }
}
