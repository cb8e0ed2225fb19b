// The household state of a history written by the released bridge (HistoryTests'
// Fixtures/release-history.sqlite) survives the upgrade as the household reads it: the replay
// guard restored from it judges an older stamp of a saved sender and topic a replay, and holds
// every stamp and judged digest the release saved (Fixtures/release-history.expected); the start
// count goes on from the saved one; the drops are the saved ones.

import Foundation
import History
@testable import Household
@testable import MQTT
import Testing
import Timekeeping

@Suite("the released history's household state is the household's after the upgrade")
struct ReleaseHouseholdStateTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("HistoryTests/Fixtures")

    /// The release's document `name`, parsed.
    func document(_ name: String) throws -> [String: Any] {
        let expected = try String(contentsOf: Self.fixtures.appendingPathComponent("release-history.expected"), encoding: .utf8)
        let line = try #require(expected.split(separator: "\n").first { $0.hasPrefix("engine|\(name)|") })
        let json = line.split(separator: "|", maxSplits: 2)[2]
        return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    @Test("the replay stamps, the judged digests, the start count and the drops survive")
    func survives() throws {
        let folder = NSTemporaryDirectory() + "release-household-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/h.sqlite"
        try FileManager.default.copyItem(atPath: Self.fixtures.appendingPathComponent("release-history.sqlite").path, toPath: path)
        let history = try DrinkHistory(path: path)

        let replay = try document("household-replay")
        let marks = try #require(replay["marks"] as? [String: [String: Any]])
        let restored = HouseholdReplayGuard(saved: HouseholdReplayState(try history.household.replay()))
        let state = restored.saved.state
        #expect(Set(state.marks.keys) == Set(marks.keys))
        for (mark, stamp) in marks {
            #expect(state.marks[mark]?.boot == (stamp["boot"] as? NSNumber)?.uint64Value, "\(mark)")
            #expect(state.marks[mark]?.sequence == (stamp["sequence"] as? NSNumber)?.uint64Value, "\(mark)")
        }
        #expect(state.judged == replay["judged"] as? [String])
        // A saved stamp is a floor: one older from the same sender on the same topic is a replay.
        let (key, stamp) = try #require(marks.first { ($0.value["boot"] as? NSNumber)?.uint64Value ?? 0 > 0 })
        let sender = String(key.prefix { $0 != " " }), topic = String(key.drop { $0 != " " }.dropFirst())
        let older = HouseholdStamp(sender: sender, boot: (stamp["boot"] as! NSNumber).uint64Value - 1, sequence: 0,
                                   time: WallInstant(secondsSince1970: 1))
        #expect(restored.judge(older, topic: topic) == .replayed)

        let boot = try #require((try document("household-sender"))["boot"] as? NSNumber).uint64Value
        #expect(try HouseholdMembership.nextBoot(history, now: WallInstant(secondsSince1970: 0)) == boot + 1)
        let drops = try #require((try document("household-dropped"))["dropped"] as? [String: Int])
        #expect(HouseholdMembership.drops(history).map { ($0.key.rawValue, $0.value) }.sorted { $0.0 < $1.0 }.map { "\($0.0)=\($0.1)" }
                == drops.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" })
    }
}
