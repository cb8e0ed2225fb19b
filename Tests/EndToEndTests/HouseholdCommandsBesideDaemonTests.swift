// The commands a person runs beside a running bridge, on the broker of docs/household.md ("The
// second wall": `use_username_as_clientid`, where a login has one connection): `doctor`, `notify
// test` and `bottle forget` open no connection under the daemon's logins, which would close the
// daemon's (mosquitto: "already connected, closing old connection") and have its will tell Home
// Assistant the bridge is offline. Each still does its job: doctor reads what the daemon heard,
// the test notification goes through the other sinks, and the running daemon withdraws the
// forgotten bottle's reminds entry through its own connection.

import BusTestSupport
import Foundation
@testable import Household
import Locking
import Logging
@testable import MQTT
import TestFixtures
import Testing

@Suite("commands beside a running bridge on a broker that gives a login one connection", .serialized)
struct HouseholdCommandsBesideDaemonTests {
    /// A client of the broker logged in as `user` (password `pw-<user>`), recording what it hears on `topics`.
    func listener(_ user: String, port: Int, topics: [String], heard: Locked<[MosquittoClient.Message]>) throws -> MosquittoClient {
        let client = try MosquittoClient(
            options: .init(broker: MQTTBrokerURL(parsing: "mqtt://\(user):pw-\(user)@127.0.0.1:\(port)"), reconnectDelay: 0.1...0.5),
            handlers: .init(connected: { client in for topic in topics { try? client.subscribe(topic) } },
                            message: { _, message in heard.withLock { $0.append(message) } }),
            logger: Logger(label: user) { _ in SwiftLogNoOpLogHandler() })
        client.start()
        return client
    }

    @Test("doctor, notify test and bottle forget leave the daemon's connections alone, and each does its job")
    func commandsBesideTheDaemon() async throws {
        // A reader of the household's topics, to see the withdrawal on the wire (not a member: no key).
        let observer = "user observer\ntopic read aquavate/household/#\n"
        try await HouseholdOfTwo.run(kitchenRecords: 3, officeRecords: 4, anonymous: false,
                                     brokerSettings: { try await HouseholdBrokerLogins.settings($0, extraACL: observer, extraUsers: ["observer"]) },
                                     url: HouseholdBrokerLogins.url, prepare: HouseholdBrokerLogins.setHouseholdLogins) { kitchen, office, port, _ in
            @Sendable func brokerLog() -> String { kitchen.bus.log("mosquitto") }
            let availability = Locked<[MosquittoClient.Message]>([])
            let homeAssistant = try listener("homeassistant", port: port, topics: ["aquavate/bridge/+/availability"], heard: availability)
            let reminds = Locked<[MosquittoClient.Message]>([])
            let reader = try listener("observer", port: port, topics: ["aquavate/household/reminds/+/kitchen"], heard: reminds)
            @Sendable func kitchenSaid() -> [String] {
                availability.withLock { $0.filter { $0.topic == "aquavate/bridge/kitchen/availability" }.map { String(decoding: $0.payload, as: UTF8.self) } }
            }
            /// The kitchen's reminds entries as last heard, by topic: true while it runs the bottle's reminders.
            @Sendable func kitchenReminds() -> [String: Bool] {
                var entries: [String: Bool] = [:]
                for message in reminds.withLock({ $0 }) {
                    guard case .success(let opened) = HouseholdSeal.open(topic: message.topic, payload: message.payload, key: HouseholdTestKey.key),
                          opened.stamp.sender == "kitchen" else { continue }
                    entries[message.topic] = opened.body == Array("1".utf8)
                }
                return entries
            }
            try await waitUntil(.seconds(30), "Home Assistant's user to hear the kitchen online, and the kitchen to run its bottle's reminders") {
                kitchenSaid().last == "online" && kitchenReminds().values.contains(true)
            }
            let pid = kitchen.process.processIdentifier
            let settings = ["--db", kitchen.db, "--set", "mqtt.url=\(HouseholdBrokerLogins.url("kitchen", port))", "--set", "bridge.id=kitchen",
                            "--set", "desktop.enabled=false"] + HouseholdTestKey.option

            // doctor: what the running bridge heard, not a question of its own under kitchen-ha.
            let doctor = try await runTool(LiveCommandTests.bridge, ["doctor", "--timeout", "3"] + settings,
                                           environment: kitchen.bus.environment, timeout: .seconds(60))
            #expect(doctor.output.contains("not asked from here: the running bridge (PID \(pid)) holds this bridge's broker logins; "
                                           + "it has heard 1 other member(s): office"), "\(doctor)")
            #expect(doctor.output.contains("the household link logs in as kitchen, apart from Home Assistant's connection (kitchen-ha)"), "\(doctor)")

            // notify test: every sink but Home Assistant's, which the running bridge holds.
            let notify = try await runTool(LiveCommandTests.bridge, ["notify", "test", "--wait", "5"] + settings,
                                           environment: kitchen.bus.environment, timeout: .seconds(60))
            #expect(notify.status == 0, "\(notify)")
            #expect(notify.output.contains("mqtt: not tried from here: the running bridge (PID \(pid)) holds mqtt.url's connection"), "\(notify)")
            #expect(notify.output.contains("journal: delivered"), "\(notify)")

            // bottle forget: the running bridge withdraws the entry through its own connection.
            let forget = try await runTool(LiveCommandTests.bridge, ["bottle", "forget", HouseholdLiveTests.kitchenSerial] + settings,
                                           environment: kitchen.bus.environment, timeout: .seconds(60))
            #expect(forget.status == 0, "\(forget)")
            #expect(forget.output.contains("the running bridge (PID \(pid)) withdraws kitchen's reminds entry for it from the household within 10 s"),
                    "\(forget)")
            try await waitUntil(.seconds(30), "the kitchen's reminds entry withdrawn on the broker") {
                !kitchenReminds().isEmpty && !kitchenReminds().values.contains(true)
            }
            #expect(kitchen.bus.log("kitchen").contains("household: kitchen no longer reminds for bottle"))
            // Still in range and advertising, the forgotten bottle is not adopted again as "the first
            // bottle seen" (which would sync it and say its reminds entry again).
            try await waitUntil(.seconds(30), "the kitchen to pass the forgotten bottle by at its next advertisement") {
                kitchen.bus.log("kitchen").contains("): forgotten (bottle forget); --adopt takes it")
            }
            #expect(!kitchenReminds().values.contains(true), "\(kitchenReminds())")

            // None of it took a connection's place, and Home Assistant never heard the kitchen offline.
            #expect(!brokerLog().contains("already connected, closing old connection"), "\(brokerLog().suffix(3000))")
            #expect(!kitchenSaid().contains("offline"), "\(kitchenSaid())")
            #expect(!office.bus.log("office").contains("bridge kitchen is offline"))
            await homeAssistant.stop()
            await reader.stop()
        }
    }
}
