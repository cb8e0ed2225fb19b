// What the page's live updates compare: a short digest of everything the dashboard shows that a
// sync, a command or a setting can change (the newest drink row, today's drinks and deletions, the
// commands waiting, each bottle's last sync and state, the stored settings) and the quarter hour
// (the pace line moves with the clock). `GET /events` sends it; the page's script reloads the
// page when it differs from the one the page was drawn with. The digest is a number, never text.

import Foundation
import History
import Reminding
import Settings
import Timekeeping

enum PageVersion {
    /// How long a browser waits between two asks (the `retry` of the event stream). Each ask is
    /// answered at once and the connection closed: a page left open holds no connection, so open
    /// pages never use up the server's 128 (WebServer.connectionCap).
    static let retryMilliseconds = 10_000

    /// The version at `now`; `views`: the bottles and waiting commands the page was drawn from,
    /// when it was (`GET /events` reads them here).
    static func make(_ context: WebContext, configuration: Configuration, at now: WallInstant, views: BottleViews? = nil) throws -> String {
        let history = context.history
        let timeZone = configuration.timeZone
        let wall = LocalClock(timeZone: timeZone).wallClockUncached(at: now)
        let day = wall.day.interval(in: timeZone)
        var digest = Digest()
        digest.add("\(wall.day) \(wall.minuteOfDay / 15) \(try history.drinks.drinkRowIDHigh())")
        for drink in try history.drinks.storedDrinks(from: day.start, to: day.end) {
            digest.add("\(drink.bottle) \(drink.recordID) \(drink.deleted)")
        }
        // By id, as the history lists them, so that the page and `/events` digest the same.
        let commands = try views.map { $0.pending.values.flatMap { $0 }.sorted { $0.id < $1.id } }
            ?? history.commands.all(statuses: [.pending, .sending])
        for command in commands {
            digest.add("\(command.id) \(command.status.rawValue)")
        }
        for bottle in try views?.bottles ?? history.bottles.all() {
            digest.add("\(bottle.id) \(bottle.lastSync ?? .epoch) \(bottle.lastSeen ?? .epoch) \(bottle.state?.receivedAt ?? .epoch) \(bottle.goalML ?? 0)")
        }
        // Secrets (the web token, the household key) are left out: anyone who can open the page
        // would otherwise see, in /events, when one changed.
        for (key, value) in try history.settings.all().sorted(by: { $0.key < $1.key }) where !(SettingCatalog.key(named: key)?.isSecret ?? true) {
            digest.add("\(key)=\(value)")
        }
        return String(digest.value, radix: 16)
    }

    /// The answer of `GET /events`: one server-sent event carrying the version, and the wait
    /// before the browser asks again.
    static func event(_ version: String) -> String {
        "retry: \(retryMilliseconds)\nevent: version\ndata: \(version)\n\n"
    }

    /// FNV-1a, 64 bits: the same digest on every machine and every run (Swift's `Hasher` is
    /// seeded per process, and two servers of one history must agree).
    private struct Digest {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        mutating func add(_ text: String) {
            for byte in text.utf8 + [0x0A] {
                value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            }
        }
    }
}
