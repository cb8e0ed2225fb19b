// `demo --mqtt URL` for a newcomer without a bottle: the demo's simulated day, published to a real
// Home Assistant, appears there as the bridge and bottle devices, with "Water today" moving as the
// story's drinks are synced — asked of Home Assistant's registry and history, not of the payloads.

import BusTestSupport
import Foundation
import Locking
import Testing
import Timekeeping

extension HomeAssistantTests {
    @Test("demo --mqtt: the story's bottle appears in Home Assistant, its water today changing as the day goes")
    func theDemoInHomeAssistant() async throws {
        let python = try await HomeAssistant.environment()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ha-demo-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let now = SystemClock().now.secondsSince1970
        let zone = Self.middayZone(now: now)
        let broker = try Broker(directory: folder.appendingPathComponent("mosquitto"))
        try await broker.start()
        guard let haListener = LoopbackListener() else { throw HomeAssistantFailure(description: "no ports") }
        close(haListener.descriptor)
        let home = try HomeAssistant(python: python, directory: folder.appendingPathComponent("home-assistant"), port: haListener.port,
                                     timeZone: zone)
        defer { home.killNow() }
        try await home.start()
        try await home.onboard()
        try await home.addMQTT(brokerPort: broker.port)
        let started = Self.iso(SystemClock().now.secondsSince1970 - 1)

        let demo = try await runTool(Self.bridge, ["demo", "--records", "3", "--mqtt", broker.url, "--db", folder.appendingPathComponent("demo.sqlite").path,
                                                   "--set", "timezone=\(zone)"], timeout: .seconds(240))
        #expect(demo.status == 0, "\(demo)")

        let total = Self.entity("sensor", "daily_total")
        let registry = try Self.json(try await home.template("""
            {% set d = device_id('\(total)') %}\
            {{ {'model': device_attr(d, 'model'), 'via': device_attr(d, 'via_device_id'),
                'bridge': device_id('binary_sensor.aquavate_bridge_demo_online')} | to_json }}
            """))
        #expect(registry["via"] as? String == registry["bridge"] as? String && registry["bridge"] is String,
                "the story's bottle, via the demo's bridge: \(registry)")
        let totals = try await home.history(of: total, since: started).compactMap(Double.init)
        #expect(Set(totals).count >= 3 && totals.last == totals.max(), "water today as Home Assistant recorded it: \(totals)")
        let urgencies = try await home.history(of: Self.entity("sensor", "urgency"), since: started)
        #expect(urgencies.contains { ["on_track", "attention", "overdue"].contains($0) }
                && urgencies.allSatisfy { ["on_track", "attention", "overdue", "unknown", "unavailable"].contains($0) }, "\(urgencies)")
        try expectQuietMQTT(try await home.errorLog(), since: nil)
        await home.stop()
        await broker.stop()
    }
}
