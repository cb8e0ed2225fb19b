// The JSON published on MQTT (without a broker): state, events and the discovery config.

@testable import MQTT
@testable import Sinks
import BusTestSupport
import Testing
import Timekeeping

@Suite struct PayloadTests {
    let configuration: MQTTSinkConfiguration

    init() throws {
        configuration = try MQTTSinkConfiguration(url: "mqtt://127.0.0.1", bottleAddress: "F4:12:FA:00:A3:F4",
                                                  bottleName: "Aquavate-A3F2", firmwareVersion: "1.4.2",
                                                  bottleSerial: "F4:12:FA:00:A3:F2", bottleModel: "Puck v1.0", bridgeID: "kitchen-pi",
                                                  bridgeVersion: "0.1.0", supportURL: "https://example.org/aquavate-bridge")
    }

    @Test func stateIsTheSnapshotWithISOTimesAndNullsForUnknowns() {
        var state = snapshot(total: 1250, time: 1_763_712_900)
        #expect(MQTTPayloads.state(state).text == #"{"battery":87,"bottle_goal_ml":null,"bottle_level_ml":420,"connected":true,"daily_goal_ml":2500,"daily_limit":true,"#
            + #""daily_total_ml":1250,"day_start":null,"deficit_ml":300,"last_drink_ml":null,"last_drink_time":null,"#
            + #""last_seen":null,"last_sync":"2025-11-21T08:12:00Z","pending_commands":0,"pending_goal_ml":null,"#
            + #""pending_shake_to_empty":null,"percent_of_goal":50,"quarantined":0,"reminders_enabled":true,"reminders_today":2,"#
            + #""shake_to_empty":null,"stuck":false,"stuck_since":null,"time":"2025-11-21T08:15:00Z","unsynced":0,"urgency":"attention"}"#)
        state.batteryPercent = nil
        state.bottleLevelML = nil
        state.lastSync = nil
        state.unsynced = nil
        let text = MQTTPayloads.state(state).text
        #expect(text.contains(#""battery":null"#) && text.contains(#""bottle_level_ml":null"#)
            && text.contains(#""last_sync":null"#) && text.contains(#""unsynced":null"#))
    }

    @Test func drinkAndNotificationEventsCarryAnEventType() {
        let drink = storedDrink(17, at: 1_763_712_600, amountML: 250, bottleLevelML: 330)
        #expect(MQTTPayloads.drink(drink).text == #"{"amount_ml":250,"bottle_level_ml":330,"event_type":"drink","#
            + #""record_id":17,"time":"2025-11-21T08:10:00Z","type":"gulp"}"#)
        let ritual = SinkNotification(id: "ritual-morning-2026-11-22", kind: "ritual", title: "Good morning",
                                      body: "Your daily routine is ready.", time: WallInstant(secondsSince1970: 1_763_712_000),
                                      actions: [SinkAction(id: "did-this", label: "Did This")])
        #expect(MQTTPayloads.notification(ritual).text == #"{"actions":[{"id":"did-this","label":"Did This"}],"#
            + #""body":"Your daily routine is ready.","event_type":"ritual","id":"ritual-morning-2026-11-22","#
            + #""kind":"ritual","priority":3,"time":"2025-11-21T08:00:00Z","title":"Good morning"}"#)
    }

    @Test func discoveryDescribesTheDeviceOriginAndSharedTopics() throws {
        // It is valid JSON that reads back to itself.
        let message = HomeAssistantDiscovery.payload(for: configuration)
        #expect(try WireJSON.decode(DeviceDiscovery.self, from: message.text.utf8) == message)
        let payload = tree(message)
        // The serial is the identifier; the model is the Device Information one; via the bridge.
        #expect(payload["dev"] == .object([
            "identifiers": .array(["aquavate_f412fa00a3f2"]),
            "connections": .array([.array(["mac", "F4:12:FA:00:A3:F4"])]),
            "name": "Aquavate-A3F2", "manufacturer": "Aquavate", "model": "Puck v1.0", "sw_version": "1.4.2",
            "serial_number": "F4:12:FA:00:A3:F2", "via_device": "aquavate_bridge_kitchen-pi",
        ]))
        #expect(payload["o"] == .object(["name": "aquavate-bridge", "sw": "0.1.0", "url": "https://example.org/aquavate-bridge"]))
        // Available while its bridge is.
        #expect(payload["availability_topic"] == "aquavate/bridge/kitchen-pi/availability")
        #expect(payload["state_topic"] == "aquavate/f412fa00a3f4/state")
        #expect(payload["qos"] == .int(1))
    }

    @Test func everyComponentHasAPlatformAndAUniqueID() throws {
        guard case let .object(components)? = tree(HomeAssistantDiscovery.payload(for: configuration))["cmps"] else {
            Issue.record("no cmps")
            return
        }
        #expect(Set(components.keys) == ["daily_total", "percent_of_goal", "goal", "bottle_level", "battery", "urgency", "deficit",
                                         "last_drink", "last_drink_time", "reminders_today", "last_sync", "last_seen", "unsynced",
                                         "pending", "quarantined", "stuck", "connected", "reminders", "daily_limit", "goal_setting", "tare",
                                         "delete_last_drink", "shake_to_empty", "command_result", "drink", "notification"])
        for (key, component) in components {
            #expect(component["p"]?.stringValue != nil, "\(key) has no platform")
            #expect(component["unique_id"]?.stringValue == "aquavate_f412fa00a3f4_\(key)")
            // No option names the entity id: each release makes it from the names, the same way.
            #expect(component["object_id"] == nil && component["default_entity_id"] == nil, "\(key)")
        }
    }

    @Test(arguments: [
        ("daily_total", "sensor", "volume", "mL", "total", "{{ value_json.daily_total_ml }}"),
        ("bottle_level", "sensor", "volume_storage", "mL", "measurement", "{{ value_json.bottle_level_ml }}"),
        ("battery", "sensor", "battery", "%", "measurement", "{{ value_json.battery }}"),
    ])
    func measuredSensorsUseHomeAssistantsClassesAndUnits(key: String, platform: String, deviceClass: String,
                                                         unit: String, stateClass: String, template: String) throws {
        let component = try #require(tree(HomeAssistantDiscovery.payload(for: configuration))["cmps"]?[key])
        #expect(component["p"]?.stringValue == platform)
        #expect(component["device_class"]?.stringValue == deviceClass)
        #expect(component["unit_of_measurement"]?.stringValue == unit)
        #expect(component["state_class"]?.stringValue == stateClass)
        #expect(component["value_template"]?.stringValue == template)
    }

    @Test func theOtherEntities() throws {
        let components = try #require(tree(HomeAssistantDiscovery.payload(for: configuration))["cmps"])
        #expect(components["urgency"]?["device_class"] == "enum")
        #expect(components["urgency"]?["options"] == .array(["on_track", "attention", "overdue"]))
        // A deletion lowers the day: `total` resets only at the day's start, never on a decrease.
        #expect(components["daily_total"]?["last_reset_value_template"] == "{{ value_json.day_start }}")
        #expect(components["deficit"]?["unit_of_measurement"] == "mL")
        #expect(components["reminders_today"]?["p"] == "sensor")
        #expect(components["last_sync"]?["device_class"] == "timestamp")
        #expect(components["connected"]?["p"] == "binary_sensor")
        #expect(components["connected"]?["device_class"] == "connectivity")
        #expect(components["connected"]?["value_template"] == "{{ 'ON' if value_json.connected else 'OFF' }}")
        #expect(components["drink"]?["p"] == "event")
        #expect(components["drink"]?["state_topic"] == "aquavate/f412fa00a3f4/drink")
        #expect(components["drink"]?["event_types"] == .array(["drink"]))
        #expect(components["notification"]?["state_topic"] == "aquavate/f412fa00a3f4/notification")
        #expect(components["notification"]?["event_types"] == .array(SinkNotification.Kind.all.map(JSONTree.string)))
    }

    @Test func theDailyLimitSwitchSendsCommandsTheParserAccepts() throws {
        let toggle = try #require(tree(HomeAssistantDiscovery.payload(for: configuration))["cmps"]?["daily_limit"])
        #expect(toggle["p"] == "switch")
        #expect(toggle["command_topic"] == "aquavate/f412fa00a3f4/command")
        #expect(toggle["value_template"] == "{{ 'None' if value_json.daily_limit is none else ('ON' if value_json.daily_limit else 'OFF') }}")
        #expect(toggle["state_on"] == "ON" && toggle["state_off"] == "OFF")
        let on = try #require(toggle["payload_on"]?.stringValue)
        let off = try #require(toggle["payload_off"]?.stringValue)
        #expect(try SinkCommandParser.parse(on) == .configSet(key: "reminders.daily_limit", value: "true"))
        #expect(try SinkCommandParser.parse(off) == .configSet(key: "reminders.daily_limit", value: "false"))
    }

    @Test func urgencyOnTheWireIsOneOfTheDiscoveryOptions() throws {
        let options = try #require(tree(HomeAssistantDiscovery.payload(for: configuration))["cmps"]?["urgency"]?["options"])
        for urgency in HydrationUrgency.allCases {
            var state = snapshot(total: 100, time: 1_763_712_900)
            state.urgency = urgency
            let sent = try #require(JSONTree.parse(Array(MQTTPayloads.state(state).text.utf8))?["urgency"])
            #expect(options.arrayValue?.contains(sent) == true, "\(sent) is not among \(options)")
        }
    }

    @Test func theDayStartPendingControlsAndLastDrinkAreInTheState() throws {
        var state = snapshot(total: 1250, time: 1_763_712_900)
        state.dayStart = WallInstant(secondsSince1970: 1_763_679_600)
        state.lastDrinkML = 250
        state.lastDrinkTime = WallInstant(secondsSince1970: 1_763_712_600)
        state.pendingGoalML = 3000
        state.pendingShakeToEmpty = true
        state.pendingCommands = 2
        state.remindersEnabled = false
        let json = try #require(JSONTree.parse(Array(MQTTPayloads.state(state).text.utf8)))
        #expect(json["day_start"] == "2025-11-20T23:00:00Z")
        #expect(json["last_drink_ml"] == .int(250) && json["last_drink_time"] == "2025-11-21T08:10:00Z")
        #expect(json["pending_goal_ml"] == .int(3000) && json["pending_shake_to_empty"] == .bool(true))
        #expect(json["pending_commands"] == .int(2) && json["reminders_enabled"] == .bool(false))
    }

    @Test func aStuckBottleIsAProblemWithItsSinceAndWaitingDrinks() throws {
        var state = snapshot(total: 100, time: 1_763_712_900)
        state.stuck = true
        state.stuckSince = WallInstant(secondsSince1970: 1_763_700_000)
        state.quarantined = 3
        let json = try #require(JSONTree.parse(Array(MQTTPayloads.state(state).text.utf8)))
        #expect(json["stuck"] == .bool(true) && json["stuck_since"] == "2025-11-21T04:40:00Z" && json["quarantined"] == .int(3))
        let stuck = try #require(tree(HomeAssistantDiscovery.payload(for: configuration))["cmps"]?["stuck"])
        #expect(stuck["p"] == "binary_sensor" && stuck["device_class"] == "problem")
        #expect(stuck["value_template"] == "{{ 'ON' if value_json.stuck else 'OFF' }}")
    }

    @Test func theButtonsAndTheRemindersSwitchSendCommandsTheParserAccepts() throws {
        let components = try #require(tree(HomeAssistantDiscovery.payload(for: configuration))["cmps"])
        let delete = try #require(components["delete_last_drink"]?["payload_press"]?.stringValue)
        #expect(try SinkCommandParser.parse(delete) == .bottle(.deleteLast))
        let reminders = try #require(components["reminders"])
        #expect(try SinkCommandParser.parse(try #require(reminders["payload_on"]?.stringValue)) == .configSet(key: "reminders.enabled", value: "true"))
        #expect(try SinkCommandParser.parse(try #require(reminders["payload_off"]?.stringValue)) == .configSet(key: "reminders.enabled", value: "false"))
        #expect(components["command_result"]?["state_topic"] == "aquavate/f412fa00a3f4/command/last")
    }

    @Test func theDashboardIsTheDevicesConfigurationURL() throws {
        var withWeb = configuration
        withWeb.dashboardURL = "http://kitchen-pi:8080/"
        #expect(tree(HomeAssistantDiscovery.payload(for: withWeb))["dev"]?["configuration_url"] == "http://kitchen-pi:8080/")
        #expect(tree(HomeAssistantDiscovery.bridgePayload(for: withWeb))["dev"]?["configuration_url"] == "http://kitchen-pi:8080/")
        #expect(tree(HomeAssistantDiscovery.payload(for: configuration))["dev"]?["configuration_url"] == nil)
    }

    @Test func theEntityFormCarriesTheDeviceAndSharedOptionsInEachConfig() throws {
        let entities = HomeAssistantDiscovery.entityPayloads(for: configuration).map { ($0.topic, tree($0.payload)) }
        let device = tree(HomeAssistantDiscovery.payload(for: configuration))
        let components = try #require(device["cmps"]?.objectValue)
        // The device form's device but its serial, which Home Assistant 2023.12 refuses (the serial
        // is in the identifier all the same).
        var entityDevice = try #require(device["dev"]?.objectValue)
        #expect(entityDevice.removeValue(forKey: "serial_number") == "F4:12:FA:00:A3:F2")
        #expect(entityDevice["identifiers"] == .array(["aquavate_f412fa00a3f2"]))
        #expect(entities.count == components.count)
        for (topic, payload) in entities {
            let platform = String(topic.split(separator: "/")[1])
            let key = String(topic.split(separator: "/")[3])
            #expect(topic == "homeassistant/\(platform)/aquavate_f412fa00a3f4/\(key)/config")
            #expect(components[key]?["p"]?.stringValue == platform)
            #expect(payload["p"] == nil, "no platform key in the per-entity form")
            #expect(payload["device"] == .object(entityDevice))
            #expect(payload["origin"] == device["o"])
            #expect(payload["availability_topic"] == "aquavate/bridge/kitchen-pi/availability")
            if platform == "sensor" || platform == "switch" || platform == "binary_sensor" || platform == "number" {
                #expect(payload["state_topic"] != nil, "\(key)")
            }
        }
        let online = tree(HomeAssistantDiscovery.bridgeEntityPayload(for: configuration))
        #expect(online["state_topic"] == "aquavate/bridge/kitchen-pi/availability")
        #expect(online["device"]?["identifiers"] == .array(["aquavate_bridge_kitchen-pi"]))
    }

    @Test func withoutFirmwareOrSupportURLThoseFieldsAreLeftOut() throws {
        let bare = try MQTTSinkConfiguration(url: "mqtt://127.0.0.1", bottleAddress: "F4:12:FA:00:A3:F4", bridgeVersion: "0.1.0")
        let payload = tree(HomeAssistantDiscovery.payload(for: bare))
        #expect(payload["dev"]?["sw_version"] == nil)
        #expect(payload["dev"]?["name"] == "Aquavate f412fa00a3f4")
        #expect(payload["o"]?["url"] == nil)
    }
}
