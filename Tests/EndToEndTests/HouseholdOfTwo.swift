// Two bridges of a household as their users run them, the set-up the household's end-to-end
// suites share: a real mosquitto on a free port, and a kitchen and an office, each with its own
// private bus and `aquavate-sim` bottle, its history (made before any daemon starts: the tests
// read it while the daemon writes) and its `aquavate-bridge run` daemon in the household of the
// test key. `withParts` gives the parts before any daemon (a suite that starts them in its own
// order); `run` starts both daemons, waits until each history holds both bottles' drinks, runs
// the test, and records every log when it fails.

import BusTestSupport
import Foundation
import History
import ProcessSupport
import TestFixtures
import Testing

/// One bridge of the household: its private bus (its BlueZ and simulated bottle), its history, its daemon.
struct HouseholdBridge: Sendable {
    let id: String
    let bus: PrivateBus
    let db: String
    let process: ChildProcess
}

enum HouseholdOfTwo {
    /// The parts before any daemon.
    struct Parts {
        let kitchenBus: PrivateBus
        let officeBus: PrivateBus
        let folder: TemporaryFolder
        let port: Int
        let kitchenDB: String
        let officeDB: String

        /// The broker's own log (it runs on the kitchen's bus).
        var brokerLog: String { kitchenBus.log("mosquitto") }
    }

    /// `aquavate-bridge run` of one bridge of the household on the broker at `url`.
    static func daemon(_ bus: PrivateBus, db: String, id: String, url: String, logName: String? = nil) throws -> ChildProcess {
        try bus.spawn(LiveCommandTests.bridge, [
            "run", "--db", db, "--cooldown", "1", "--failure-pause", "1", "--set", "mqtt.url=\(url)", "--set", "bridge.id=\(id)",
            "--set", "desktop.enabled=false",
        ] + HouseholdTestKey.option, logName: logName ?? id)
    }

    /// The number of drinks in the history at `db`, deleted ones included (0 before the file exists).
    static func drinkCount(_ db: String) -> Int {
        guard FileManager.default.fileExists(atPath: db), let history = try? DrinkHistory(path: db),
              let stored = try? history.drinks.storedDrinks() else { return 0 }
        return stored.count
    }

    /// The two buses with their bottles (the kitchen's with `kitchenRecords` drinks, the office's
    /// at `HouseholdLiveTests.officeAddress` with `officeRecords`), a mosquitto with the lines
    /// `brokerSettings` makes in the folder (a password file, an ACL), and both histories.
    static func withParts(kitchenRecords: Int, officeRecords: Int, anonymous: Bool = true,
                          brokerSettings: (TemporaryFolder) async throws -> String = { _ in "" },
                          _ body: (Parts) async throws -> Void) async throws {
        try await withPrivateBus { kitchenBus in
            try await withPrivateBus { officeBus in
                let folder = TemporaryFolder()
                let live = LiveCommandTests()
                try await live.startSimulator(on: kitchenBus, folder: folder, records: kitchenRecords, name: "kitchen-sim")
                try await live.startSimulator(on: officeBus, folder: folder, records: officeRecords,
                                              arguments: ["--address", HouseholdLiveTests.officeAddress], name: "office-sim")
                let port = try freeTCPPort()
                let broker = try startMosquitto(on: kitchenBus, in: folder, port: port, anonymous: anonymous,
                                                settings: try await brokerSettings(folder))
                defer { broker.killNow() }
                let parts = Parts(kitchenBus: kitchenBus, officeBus: officeBus, folder: folder, port: port,
                                  kitchenDB: folder.path + "/kitchen.sqlite", officeDB: folder.path + "/office.sqlite")
                for path in [parts.kitchenDB, parts.officeDB] { _ = try DrinkHistory(path: path) }
                try await body(parts)
            }
        }
    }

    /// Both daemons on the broker (at `url(bridge.id, port)`), after `prepare`; once each history
    /// holds both bottles' drinks, `body`. Both daemons get SIGTERM at the end; with
    /// `expectCleanExit`, each must then exit with 0.
    static func run(kitchenRecords: Int = 5, officeRecords: Int = 7, anonymous: Bool = true,
                    brokerSettings: (TemporaryFolder) async throws -> String = { _ in "" },
                    url: (_ id: String, _ port: Int) -> String = { _, port in "mqtt://127.0.0.1:\(port)" },
                    prepare: (Parts) async throws -> Void = { _ in },
                    expectCleanExit: Bool = false,
                    _ body: (_ kitchen: HouseholdBridge, _ office: HouseholdBridge, _ port: Int, _ folder: TemporaryFolder) async throws -> Void)
        async throws {
        try await withParts(kitchenRecords: kitchenRecords, officeRecords: officeRecords, anonymous: anonymous,
                            brokerSettings: brokerSettings) { parts in
            try await prepare(parts)
            let kitchen = HouseholdBridge(id: "kitchen", bus: parts.kitchenBus, db: parts.kitchenDB,
                                          process: try daemon(parts.kitchenBus, db: parts.kitchenDB, id: "kitchen", url: url("kitchen", parts.port)))
            defer { kitchen.process.killNow() }
            let office = HouseholdBridge(id: "office", bus: parts.officeBus, db: parts.officeDB,
                                         process: try daemon(parts.officeBus, db: parts.officeDB, id: "office", url: url("office", parts.port)))
            defer { office.process.killNow() }
            let all = kitchenRecords + officeRecords, kitchenDB = parts.kitchenDB, officeDB = parts.officeDB
            do {
                try await waitUntil(.seconds(60), "both histories to hold all \(all) drinks") {
                    drinkCount(kitchenDB) == all && drinkCount(officeDB) == all
                }
                try await body(kitchen, office, parts.port, parts.folder)
            } catch {
                let kitchenLog = parts.kitchenBus.log("kitchen").suffix(4000), officeLog = parts.officeBus.log("office").suffix(4000)
                Issue.record("KITCHEN:\n\(kitchenLog)\nOFFICE:\n\(officeLog)\nMOSQUITTO:\n\(parts.brokerLog.suffix(3000))")
                throw error
            }
            for bridge in [kitchen, office] {
                bridge.process.send(SIGTERM)
                let status = await bridge.process.waitForExit(timeout: .seconds(20))
                if expectCleanExit { #expect(status == 0, "\(bridge.bus.log(bridge.id).suffix(4000))") }
            }
        }
    }
}
