// Every release of scripts/home-assistant-versions with each discovery form it is tested with
// (docs/home-assistant.md, "Which Home Assistant"): a new install of that Home Assistant, a new
// install of the bridge, and what a person relies on — the device and every entity under the
// documented ids, each value the bridge's own (`status --json`), the goal set from Home Assistant
// reaching the bottle, the bottle unavailable after a SIGTERM and back after the restart, and not
// one warning or error of the MQTT integration in that release's log. The newest release with the
// device form (the default) is theBottleInHomeAssistant's, which does all of this and more.

import BusTestSupport
import Foundation
import Locking
import ProcessSupport
import Testing
import Timekeeping

/// One release and one discovery form.
struct ReleaseForm: Sendable, CustomStringConvertible {
    var version: String
    var form: String
    var description: String { "\(version) \(form)" }

    static let matrix: [ReleaseForm] = HomeAssistant.releases.flatMap { release in
        release.forms.map { ReleaseForm(version: release.version, form: $0) }
    }.filter { !($0.version == HomeAssistant.newest && $0.form == "device") }
}

extension HomeAssistantTests {
    @Test("each release and form: the device and its documented entities, the bridge's values, the goal from Home Assistant, availability, a quiet log",
          arguments: ReleaseForm.matrix)
    func theReleases(_ release: ReleaseForm) async throws {
        let python = try await HomeAssistant.environment(version: release.version)
        try await withPrivateBus { bus in
            let folder = bus.directory
            let now = SystemClock().now.secondsSince1970
            let zone = Self.middayZone(now: now)
            let stateFile = folder.appendingPathComponent("sim.json").path
            let recordsFile = folder.appendingPathComponent("records.json")
            try Data(#"[{"record_id":1,"timestamp":\#(Int(now) - 300),"amount_ml":180,"bottle_level_ml":320,"type":0,"flags":0}]"#.utf8)
                .write(to: recordsFile)
            _ = try bus.spawn(Self.simulator, ["--bus", bus.address, "--records-file", recordsFile.path, "--disconnect-delay", "0.1",
                                               "--state-file", stateFile], logName: "sim")
            try await waitUntil(.seconds(20), "the simulator") { FileManager.default.fileExists(atPath: stateFile) }
            let broker = try Broker(directory: folder.appendingPathComponent("mosquitto"))
            try await broker.start()
            guard let webListener = LoopbackListener(), let haListener = LoopbackListener() else { throw HomeAssistantFailure(description: "no ports") }
            close(webListener.descriptor)
            close(haListener.descriptor)
            let db = folder.appendingPathComponent("history.sqlite").path
            let common = ["--db", db, "--set", "timezone=\(zone)", "--set", "desktop.enabled=false", "--set", "bridge.id=kitchen",
                          "--set", "mqtt.url=\(broker.url)", "--set", "mqtt.discovery_format=\(release.form)"]
            let environment = bus.environment
            let run: @Sendable ([String], Duration) async throws -> ToolResult = { arguments, timeout in
                try await runTool(Self.bridge, arguments + common, environment: environment, timeout: timeout)
            }
            let home = try HomeAssistant(python: python, directory: folder.appendingPathComponent("home-assistant"), port: haListener.port,
                                         timeZone: zone)
            defer { home.killNow() }
            try await home.start()
            try await home.onboard()
            try await home.addMQTT(brokerPort: broker.port)
            var daemon = try startDaemon(bus, common: common, webPort: webListener.port, first: true)
            defer { daemon.killNow() }

            // MARK: The device, under the documented ids
            try await waitForEntities(home, "\(release)")
            let info = try await run(["bottle", "info", "--json"], .seconds(30))
            let bottle = try #require(Self.jsonLines(info.output).first { $0["event"] as? String == "bottle" }, "\(info)")
            let registry = try Self.json(try await home.template("""
                {% set d = device_id('\(Self.entity("sensor", "battery"))') %}\
                {{ {'serial': device_attr(d, 'serial_number'), 'name': device_attr(d, 'name'), 'via': device_attr(d, 'via_device_id'),
                    'sw': device_attr(d, 'sw_version'), 'bridge': device_id('\(Self.online)'), 'entities': device_entities(d) | sort} | to_json }}
                """))
            #expect(registry["via"] as? String == registry["bridge"] as? String && registry["bridge"] is String, "\(registry)")
            #expect(registry["sw"] as? String == bottle["firmware"] as? String && bottle["firmware"] != nil, "\(registry) \(bottle)")
            #expect(registry["name"] as? String == "Aquavate-A3F2", "\(registry)")
            #expect(Set(registry["entities"] as? [String] ?? []) == Set(Self.entities), "\(release): \(registry)")
            // The device form names the serial; the entity form leaves it to the identifier (2023.12 refuses the key).
            let serial = registry["serial"] as? String
            #expect(release.form == "device" ? serial == bottle["serial"] as? String && serial != nil : serial == nil, "\(registry) \(bottle)")
            try await expectTruth(home, cli: run, stateFile: stateFile, lastDrink: (180, Int(now) - 300))

            // MARK: A clean stop makes the bottle unavailable; the restarted daemon connects often
            daemon.send(SIGTERM)
            #expect(await daemon.waitForExit(timeout: .seconds(30)) == 0, "\(bus.log("daemon").suffix(800))")
            try await waitUntil(.seconds(30), "the bottle unavailable after SIGTERM") {
                let states = try await home.states()
                return states[Self.entity("sensor", "battery")]?.state == "unavailable" && states[Self.online]?.state == "off"
            }
            daemon = try startDaemon(bus, common: common, webPort: webListener.port)
            try await expectTruth(home, cli: run, stateFile: stateFile, lastDrink: (180, Int(now) - 300))

            // MARK: The goal, set in Home Assistant, on the bottle
            try await home.call("number", "set_value", ["entity_id": Self.entity("number", "goal_setting"), "value": 3200])
            try await waitUntil(.seconds(90), "the goal on the bottle (\(bus.log("daemon").suffix(600)))") {
                try Self.json(String(contentsOfFile: stateFile, encoding: .utf8))["goal_ml"] as? Int == 3200
            }
            try await waitUntil(.seconds(30), "Home Assistant to show it applied") {
                let states = try await home.states()
                return Double(states[Self.entity("number", "goal_setting")]?.state ?? "") == 3200
                    && states[Self.entity("sensor", "pending")]?.state == "0"
                    && states[Self.entity("sensor", "command_result")]?.state == "applied"
            }
            try await expectTruth(home, cli: run, stateFile: stateFile, lastDrink: (180, Int(now) - 300))
            try expectQuietMQTT(try await home.errorLog(), since: nil)
            daemon.send(SIGTERM)
            _ = await daemon.waitForExit(timeout: .seconds(30))
            await home.stop()
            await broker.stop()
        }
    }

    /// Waits until Home Assistant has every documented entity and the bridge online; else says
    /// which of its ids are the bridge's, and which documented ones it lacks.
    func waitForEntities(_ home: HomeAssistant, _ what: String) async throws {
        let seen = Locked<[String]>([])
        do {
            try await waitUntil(.seconds(120), "the bottle's entities in Home Assistant \(what)") {
                let states = try await home.states()
                seen.withLock { $0 = states.keys.filter { $0.contains("aquavate") }.sorted() }
                return Self.entities.allSatisfy { states[$0] != nil } && states[Self.online]?.state == "on"
            }
        } catch {
            let ids = seen.withLock { $0 }
            throw HomeAssistantFailure(description: "\(error): Home Assistant has \(ids), not \(Self.entities.filter { !ids.contains($0) }); "
                                       + "its log: \(home.log.suffix(1500))")
        }
    }
}
