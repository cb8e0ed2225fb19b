// The household against a stranger on its broker, as attacks on the real thing: two
// `aquavate-bridge run` daemons (a kitchen and an office, each with its own private bus and
// simulated bottle) in one household on a real mosquitto, and a client of that broker without the
// key (a libmosquitto client, as any phone app or plug on a home broker could be). Each attack
// worked on the code before the household key: forged drinks, deletions and ids stored, a 100 MB
// message copied into every bridge, a forged hold stopping a room's syncs, forged syncer and
// deliveries silencing reminders, a 30-byte hello republishing a whole history, and 200,000 topics
// growing a bridge by 43 MB. Then the broker's own wall: each bridge its user, an ACL letting it
// write only its own topics (docs/examples/mosquitto-household.acl; docs/household.md, "The second
// wall").

import BusTestSupport
import Foundation
import History
@testable import Household
import Locking
import Logging
@testable import MQTT
import ProcessSupport
@testable import Settings
@testable import Sinks
import TestFixtures
import Testing
import Timekeeping

@Suite("the household against a stranger on its broker", .serialized)
struct HouseholdAttackTests {
    static let kitchenSerial = HouseholdLiveTests.kitchenSerial
    static let officeAddress = HouseholdLiveTests.officeAddress
    static let officeSerial = HouseholdLiveTests.officeSerial

    /// A client of the broker: anonymous, or logged in with `user:password@` in `url`.
    func client(_ url: String, heard: Locked<[MosquittoClient.Message]>? = nil) throws -> MosquittoClient {
        let client = try MosquittoClient(
            options: .init(broker: MQTTBrokerURL(parsing: url), reconnectDelay: 0.1...0.5),
            handlers: .init(
                connected: { client in if heard != nil { try? client.subscribe("aquavate/household/#") } },
                message: { _, message in heard?.withLock { $0.append(message) } }),
            logger: Logger(label: "stranger") { _ in SwiftLogNoOpLogHandler() })
        client.start()
        return client
    }

    /// The drops a daemon saved in its history (every 10 s when they changed).
    func dropped(_ db: String) -> [String: Int] {
        guard let history = try? DrinkHistory(path: db), let drops = try? history.household.drops() else { return [:] }
        return drops
    }

    func total(_ db: String) -> Int { dropped(db).values.reduce(0, +) }

    /// (bottle#record) → (amount, deleted) of every drink in a history.
    func drinks(_ db: String) -> [String: (amount: Int, deleted: Bool)] {
        guard let history = try? DrinkHistory(path: db), let stored = try? history.drinks.storedDrinks() else { return [:] }
        return Dictionary(stored.map { ("\($0.bottle)#\($0.recordID)", ($0.amountML, $0.deleted)) }, uniquingKeysWith: { a, _ in a })
    }

