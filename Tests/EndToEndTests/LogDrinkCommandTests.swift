// `aquavate-bridge log drink ML [--at TIME] [--bottle …]`: a drink the bottle did not measure,
// stored as manual, counted in `status --json`'s today, listed as manual by `history --json`,
// deleted by `bottle delete` without a command for the bottle; bad input refused in one line,
// exit 2, nothing stored.

import Foundation
import History
import TestFixtures
import Testing
import Timekeeping

@Suite struct LogDrinkCommandTests {
    static let bottle = BottleRecord(id: "F4:12:FA:00:A3:F2", serial: "F4:12:FA:00:A3:F2", address: "F4:12:FA:00:A3:F4",
                                     lastSeen: WallInstant(secondsSince1970: 1_764_000_000))
    let folder = TemporaryFolder()

    /// The JSON objects of `out`, one a line.
    static func objects(_ out: String) throws -> [[String: Any]] {
        try out.split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:] }
    }

    @Test("log drink 250 counts in status --json and history --json shows it manual; bottle delete queues nothing")
    func loggedCountedListedDeleted() async throws {
        let db = folder.path + "/h.sqlite"
        try DrinkHistory(path: db).bottles.save(Self.bottle)
        let environment = ["TZ": "UTC"]
        // Now (a day's total counts what was stored by the instant asked), and one of an earlier day.
        let logged = try await runBridge(["log", "drink", "250", "--db", db], environment: environment)
        #expect(logged.status == 0 && logged.out.contains("250 ml  manual"), "\(logged)")
        let earlier = try await runBridge(["log", "drink", "400", "--at", "2026-11-20T10:30:00Z", "--db", db], environment: environment)
        #expect(earlier.status == 0, "\(earlier)")

        let status = try await runBridge(["status", "--json", "--db", db], environment: environment)
        #expect(status.status == 0, "\(status)")
        #expect(try Self.objects(status.out).first?["today_ml"] as? Int == 250, "\(status.out)")

        let history = try await runBridge(["history", "--json", "--db", db], environment: environment)
        let drinks = try Self.objects(history.out).filter { $0["event"] as? String == "drink" }
        #expect(drinks.map { $0["amount_ml"] as? Int } == [400, 250], "\(history.out)")
        #expect(drinks.map { $0["manual"] as? Bool } == [true, true])
        #expect(drinks.first?["time"] as? String == "2026-11-20T10:30:00Z")
        // Ids of this history's own space (one a household member never shares), in the order added.
        let ids = drinks.compactMap { $0["record_id"] as? Int }
        #expect(ids.count == 2 && ids[0] == ids[1] + 1 && ids[1] >= 2_147_483_648 + 65_536, "\(ids)")
        let recordID = ids.last ?? 0
        let text = try await runBridge(["history", "--db", db], environment: environment)
        #expect(text.out.contains("drink #\(recordID)  250 ml  manual"), "\(text.out)")

        let deleted = try await runBridge(["bottle", "delete", String(recordID), "--db", db], environment: environment)
        #expect(deleted.status == 0, "\(deleted)")
        #expect(try DrinkHistory(path: db).commands.all().isEmpty, "nothing for the bottle")
        let after = try await runBridge(["status", "--json", "--db", db], environment: environment)
        #expect(try Self.objects(after.out).first?["today_ml"] as? Int == 0, "\(after.out)")
    }

    @Test("a volume out of range, a bad or future time, an unknown bottle: one line, exit 2, nothing stored",
          arguments: [["0"], ["5001"], ["lots"], [], ["250", "--at", "yesterday"], ["250", "--at", "2999-01-01T00:00:00Z"],
                      ["250", "--bottle", "AA:BB:CC:DD:EE:FF"]])
    func refused(arguments: [String]) async throws {
        let db = folder.path + "/h.sqlite"
        try DrinkHistory(path: db).bottles.save(Self.bottle)
        let run = try await runBridge(["log", "drink"] + arguments + ["--db", db])
        #expect(run.status == 2, "\(run)")
        #expect(run.err.split(separator: "\n").count == 1 && run.err.hasPrefix("aquavate-bridge log drink: "), "\(run.err)")
        #expect(try DrinkHistory(path: db).drinks.drinkCount() == 0)
    }
}
