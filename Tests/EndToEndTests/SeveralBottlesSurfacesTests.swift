// One view of each bottle on every surface (docs/design.md 3.6, 6): with every per-bottle setting
// given to one bottle of two, `status`, `status --json`, `/api/v1/status`, `/api/v1/days`, the
// page, `/metrics` and the Home Assistant state all say the same of each bottle, and what they say
// is the setting. And the page's daily-limit switch changes the key in effect for the bottle it
// shows (its own), never the global one, and the page then shows what it switched.

import AquavateProtocol
import BusTestSupport
import Daemon
import Foundation
import History
import Locking
import Logging
import Reminders
import Reminding
import Settings
@testable import Sinks
import TestFixtures
import Testing
import Timekeeping
@testable import Web

@Suite struct SeveralBottlesSurfacesTests {
    /// 2026-11-20T15:00:00Z: 16:00 in Madrid.
    static let now: WallInstant = WallInstant(secondsSince1970: 1_795_186_800)
    static let at = "2026-11-20T15:00:00Z"
    static let ana = "AQ-ANA-0001"
    static let bea = "AQ-BEA-0002"

    /// Every per-bottle setting, given to Ana's bottle. Against the global settings (goal 3000 ml,
    /// 07:00–22:00, limit on, every switch on) each one is a difference a surface could miss.
    static let anaOwn: [String: String] = [
        "owner": "Ana", "daily_goal_ml": "1800", "notifications.enabled": "false", "reminders.enabled": "false",
        "reminders.daily_limit": "false", "reminders.back_on_track": "false", "reminders.active_start": "09:00",
        "reminders.active_end": "21:00", "reminders.min_deficit_ml": "500", "messages.enabled": "true",
        "deadline.enabled": "true", "rituals.enabled": "true",
    ]

    /// What each surface must say of each bottle.
    struct Expected: Equatable, CustomStringConvertible {
        var goalML: Int
        var todayML: Int
        var dailyLimit: Bool
        var urgency: Urgency
        var deficitML: Int
        var description: String { "goal \(goalML), today \(todayML), limit \(dailyLimit), \(urgency.rawValue) \(deficitML)" }
    }

    /// Ana: 750 ml by 16:00 of 1800 over 09:00–21:00 → 1050 expected, 300 behind, under 20 % of
    /// the goal: attention (on the global settings she would be 450 behind of 2000, overdue).
    /// Bea: 1900 ml of 3000 over 07:00–22:00 → 1800 expected: on track.
    static let expected = [
        ana: Expected(goalML: 1800, todayML: 750, dailyLimit: false, urgency: .attention, deficitML: 300),
        bea: Expected(goalML: 3000, todayML: 1900, dailyLimit: true, urgency: .onTrack, deficitML: 0),
    ]

    let folder: URL
    var db: String { folder.appendingPathComponent("history.sqlite").path }
    var config: String { folder.appendingPathComponent("bridge.toml").path }

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("surfaces-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "timezone = \"Europe/Madrid\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        let history = try DrinkHistory(path: db)
        let zone = TimeZone(identifier: "Europe/Madrid")!
        let dayStart = LocalDay(containing: Self.now, timeZone: zone).interval(in: zone).start
        // Ana's bottle was seen last: `status` and the page's reminders panel default to it.
        try history.bottles.save(BottleRecord(id: Self.ana, name: "Aquavate-A001", serial: Self.ana, address: "AA:00:00:00:00:01",
                                              goalML: 2000, lastSeen: Self.now - .seconds(600), lastSync: Self.now - .seconds(600)))
        try history.bottles.save(BottleRecord(id: Self.bea, name: "Aquavate-B002", serial: Self.bea, address: "AA:00:00:00:00:02",
                                              goalML: 2500, lastSeen: Self.now - .seconds(3600), lastSync: Self.now - .seconds(3600)))
        func drink(_ id: UInt32, hour: Double, ml: Int) -> DrinkRecord {
            DrinkRecord(recordID: id, timestamp: UInt32((dayStart + .seconds(hour * 3600)).secondsSince1970), amountML: Int16(ml), bottleLevelML: 300, typeRaw: 0, flagsRaw: 0)
        }
        _ = try history.drinks.store([drink(1, hour: 9.5, ml: 250), drink(2, hour: 12, ml: 500)], bottle: Self.ana, at: Self.now - .seconds(600))
        _ = try history.drinks.store([drink(1, hour: 9, ml: 900), drink(2, hour: 13, ml: 1000)], bottle: Self.bea, at: Self.now - .seconds(3600))
    }