    /// A process's resident memory (or its peak, `VmHWM`) in kB, from /proc.
    func memory(_ process: ChildProcess, _ field: String = "VmRSS") -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }) else { return -1 }
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
    }

    func drinkJSON(bottle: String, record: Int, timestamp: Int, amount: Int = 1000, deleted: Bool = false) -> String {
        #"{"bottle":"\#(bottle)","record_id":\#(record),"timestamp":\#(timestamp),"amount_ml":\#(amount),"bottle_level_ml":100,"type_raw":0,"flags_raw":0,"deleted":\#(deleted)}"#
    }

    @Test("forged drinks, deletions and ids, a forged syncer and deliveries, and a hello flood change nothing, and are counted")
    func forgedMessages() async throws {
        try await HouseholdOfTwo.run { kitchen, office, port, _ in
            let before = (kitchen: drinks(kitchen.db), office: drinks(office.db))
            let kitchenDrink = try #require(try DrinkHistory(path: kitchen.db).drinks.storedDrinks(bottle: Self.kitchenSerial).first)
            let heard = Locked<[MosquittoClient.Message]>([])
            let stranger = try client("mqtt://127.0.0.1:\(port)", heard: heard)
            #expect(await stranger.waitUntilConnected(within: .seconds(10)))
            let base = "aquavate/household"
            let now = Int(Date().timeIntervalSince1970)
            // A stranger's forgeries: a new member "evil" with 1000 ml; the office "deleting" the
            // kitchen's first drink; the office's bottle "restarting" its ids; a syncer and a
            // delivery under a bridge that does not exist; ten hellos under ten names.
            var forged: [MosquittoClient.Message] = [
                .init(topic: "\(base)/drink/evil", text: drinkJSON(bottle: Self.kitchenSerial, record: 900, timestamp: now - 60)),
                .init(topic: "\(base)/drink/office", text: drinkJSON(bottle: Self.kitchenSerial, record: Int(kitchenDrink.recordID),
                                                                     timestamp: Int(kitchenDrink.timestamp), amount: Int(kitchenDrink.amountML),
                                                                     deleted: true)),
                .init(topic: "\(base)/drink/office", text: drinkJSON(bottle: Self.officeSerial, record: 1, timestamp: now - 30)),
                .init(topic: "\(base)/syncer/f412fa00a3f2", text: #"{"bridge":"ghost","time":"\#(now + 3600)"}"#, retain: true),
                .init(topic: "\(base)/alive/ghost", text: "online", retain: true),
                .init(topic: "\(base)/delivered/ghost", text: #"{"bottle":"\#(Self.kitchenSerial)","id":"hydration-1","kind":"hydration","time":"\#(now)"}"#),
            ]
            forged += (0..<10).map { .init(topic: "\(base)/hello/h\($0)", text: #"{"epoch":"e\#($0)"}"#, retain: true) }
            // A message signed with another key is a stranger's too.
            let otherKey = try #require(HouseholdKey(base64: HouseholdKey.generate()))
            let alien = HouseholdSeal.seal(topic: "\(base)/drink/office", body: Array(drinkJSON(bottle: Self.officeSerial, record: 2, timestamp: now - 20).utf8),
                                           stamp: .init(sender: "office", boot: UInt64.max / 2, sequence: 0, time: WallInstant(secondsSince1970: Double(now))), key: otherKey)
            forged.append(.init(topic: "\(base)/drink/office", payload: alien))
            func hellosAnswered() -> Int {
                (kitchen.bus.log("kitchen") + office.bus.log("office")).components(separatedBy: "said hello").count
            }
            let answeredBefore = hellosAnswered()
            for message in forged { try stranger.publish(message) }
            let sent = forged.count

            // Each bridge hears every forgery (its own topics' too) and drops it, counted; the
            // counts reach the history within the 10 s kick.
            try await waitUntil(.seconds(30), "both daemons to count the \(sent) forgeries (\(dropped(kitchen.db)), \(dropped(office.db)))") {
                total(kitchen.db) >= sent && total(office.db) >= sent
            }
            #expect(drinks(kitchen.db).mapValues(\.deleted) == before.kitchen.mapValues(\.deleted), "no drink added or deleted in the kitchen")
            #expect(drinks(office.db).mapValues(\.deleted) == before.office.mapValues(\.deleted), "nor in the office")
            #expect(drinks(kitchen.db)["\(Self.kitchenSerial)#900"] == nil, "the stranger's 1000 ml drink is not stored")
            let kept = try DrinkHistory(path: kitchen.db).household.deliveries(since: .epoch)
            // The office may really deliver a reminder meanwhile (its reminders run on the real
            // clock): that one is kept, rightly. The ghost's is not, nor any but a member's.
            #expect(kept.allSatisfy { $0.origin == "office" }, "no forged delivery kept: \(kept)")
            #expect((dropped(kitchen.db)["unsigned"] ?? 0) >= sent - 1 && (dropped(kitchen.db)["forged"] ?? 0) >= 1,
                    "\(dropped(kitchen.db))")
            // No hello answered: nothing was republished (the bridges' own drinks went long before).
            #expect(hellosAnswered() == answeredBefore, "no forged hello answered (each republished a whole history)")
            // `doctor` reads the count.
            let doctor = try await runTool(LiveCommandTests.bridge, ["doctor", "--db", kitchen.db, "--set", "mqtt.url=mqtt://127.0.0.1:\(port)",
                                                                     "--set", "bridge.id=kitchen"] + HouseholdTestKey.option,
                                           environment: kitchen.bus.environment, timeout: .seconds(60))
            #expect(doctor.output.contains("household message(s) were dropped (") && doctor.output.contains("unsigned "), "\(doctor.output)")
            await stranger.stop()
        }
    }

    @Test("the command topic obeys only Home Assistant's controls by default: a stranger's delete of a record id is refused, answered with its reason and counted")
    func strangersDeleteIsRefused() async throws {
        try await HouseholdOfTwo.run { kitchen, office, port, _ in
            let before = (kitchen: drinks(kitchen.db), office: drinks(office.db))
            #expect(before.office["\(Self.officeSerial)#7"]?.deleted == false)
            let heard = Locked<[MosquittoClient.Message]>([])
            let topics = MQTTTopics(bottleID: MQTTTopics.bottleID(fromAddress: Self.officeAddress))
            let stranger = try MosquittoClient(
                options: .init(broker: MQTTBrokerURL(parsing: "mqtt://127.0.0.1:\(port)"), reconnectDelay: 0.1...0.5),
                handlers: .init(connected: { client in
                                    try? client.subscribe(topics.commandResult)
                                    try? client.subscribe("aquavate/bridge/office/availability")
                                },
                                message: { _, message in heard.withLock { $0.append(message) } }),
                logger: Logger(label: "stranger") { _ in SwiftLogNoOpLogHandler() })
            stranger.start()
            #expect(await stranger.waitUntilConnected(within: .seconds(10)))
            // The retained availability comes after both subscriptions took effect.
            try await waitUntil(.seconds(20), "the office's retained availability") { heard.withLock { !$0.isEmpty } }
            // The bottle's id is its address, which the retained topics show to every client.
            try stranger.publish(.init(topic: topics.command, text: "{\"delete\":7}"))
            try await waitUntil(.seconds(20), "the answer") { heard.withLock { $0.contains { $0.topic == topics.commandResult } } }
            let answers = heard.withLock { $0.filter { $0.topic == topics.commandResult } }.compactMap { try? JSONSerialization.jsonObject(with: Data($0.payload)) as? [String: Any] }
            #expect(answers.allSatisfy { $0["status"] as? String == "refused" && $0["reason"] as? String == "not_permitted" }, "\(answers)")
            // Counted in the history, where /metrics reads it.
            try await waitUntil(.seconds(30), "the refusal to be counted") {
                (try DrinkHistory(path: office.db).commands.refused()["not_permitted"] ?? 0) >= 1
            }
            // Nothing queued, nothing deleted, in either history.
            #expect(try DrinkHistory(path: office.db).commands.all().isEmpty)
            #expect(drinks(office.db).mapValues(\.deleted) == before.office.mapValues(\.deleted))
            #expect(drinks(kitchen.db).mapValues(\.deleted) == before.kitchen.mapValues(\.deleted))
            #expect(office.bus.log("office").contains("MQTT: refused command bottle delete"))
            await stranger.stop()
        }
    }

    @Test("a forged retained hold under a bridge that never existed does not keep a room from syncing")
    func forgedHold() async throws {
        try await HouseholdOfTwo.run { kitchen, _, port, _ in
            let stranger = try client("mqtt://127.0.0.1:\(port)")
            #expect(await stranger.waitUntilConnected(within: .seconds(10)))
            let base = "aquavate/household"
            for bottle in ["f412fa00a3f2", "f412fa00a3f4"] {
                try stranger.publish(.init(topic: "\(base)/claim/\(bottle)/ghost", text: #"{"phase":"hold","rssi":20}"#, retain: true))
            }
            try stranger.publish(.init(topic: "\(base)/alive/ghost", text: "online", retain: true))
            try await waitUntil(.seconds(30), "the kitchen to count the forged hold") { total(kitchen.db) >= 3 }
            // A new drink in the kitchen's bottle: the kitchen syncs it (the forged hold counted
            // 180 s and was renewed at will before).
            let added = try await runTool("/usr/bin/gdbus", ["call", "--system", "-d", "org.bluez", "-o", "/",
                                                             "-m", "org.aquavate.Simulator1.AddDrink", "250"],
                                          environment: kitchen.bus.environment, timeout: .seconds(10))
            #expect(added.status == 0, "\(added)")
            try await waitUntil(.seconds(40), "the kitchen to sync its new drink despite the forged hold") {
                (try? DrinkHistory(path: kitchen.db).drinks.storedDrinks(bottle: Self.kitchenSerial).count) == 6
            }
            #expect(!kitchen.bus.log("kitchen").contains("ghost has the stronger claim"))
            await stranger.stop()
        }
    }

    @Test("a 100 MB message and 100,000 retained topics of junk: the bridges' memory stays flat")
    func boundedByConstruction() async throws {
        // The broker queues every message for a slow bridge (its default drops beyond 1000): each must be counted.
        try await HouseholdOfTwo.run(brokerSettings: { _ in "max_queued_messages 0\n" }) { kitchen, office, port, _ in
            let stranger = try client("mqtt://127.0.0.1:\(port)")
            #expect(await stranger.waitUntilConnected(within: .seconds(10)))
            let base = "aquavate/household"
            let peak = (kitchen: memory(kitchen.process, "VmHWM"), office: memory(office.process, "VmHWM"))
            // The broker drops it for the bridges (MQTT 5 maximum packet size): nothing arrives.
            try stranger.publish(.init(topic: "\(base)/drink/evil", payload: [UInt8](repeating: UInt8(ascii: "x"), count: 100_000_000)))
            // Then a small one, which arrives after it if it arrived at all (one client, one order).
            try stranger.publish(.init(topic: "\(base)/drink/evil", text: "after"))
            try await waitUntil(.seconds(60), "both bridges to drop the message after the large one") {
                total(kitchen.db) >= 1 && total(office.db) >= 1
            }
            let grown = (kitchen: memory(kitchen.process, "VmHWM") - peak.kitchen, office: memory(office.process, "VmHWM") - peak.office)
            #expect(grown.kitchen < 20_000 && grown.office < 20_000, "peak memory grew by \(grown) kB (195 MB before)")

            // 100,000 retained topics of junk (claims, alive, delivered) in one burst.
            let resident = memory(kitchen.process)
            for index in 0..<100_000 {
                let topic: String
                switch index % 3 {
                case 0: topic = "\(base)/claim/b\(index)/x\(index)"
                case 1: topic = "\(base)/alive/x\(index)"
                default: topic = "\(base)/delivered/x\(index)"
                }
                try stranger.publish(.init(topic: topic, text: "{\"phase\":\"want\",\"rssi\":-50}", qos: 0, retain: true))
            }
            try stranger.publish(.init(topic: "\(base)/drink/evil", text: "last"))
            try await waitUntil(.seconds(240), "the kitchen to drop all 100,002 messages (\(total(kitchen.db)))") {
                total(kitchen.db) >= 100_002
            }
            let residentGrowth = memory(kitchen.process) - resident
            #expect(residentGrowth < 10_000, "resident memory grew by \(residentGrowth) kB for 100,000 topics (43 MB for 200,000 before)")
            await stranger.stop()
        }
    }

    @Test("the broker's ACL as documented (use_username_as_clientid, two logins per bridge): the household converges, Home Assistant works, no other user takes a member's session or writes its topics")
    func brokerACL() async throws {
        try await HouseholdOfTwo.run(kitchenRecords: 3, officeRecords: 4, anonymous: false,
                                     brokerSettings: { try await HouseholdBrokerLogins.settings($0) }, url: HouseholdBrokerLogins.url,
                                     prepare: HouseholdBrokerLogins.setHouseholdLogins) { kitchen, office, port, _ in
            let kitchenDB = kitchen.db, officeDB = office.db
            @Sendable func brokerLog() -> String { kitchen.bus.log("mosquitto") }
            // Home Assistant's user hears both bridges online and the kitchen's bottle's
            // state (each bridge's Home Assistant login writes them), and reads none of the
            // household's topics (the retained alive, syncer and reminds messages are there).
            let heard = Locked<[MosquittoClient.Message]>([])
            // It asks for the kitchen's household session by its client id: the broker
            // names the connection by its login instead.
            let homeAssistant = try MosquittoClient(
                options: .init(broker: MQTTBrokerURL(parsing: "mqtt://homeassistant:pw-homeassistant@127.0.0.1:\(port)"),
                               clientID: HouseholdMembership.sessionClientID(bridgeID: "kitchen", key: HouseholdTestKey.key),
                               reconnectDelay: 0.1...0.5, cleanSession: false),
                handlers: .init(connected: { client in
                                    try? client.subscribe("aquavate/household/#")
                                    try? client.subscribe("aquavate/bridge/+/availability")
                                    try? client.subscribe("aquavate/+/state")
                                },
                                message: { _, message in heard.withLock { $0.append(message) } }),
                logger: Logger(label: "homeassistant") { _ in SwiftLogNoOpLogHandler() })
            homeAssistant.start()
            @Sendable func online(_ bridge: String) -> Bool {
                heard.withLock { $0.last { $0.topic == "aquavate/bridge/\(bridge)/availability" }.map { String(decoding: $0.payload, as: UTF8.self) } } == "online"
            }
            try await waitUntil(.seconds(30), "Home Assistant's user to hear both bridges online and the kitchen's bottle's state") {
                online("kitchen") && online("office") && heard.withLock { $0.contains { $0.topic == "aquavate/f412fa00a3f4/state" } }
            }
            // Signed with the key (a member's file stolen), on the kitchen's topic: the broker refuses it.
            let topic = "aquavate/household/drink/kitchen"
            let now = Date().timeIntervalSince1970
            let body = Array(drinkJSON(bottle: HouseholdLiveTests.kitchenSerial, record: 77, timestamp: Int(now) - 10).utf8)
            try homeAssistant.publish(.init(topic: topic, payload: HouseholdSeal.seal(
                topic: topic, body: body, stamp: .init(sender: "kitchen", boot: UInt64.max / 2, sequence: 0, time: WallInstant(secondsSince1970: now)),
                key: HouseholdTestKey.key)))
            try await waitUntil(.seconds(30), "the broker to deny Home Assistant's user the kitchen's topic") {
                brokerLog().contains("Denied PUBLISH from homeassistant")
            }
            #expect(brokerLog().contains("as homeassistant ("), "the broker named the connection by its login: \(brokerLog().suffix(3000))")
            #expect(!brokerLog().contains("already connected, closing old connection"),
                    "no connection took another's place (the kitchen's household session, or any bridge's): \(brokerLog().suffix(3000))")
            #expect(!office.bus.log("office").contains("bridge kitchen is offline"), "the kitchen's will was never published")
            #expect(drinks(kitchenDB)["\(HouseholdLiveTests.kitchenSerial)#77"] == nil && drinks(officeDB)["\(HouseholdLiveTests.kitchenSerial)#77"] == nil)
            #expect(heard.withLock { $0.filter { $0.topic.hasPrefix("aquavate/household/") } }.isEmpty,
                    "Home Assistant's user read the household's topics")
            await homeAssistant.stop()
            // An anonymous client is not let in at all.
            let anonymous = try client("mqtt://127.0.0.1:\(port)")
            #expect(await anonymous.waitUntilConnected(within: .seconds(2)) == false)
            await anonymous.stop()
            // The household still converges: a new drink in the office reaches the kitchen.
            let added = try await runTool("/usr/bin/gdbus", ["call", "--system", "-d", "org.bluez", "-o", "/",
                                                             "-m", "org.aquavate.Simulator1.AddDrink", "250"],
                                          environment: office.bus.environment, timeout: .seconds(10))
            #expect(added.status == 0, "\(added)")
            try await waitUntil(.seconds(60), "the office's new drink to reach the kitchen") {
                drinks(kitchenDB).count == 8 && drinks(officeDB).count == 8
            }
            // doctor, as the kitchen's settings say: anonymous clients refused, the household's own login.
            let doctor = try await runTool(LiveCommandTests.bridge, ["doctor", "--db", kitchenDB, "--set", "mqtt.url=mqtt://kitchen-ha:pw-kitchen-ha@127.0.0.1:\(port)",
                                                                     "--set", "bridge.id=kitchen"] + HouseholdTestKey.option,
                                           environment: kitchen.bus.environment, timeout: .seconds(60))
            #expect(doctor.output.contains("a client without a login is refused by the broker"), "\(doctor.output)")
            #expect(doctor.output.contains("the household link logs in as kitchen, apart from Home Assistant's connection (kitchen-ha)"), "\(doctor.output)")
            print("DOCTOR:\n\(doctor.output)\nMOSQUITTO:\n\(brokerLog().suffix(3000))")
        }
    }
}
