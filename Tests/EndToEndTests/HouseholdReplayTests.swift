// The household's replay guard across a member's restart, as an attacker on the broker would try
// it: the kitchen's signed `alive … offline` of an earlier connection, captured and republished
// retained while the kitchen runs again, must not make a member that starts afterwards believe the
// kitchen offline (and pass its reminders on). The member saved the newest stamp it heard of the
// kitchen on that topic (docs/household.md, "What every household message carries"), so the
// capture is a replay. (That a retained message is counted once, however often the broker sends
// it again, is HouseholdReplayGuardTests'.)

import BusTestSupport
import Foundation
import History
import Locking
import Logging
@testable import MQTT
import ProcessSupport
import TestFixtures
import Testing

@Suite("the household's replay guard across a restart", .serialized)
struct HouseholdReplayTests {
    let attack = HouseholdAttackTests()

    /// The stamp (`boot.sequence`) in a signed payload's header.
    func stamp(_ payload: [UInt8]) -> (boot: UInt64, sequence: UInt64)? {
        let header = String(decoding: payload.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self).split(separator: " ")
        guard header.count == 5 else { return nil }
        let counters = header[2].split(separator: ".")
        guard counters.count == 2, let boot = UInt64(counters[0]), let sequence = UInt64(counters[1]) else { return nil }
        return (boot, sequence)
    }

    /// The boot of the kitchen's newest `alive` stamp a history saved (0: none).
    func savedKitchenBoot(_ db: String) -> UInt64 {
        guard let history = try? DrinkHistory(path: db), let saved = try? history.household.replay(),
              let mark = saved.marks.first(where: { $0.sender == "kitchen" && $0.topic == "aquavate/household/alive/kitchen" }) else { return 0 }
        return mark.boot
    }

    @Test("a captured alive … offline republished retained is not believed by a member started again while its sender runs")
    func capturedOfflineAfterARestart() async throws {
        try await HouseholdOfTwo.run { kitchen, office, port, _ in
            let url = "mqtt://127.0.0.1:\(port)"
            let topic = "aquavate/household/alive/kitchen"
            let heard = Locked<[MosquittoClient.Message]>([])
            let stranger = try MosquittoClient(
                options: .init(broker: MQTTBrokerURL(parsing: url), reconnectDelay: 0.1...0.5),
                handlers: .init(connected: { client in try? client.subscribe(topic) },
                                message: { _, message in heard.withLock { $0.append(message) } }),
                logger: Logger(label: "stranger") { _ in SwiftLogNoOpLogHandler() })
            stranger.start()
            #expect(await stranger.waitUntilConnected(within: .seconds(10)))
            @Sendable func offline() -> MosquittoClient.Message? {
                heard.withLock { $0.last { $0.text.hasSuffix("\noffline") } }
            }
            // The kitchen stops: its signed `offline`, captured.
            kitchen.process.send(SIGTERM)
            _ = await kitchen.process.waitForExit(timeout: .seconds(20))
            try await waitUntil(.seconds(20), "the kitchen's offline to be captured") { offline() != nil }
            let capture = try #require(offline())
            let capturedBoot = try #require(stamp(capture.payload)).boot
            // It starts again (a newer boot), and the office hears it and saves what it heard.
            let again = try HouseholdOfTwo.daemon(kitchen.bus, db: kitchen.db, id: "kitchen", url: url, logName: "kitchen-again")
            defer { again.killNow() }
            try await waitUntil(.seconds(40), "the office to save the kitchen's new online (\(savedKitchenBoot(office.db)))") {
                savedKitchenBoot(office.db) > capturedBoot
            }
            // The office stops; the stranger puts the capture back as the retained alive/kitchen.
            office.process.send(SIGTERM)
            _ = await office.process.waitForExit(timeout: .seconds(20))
            try stranger.publish(.init(topic: topic, payload: capture.payload, retain: true))
            // The office starts again and hears the retained capture at its subscription.
            let officeAgain = try HouseholdOfTwo.daemon(office.bus, db: office.db, id: "office", url: url, logName: "office-again")
            defer { officeAgain.killNow() }
            try await waitUntil(.seconds(40), "the office to drop the capture as a replay (\(attack.dropped(office.db)))") {
                (attack.dropped(office.db)["replayed"] ?? 0) >= 1
            }
            #expect(!office.bus.log("office-again").contains("bridge kitchen is offline"),
                    "the capture was believed: \(office.bus.log("office-again").suffix(2000))")
            #expect(again.isRunning, "the kitchen runs all along")
            await stranger.stop()
        }
    }
}
