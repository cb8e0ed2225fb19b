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

    func daemon(_ bus: PrivateBus, db: String, id: String, url: String) throws -> ChildProcess {
        try bus.spawn(LiveCommandTests.bridge, [
            "run", "--db", db, "--cooldown", "1", "--failure-pause", "1", "--set", "mqtt.url=\(url)", "--set", "bridge.id=\(id)",
            "--set", "desktop.enabled=false",
        ] + HouseholdTestKey.option, logName: id)
    }

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
        guard let history = try? DrinkHistory(path: db), let stored = try? history.storedDrinks() else { return [:] }
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

    /// Two members converged on their 12 drinks (5 kitchen, 7 office), then `body`.
    func withHousehold(brokerSettings: String = "", _ body: (_ kitchen: (bus: PrivateBus, db: String, process: ChildProcess),
                                _ office: (bus: PrivateBus, db: String, process: ChildProcess), _ port: Int, _ folder: TemporaryFolder) async throws -> Void)
        async throws {
        try await withPrivateBus { kitchenBus in
            try await withPrivateBus { officeBus in
                let folder = TemporaryFolder()
                let live = LiveCommandTests()
                try await live.startSimulator(on: kitchenBus, folder: folder, records: 5, name: "kitchen-sim")
                try await live.startSimulator(on: officeBus, folder: folder, records: 7, arguments: ["--address", Self.officeAddress],
                                              name: "office-sim")
                let port = try freeTCPPort()
                let broker = try startMosquitto(on: kitchenBus, in: folder, port: port, settings: brokerSettings)
                defer { broker.killNow() }
                let kitchenDB = folder.path + "/kitchen.sqlite", officeDB = folder.path + "/office.sqlite"
                for path in [kitchenDB, officeDB] { _ = try DrinkHistory(path: path) }
                let url = "mqtt://127.0.0.1:\(port)"
                let kitchen = try daemon(kitchenBus, db: kitchenDB, id: "kitchen", url: url)
                let office = try daemon(officeBus, db: officeDB, id: "office", url: url)
                defer { kitchen.killNow(); office.killNow() }
                do {
                    try await waitUntil(.seconds(60), "both histories to hold all 12 drinks") {
                        drinks(kitchenDB).count == 12 && drinks(officeDB).count == 12
                    }
                    try await body((kitchenBus, kitchenDB, kitchen), (officeBus, officeDB, office), port, folder)
                } catch {
                    Issue.record("KITCHEN:\n\(kitchenBus.log("kitchen").suffix(4000))\nOFFICE:\n\(officeBus.log("office").suffix(4000))")
                    throw error
                }
                kitchen.send(SIGTERM)
                office.send(SIGTERM)
                _ = await kitchen.waitForExit(timeout: .seconds(20))
                _ = await office.waitForExit(timeout: .seconds(20))
            }
        }
    }

    @Test("forged drinks, deletions and ids, a forged syncer and deliveries, and a hello flood change nothing, and are counted")
    func forgedMessages() async throws {
        try await withHousehold { kitchen, office, port, _ in
            let before = (kitchen: drinks(kitchen.db), office: drinks(office.db))
            let kitchenDrink = try #require(try DrinkHistory(path: kitchen.db).storedDrinks(bottle: Self.kitchenSerial).first)
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
        try await withHousehold { kitchen, office, port, _ in
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
                (try DrinkHistory(path: office.db).refusedCommands()["not_permitted"] ?? 0) >= 1
            }
            // Nothing queued, nothing deleted, in either history.
            #expect(try DrinkHistory(path: office.db).commands().isEmpty)
            #expect(drinks(office.db).mapValues(\.deleted) == before.office.mapValues(\.deleted))
            #expect(drinks(kitchen.db).mapValues(\.deleted) == before.kitchen.mapValues(\.deleted))
            #expect(office.bus.log("office").contains("MQTT: refused command bottle delete"))
            await stranger.stop()
        }
    }

    @Test("a forged retained hold under a bridge that never existed does not keep a room from syncing")
    func forgedHold() async throws {
        try await withHousehold { kitchen, _, port, _ in
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
                (try? DrinkHistory(path: kitchen.db).storedDrinks(bottle: Self.kitchenSerial).count) == 6
            }
            #expect(!kitchen.bus.log("kitchen").contains("ghost has the stronger claim"))
            await stranger.stop()
        }
    }

    @Test("a 100 MB message and 100,000 retained topics of junk: the bridges' memory stays flat")
    func boundedByConstruction() async throws {
        // The broker queues every message for a slow bridge (its default drops beyond 1000): each must be counted.
        try await withHousehold(brokerSettings: "max_queued_messages 0\n") { kitchen, office, port, _ in
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

    @Test("the broker's ACL: each bridge writes only its own topics, even with a valid signature; two bridges with users converge")
    func brokerACL() async throws {
        try await withPrivateBus { kitchenBus in
            try await withPrivateBus { officeBus in
                let folder = TemporaryFolder()
                let live = LiveCommandTests()
                try await live.startSimulator(on: kitchenBus, folder: folder, records: 3, name: "kitchen-sim")
                try await live.startSimulator(on: officeBus, folder: folder, records: 4, arguments: ["--address", Self.officeAddress],
                                              name: "office-sim")
                // The shipped ACL, its users made with mosquitto_passwd.
                let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                    .appendingPathComponent("docs/examples/mosquitto-household.acl").path
                let acl = try String(contentsOfFile: source, encoding: .utf8)
                let aclPath = folder.write("aquavate.acl", acl)
                let passwords = folder.path + "/aquavate.passwd"
                #expect(FileManager.default.createFile(atPath: passwords, contents: Data()))
                for user in ["kitchen", "office", "homeassistant"] {
                    let made = try await runTool("/usr/bin/mosquitto_passwd", ["-b", passwords, user, "pw-\(user)"], timeout: .seconds(10))
                    #expect(made.status == 0, "\(made)")
                }
                let port = try freeTCPPort()
                let broker = try startMosquitto(on: kitchenBus, in: folder, port: port, anonymous: false, settings: "password_file \(passwords)\nacl_file \(aclPath)\n")
                defer { broker.killNow() }
                let kitchenDB = folder.path + "/kitchen.sqlite", officeDB = folder.path + "/office.sqlite"
                for path in [kitchenDB, officeDB] { _ = try DrinkHistory(path: path) }
                let kitchen = try daemon(kitchenBus, db: kitchenDB, id: "kitchen", url: "mqtt://kitchen:pw-kitchen@127.0.0.1:\(port)")
                let office = try daemon(officeBus, db: officeDB, id: "office", url: "mqtt://office:pw-office@127.0.0.1:\(port)")
                defer { kitchen.killNow(); office.killNow() }
                do {
                    try await waitUntil(.seconds(60), "both histories to hold all 7 drinks through the ACL") {
                        drinks(kitchenDB).count == 7 && drinks(officeDB).count == 7
                    }
                    // Logged in as the kitchen, with the key (a member gone bad, or its password
                    // stolen with its file): a drink signed as the office, on the office's topic.
                    let impostor = try client("mqtt://kitchen:pw-kitchen@127.0.0.1:\(port)")
                    #expect(await impostor.waitUntilConnected(within: .seconds(10)))
                    let topic = "aquavate/household/drink/office"
                    let now = Date().timeIntervalSince1970
                    let body = Array(drinkJSON(bottle: Self.officeSerial, record: 77, timestamp: Int(now) - 10).utf8)
                    try impostor.publish(.init(topic: topic, payload: HouseholdSeal.seal(
                        topic: topic, body: body, stamp: .init(sender: "office", boot: UInt64.max / 2, sequence: 0, time: WallInstant(secondsSince1970: now)),
                        key: HouseholdTestKey.key)))
                    // Then an unsigned message on a topic the kitchen's user may write: the
                    // office drops it (counted) after the broker handled the first, in order.
                    try impostor.publish(.init(topic: "aquavate/household/drink/kitchen", text: "after"))
                    try await waitUntil(.seconds(30), "both bridges to count the message after the impostor's") {
                        total(officeDB) >= 1 && total(kitchenDB) >= 1
                    }
                    #expect(drinks(kitchenDB)["\(Self.officeSerial)#77"] == nil && drinks(officeDB)["\(Self.officeSerial)#77"] == nil,
                            "the broker refused the kitchen's user the office's topic")
                    #expect(broker.isRunning)
                    await impostor.stop()
                    // Home Assistant's user reads the bridges' topics, not the household's (the
                    // retained alive, syncer and reminds messages are there): the retained
                    // availability comes after both subscriptions took effect.
                    let heard = Locked<[MosquittoClient.Message]>([])
                    let homeAssistant = try MosquittoClient(
                        options: .init(broker: MQTTBrokerURL(parsing: "mqtt://homeassistant:pw-homeassistant@127.0.0.1:\(port)"),
                                       reconnectDelay: 0.1...0.5),
                        handlers: .init(connected: { client in
                                            try? client.subscribe("aquavate/household/#")
                                            try? client.subscribe("aquavate/bridge/+/availability")
                                        },
                                        message: { _, message in heard.withLock { $0.append(message) } }),
                        logger: Logger(label: "homeassistant") { _ in SwiftLogNoOpLogHandler() })
                    homeAssistant.start()
                    try await waitUntil(.seconds(20), "Home Assistant's user to read the bridges' availability") {
                        heard.withLock { $0.contains { $0.topic.hasPrefix("aquavate/bridge/") } }
                    }
                    #expect(heard.withLock { $0.filter { $0.topic.hasPrefix("aquavate/household/") } }.isEmpty,
                            "Home Assistant's user read the household's topics")
                    await homeAssistant.stop()
                    // An anonymous client is not let in at all.
                    let anonymous = try client("mqtt://127.0.0.1:\(port)")
                    #expect(await anonymous.waitUntilConnected(within: .seconds(2)) == false)
                    await anonymous.stop()
                } catch {
                    Issue.record("KITCHEN:\n\(kitchenBus.log("kitchen").suffix(4000))\nOFFICE:\n\(officeBus.log("office").suffix(4000))\nMOSQUITTO:\n\(kitchenBus.log("mosquitto").suffix(2000))")
                    throw error
                }
                kitchen.send(SIGTERM)
                office.send(SIGTERM)
                _ = await kitchen.waitForExit(timeout: .seconds(20))
                _ = await office.waitForExit(timeout: .seconds(20))
            }
        }
    }
}