    func bridge(_ arguments: [String]) async throws -> ToolResult {
        try await runTool(LiveCommandTests.bridge, arguments + ["--db", db, "--config", config])
    }

    /// The configuration every in-process surface reads: the file, then what `config set` stored.
    func configuration(_ history: DrinkHistory) throws -> Configuration {
        var configuration = try Configuration.load(file: config, mustExist: true)
        configuration.useStoredValues(try history.settings.all())
        return configuration
    }

    @Test("every per-bottle setting on one bottle of two: status, status --json, the API, the page, /metrics and Home Assistant agree with each other and with the setting")
    func everySurfaceAgrees() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(Set(Self.anaOwn.keys) == Set(SettingCatalog.perBottle), "the test sets every per-bottle setting")
        for (name, value) in Self.anaOwn.sorted(by: { $0.key < $1.key }) {
            let set = try await bridge(["config", "set", "bottle.\(Self.ana).\(name)", value])
            #expect(set.status == 0, "\(set)")
        }
        let global = try await bridge(["config", "set", "daily_goal_ml", "3000"])
        #expect(global.status == 0, "\(global)")

        let history = try DrinkHistory(path: db)
        let configuration = try configuration(history)

        // The resolution itself: every per-bottle setting as set, the other bottle on the global ones.
        let views = try BottleView.resolveEach(configuration: configuration, history: history, at: Self.now)
        let anaView = try #require(views.first { $0.id == Self.ana })
        let beaView = try #require(views.first { $0.id == Self.bea })
        for (name, value) in Self.anaOwn where name != "owner" {
            #expect(anaView.configuration.value(name) == value, "\(name) of Ana's bottle")
            #expect(beaView.configuration.value(name) != value, "\(name) of Bea's bottle is the global one")
        }
        #expect(anaView.owner == "Ana" && beaView.owner == nil)
        #expect(!anaView.settings.hydration.notificationsEnabled && !anaView.remindersEnabled && !anaView.settings.hydration.backOnTrack)
        #expect(anaView.settings.hydration.minDeficitML == 500 && beaView.settings.hydration.minDeficitML == 150)
        #expect(anaView.settings.messages.enabled && anaView.settings.deadline.enabled && anaView.settings.rituals.enabled)
        #expect(!beaView.settings.messages.enabled && !beaView.settings.deadline.enabled && !beaView.settings.rituals.enabled)
        for view in [anaView, beaView] {
            let status = try #require(view.status)
            #expect(Self.expected[view.id!] == Expected(goalML: view.goalML, todayML: status.pace.dayTotalML, dailyLimit: view.dailyLimit,
                                                      urgency: status.urgency, deficitML: status.displayedDeficitML), "\(view.id!)")
        }

        // `status --json`: one object per bottle.
        let json = try await bridge(["status", "--json", "--at", Self.at])
        #expect(json.status == 0, "\(json)")
        let objects = try json.output.split(separator: "\n").map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        let statusByBottle = Dictionary(uniqueKeysWithValues: objects.compactMap { object in (object["bottle"] as? String).map { ($0, object) } })
        #expect(Set(statusByBottle.keys) == [Self.ana, Self.bea])
        for (bottle, object) in statusByBottle {
            #expect(Self.status(object) == Self.expected[bottle], "status --json of \(bottle): \(object)")
        }
        #expect(statusByBottle[Self.ana]?["owner"] as? String == "Ana" && statusByBottle[Self.bea]?["owner"] == nil)
        #expect(statusByBottle[Self.ana]?["reminders_today_text"] as? String == "Reminders Today: 0")
        #expect(statusByBottle[Self.bea]?["reminders_today_text"] as? String == "Reminders Today: 0/\(HydrationSettings.maxRemindersPerDay)")

        // `status`: the same in words, a block per bottle.
        let text = try await bridge(["status", "--at", Self.at])
        #expect(text.status == 0, "\(text)")
        let blocks = text.output.components(separatedBy: "\n\n")
        let anaText = try #require(blocks.first { $0.contains("(\(Self.ana))") })
        let beaText = try #require(blocks.first { $0.contains("(\(Self.bea))") })
        #expect(anaText.contains("(\(Self.ana)), Ana's") && !beaText.contains("'s"))
        for (block, bottle) in [(anaText, Self.ana), (beaText, Self.bea)] {
            let want = try #require(Self.expected[bottle])
            #expect(block.contains("Today: \(want.todayML) ml of \(want.goalML) ml"), "\(block)")
            #expect(block.contains("Urgency: \(want.urgency.displayName)  Deficit: \(want.deficitML) ml"), "\(block)")
            let limit = want.dailyLimit ? "Reminders Today: 0/\(HydrationSettings.maxRemindersPerDay)" : "Reminders Today: 0"
            #expect(block.split(separator: "\n").contains { $0 == limit }, "\(block)")
        }

        // Home Assistant: the retained state the desk publishes for each bottle.
        let mqtt = try await Self.homeAssistantStates(history: history, configuration: configuration)
        for bottle in [Self.ana, Self.bea] {
            let state = try #require(mqtt[bottle], "a state for \(bottle): \(mqtt.keys.sorted())")
            #expect(Self.status(state, total: "daily_total_ml") == Self.expected[bottle], "Home Assistant state of \(bottle): \(state)")
            #expect(state["reminders_enabled"] as? Bool == (bottle == Self.bea), "\(bottle): \(state)")
        }

        // The web: the API, the page, the metrics; then the page's daily-limit switch.
        let context = WebContext(history: history, baseConfiguration: try Configuration.load(file: config, mustExist: true),
                                 clock: ManualClock(Self.now))
        try await WebServing.withServer(context) { port in
            let status = try await RawHTTP.send(port: port, "GET", "/api/v1/status")
            #expect(status.status == 200)
            #expect(status.jsonObject["bottle"] as? String == Self.ana, "the most recently seen bottle")
            #expect(Self.status(status.jsonObject) == Self.expected[Self.ana], "\(status.body)")
            #expect(status.jsonObject["owner"] as? String == "Ana")
            for bottle in [Self.ana, Self.bea] {
                // `?bottle=` (docs/design.md 3.6) where the API has it.
                let one = try await RawHTTP.send(port: port, "GET", "/api/v1/status?bottle=\(bottle)")
                if one.status == 200, one.jsonObject["bottle"] as? String == bottle {
                    #expect(Self.status(one.jsonObject) == Self.expected[bottle], "/api/v1/status?bottle=\(bottle): \(one.body)")
                }
            }

            let days = try await RawHTTP.send(port: port, "GET", "/api/v1/days?days=1")
            #expect(days.status == 200)
            for bottle in [Self.ana, Self.bea] {
                let today = try #require(days.jsonArray.first { $0["bottle"] as? String == bottle }, "\(days.body)")
                #expect(today["goal_ml"] as? Int == Self.expected[bottle]?.goalML && today["total_ml"] as? Int == Self.expected[bottle]?.todayML,
                        "/api/v1/days of \(bottle): \(today)")
            }

            let page = try await RawHTTP.send(port: port, "GET", "/")
            #expect(page.status == 200)
            for bottle in [Self.ana, Self.bea] {
                let want = try #require(Self.expected[bottle])
                let panel = try #require(PageReading.panel(of: bottle, in: page.body), "a panel for \(bottle)")
                #expect(panel.contains("class=\"today-ml\" data-ml=\"\(want.todayML)\""), "\(bottle): \(panel)")
                #expect(panel.contains("class=\"goal-ml\">\(want.goalML)<"), "\(bottle): \(panel)")
                #expect(panel.contains("urgency-\(want.urgency.rawValue.replacingOccurrences(of: "_", with: "-"))"), "\(bottle): \(panel)")
                #expect(want.deficitML == 0 || panel.contains("\(want.deficitML) ml"), "\(bottle): \(panel)")
            }
            let anaPanel = try #require(PageReading.panel(of: Self.ana, in: page.body))
            #expect(Self.dailyLimitShown(anaPanel) == false, "Ana's panel shows her own limit, off")
            #expect(Self.dailyLimitShown(try #require(PageReading.panel(of: Self.bea, in: page.body))) == true, "Bea's, the global default")

            let metrics = try await RawHTTP.send(port: port, "GET", "/metrics")
            #expect(metrics.status == 200)
            for bottle in [Self.ana, Self.bea] {
                let goal = try #require(Self.goalMetricML(metrics.body, bottle: bottle), "\(metrics.body)")
                #expect(goal == Self.expected[bottle]?.goalML, "/metrics goal of \(bottle)")
            }

            // The page's switch, as a browser sends its form: Ana's own key flips, the global stays unset.
            let form = try #require(PageReading.formFields(action: "/actions/daily-limit", in: anaPanel), "Ana's switch's form")
            #expect(form.contains("bottle=\(Self.ana)") && form.contains("enabled=true"), "\(form)")
            let headers = [("Content-Type", "application/x-www-form-urlencoded")]
            let on = try await RawHTTP.send(port: port, "POST", "/actions/daily-limit", headers: headers, body: form)
            #expect(on.status == 303, "\(on.body)")
            #expect(try history.settings.value("bottle.\(Self.ana).reminders.daily_limit") == "true")
            #expect(try history.settings.value(Setting.dailyLimit.name) == nil, "the global key is not the one in effect for Ana")
            // Home Assistant: the state the desk publishes follows Ana's switch; Bea's is unmoved.
            let switched = try await Self.homeAssistantStates(history: history, configuration: try context.configuration())
            #expect(switched[Self.ana]?["daily_limit"] as? Bool == true, "\(switched[Self.ana] ?? [:])")
            #expect(switched[Self.bea]?["daily_limit"] as? Bool == Self.expected[Self.bea]?.dailyLimit, "\(switched[Self.bea] ?? [:])")
            let after = try await RawHTTP.send(port: port, "GET", "/")
            let anaAfter = try #require(PageReading.panel(of: Self.ana, in: after.body))
            #expect(Self.dailyLimitShown(anaAfter) == true, "the page shows what it switched")
            #expect(anaAfter.contains("class=\"reminders-today\">0/\(HydrationSettings.maxRemindersPerDay)<"))
            let again = try #require(PageReading.formFields(action: "/actions/daily-limit", in: anaAfter))
            #expect(again.contains("enabled=false"), "\(again)")
            let off = try await RawHTTP.send(port: port, "POST", "/actions/daily-limit", headers: headers, body: again)
            #expect(off.status == 303)
            #expect(try history.settings.value("bottle.\(Self.ana).reminders.daily_limit") == "false")
            #expect(try history.settings.value(Setting.dailyLimit.name) == nil)
        }
        // Bea's limit never moved.
        let final = try await bridge(["status", "--json", "--at", Self.at, "--bottle", Self.bea])
        #expect(final.output.contains("\"daily_limit\":true"), "\(final)")
    }

    // MARK: Reading the surfaces

    /// The comparable part of a status object (`status --json`, the API, the Home Assistant state).
    static func status(_ object: [String: Any], total: String = "today_ml") -> Expected? {
        guard let goal = object["daily_goal_ml"] as? Int, let today = object[total] as? Int, let limit = object["daily_limit"] as? Bool,
              let urgency = (object["urgency"] as? String).flatMap(Urgency.init(rawValue:)), let deficit = object["deficit_ml"] as? Int
        else { return nil }
        return Expected(goalML: goal, todayML: today, dailyLimit: limit, urgency: urgency, deficitML: deficit)
    }

    /// What the page says of the daily limit (`data-on`), nil when it says nothing.
    static func dailyLimitShown(_ page: String) -> Bool? {
        guard let start = page.range(of: "class=\"daily-limit\" data-on=\"") else { return nil }
        return page[start.upperBound...].hasPrefix("true")
    }

    /// The goal `/metrics` gives `bottle`, in ml (`aquavate_goal_liters`, design 3.6's base unit).
    static func goalMetricML(_ text: String, bottle: String) -> Int? {
        for line in text.split(separator: "\n") where line.contains("bottle=\"\(bottle)\"") {
            guard let value = line.split(separator: " ").last.flatMap({ Double($0) }) else { continue }
            if line.hasPrefix("aquavate_goal_liters{") { return Int((value * 1000).rounded()) }
        }
        return nil
    }

    /// The Home Assistant state of each bottle, as the MQTT sink would publish it, from the desk
    /// the daemon runs (one engine per bottle).
    static func homeAssistantStates(history: DrinkHistory, configuration: Configuration) async throws -> [String: [String: Any]] {
        let sink = StateSink()
        let hub = SinkHub(sinks: [sink], clock: ManualClock(now), logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
        await hub.start()
        let desk = ReminderDesk(history: history, configuration: configuration,
                                logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }, hub: hub)
        await desk.advance(to: now)
        let deadline = ContinuousClock.now + .seconds(20)
        var states: [String: [String: Any]] = [:]
        while states.count < 2, ContinuousClock.now < deadline {
            for snapshot in sink.snapshots.withLock({ $0 }) {
                guard let bottle = snapshot.bottle, let data = MQTTPayloads.state(snapshot).text.data(using: .utf8),
                      let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else { continue }
                states[bottle] = object
            }
            if states.count < 2 { try await Task.sleep(for: .milliseconds(20)) }
        }
        await hub.stop()
        return states
    }

    /// Runs `body` with the web server on a free loopback port.
}

/// Takes the bridge's state as the MQTT sink does, and keeps it.
private final class StateSink: NotificationSink, Sendable {
    let name = "state"
    let snapshots = Locked<[BridgeSnapshot]>([])
    var publishesState: Bool { true }
    func deliver(_ notification: SinkNotification) async throws {}
    func publish(_ snapshot: BridgeSnapshot) async throws { snapshots.withLock { $0.append(snapshot) } }
}
