// The text a person reads shows local time in the `timezone` setting; the JSON stays ISO 8601
// UTC with `Z` (docs/design.md 3.4). day-of-syncs.aqcap's first drink is at 2026-11-20T06:20:00Z.

import Foundation
import TestFixtures
import Testing

@Suite("local time in text output")
struct LocalTimeOutputTests {
    /// A history holding day-of-syncs.aqcap.
    func replayedDay(_ folder: TemporaryFolder) async throws -> String {
        let db = folder.path + "/h.sqlite"
        let result = try await runBridge(["replay", shippedCapture("day-of-syncs.aqcap"), "--db", db, "--set", "timezone=UTC"])
        #expect(result.status == 0, "\(result.err)")
        return db
    }

    @Test("history: local times in Madrid and New York, the JSON and CSV unchanged (UTC)")
    func history() async throws {
        let folder = TemporaryFolder()
        let db = try await replayedDay(folder)
        let madrid = try await runBridge(["history", "--db", db, "--set", "timezone=Europe/Madrid"])
        #expect(madrid.status == 0, "\(madrid.err)")
        #expect(madrid.out.contains("2026-11-20 07:20:00  drink #1  45 ml  gulp"), "\(madrid.out)")
        let newYork = try await runBridge(["history", "--db", db, "--set", "timezone=America/New_York"])
        #expect(newYork.out.contains("2026-11-20 01:20:00  drink #1  45 ml  gulp"), "\(newYork.out)")
        #expect(!newYork.out.contains("T06:20:00"))
        for zone in ["Europe/Madrid", "America/New_York"] {
            let json = try await runBridge(["history", "--json", "--db", db, "--set", "timezone=\(zone)"])
            let first = try #require(try jsonObjects(json.out).first)
            #expect(first["time"] as? String == "2026-11-20T06:20:00Z")
            let csv = try await runBridge(["history", "--csv", "--db", db, "--set", "timezone=\(zone)"])
            #expect(csv.out.contains("drink,2026-11-20T06:20:00Z,,1,45,"), "\(csv.out)")
        }
    }

    @Test("replay text mode in local time, --json in UTC")
    func replay() async throws {
        let capture = shippedCapture("day-of-syncs.aqcap")
        let text = try await runBridge(["replay", capture, "--set", "timezone=America/New_York"])
        #expect(text.status == 0, "\(text.err)")
        #expect(text.out.contains("2026-11-20 01:20:00  drink #1  45 ml  gulp  level 785 ml  new"), "\(text.out)")
        let json = try await runBridge(["replay", capture, "--json", "--set", "timezone=America/New_York"])
        let drink = try #require(try jsonObjects(json.out).first { $0["event"] as? String == "drink" })
        #expect(drink["time"] as? String == "2026-11-20T06:20:00Z")
    }

    @Test("status and bottle info: the last sync in local time, the JSON in UTC")
    func statusAndBottleInfo() async throws {
        let folder = TemporaryFolder()
        let db = try await replayedDay(folder)
        // The capture's last sync ended at 2026-11-20T21:50:01.010Z.
        let utc = try await runBridge(["status", "--db", db, "--set", "timezone=UTC", "--at", "2026-11-20T23:00:00Z"])
        #expect(utc.out.contains("Last sync: 2026-11-20 21:50:01\n"), "\(utc.out)")
        let madrid = try await runBridge(["status", "--db", db, "--set", "timezone=Europe/Madrid", "--at", "2026-11-20T23:00:00Z"])
        #expect(madrid.out.contains("Last sync: 2026-11-20 22:50:01\n"), "\(madrid.out)")
        let json = try await runBridge(["status", "--json", "--db", db, "--set", "timezone=Europe/Madrid", "--at", "2026-11-20T23:00:00Z"])
        let object = try #require(try jsonObjects(json.out).first)
        #expect(object["last_sync"] as? String == "2026-11-20T21:50:01.010Z")
        #expect(object["time"] as? String == "2026-11-20T23:00:00Z")

        let info = try await runBridge(["bottle", "info", "--db", db, "--set", "timezone=Europe/Madrid"])
        #expect(info.status == 0, "\(info.err)")
        #expect(info.out.contains("  last sync       2026-11-20 22:50:01\n"), "\(info.out)")
        let infoJSON = try await runBridge(["bottle", "info", "--json", "--db", db, "--set", "timezone=Europe/Madrid"])
        let bottle = try #require(try jsonObjects(infoJSON.out).first)
        #expect(bottle["last_sync"] as? String == "2026-11-20T21:50:01.010Z")
    }

    @Test("log: the instant logged in local time")
    func log() async throws {
        let folder = TemporaryFolder()
        let logged = try await runBridge(["log", "vitamin-d", "--at", "2026-11-20T10:00:00Z", "--db", folder.path + "/h.sqlite",
                                          "--set", "timezone=America/New_York"])
        #expect(logged.status == 0, "\(logged.err)")
        #expect(logged.out.contains("logged vitamin-d at 2026-11-20 05:00:00"), "\(logged.out)")
    }
}
