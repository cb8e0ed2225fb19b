// Which sinks the configuration asks for, built once: the journal always, MQTT when `mqtt.url`
// is set, HTTP push when `push.url` is set (docs/reminders.md 1). A sink whose settings are wrong is
// left out with one warning; the others still deliver.

import Foundation
import History
import Logging
import Reminders
import Settings
import Sinks

package enum SinkSetup {
    /// The sinks for `configuration`. `bottle` is the adopted bottle as the history knows it (its
    /// address names it in MQTT topics); nil before one is known: then no device is announced
    /// until a connection identifies it. `role`: the daemon's, or a CLI command's that only
    /// delivers (MQTTSinkConfiguration.Role); `dashboardURL`: where `run` serves the dashboard.
    /// `refusals` counts the commands its MQTT sink refuses.
    package static func sinks(configuration: Configuration, bottle: BottleRecord?, role: MQTTSinkConfiguration.Role = .daemon,
                             dashboardURL: String? = nil, refusals: CommandRefusals = CommandRefusals(),
                             logger: Logger) -> [any NotificationSink] {
        var sinks: [any NotificationSink] = [JournalSink(logger: logger)]
        if configuration[Setting.desktopEnabled] {
            if sessionBusExists() {
                sinks.append(DesktopSink())
            } else {
                logger.info("no session bus (DBUS_SESSION_BUS_ADDRESS unset, no $XDG_RUNTIME_DIR/bus): desktop notifications are off")
            }
        }
        if let url = configuration[Setting.mqttURL] {
            do {
                var mqtt = try MQTTSinkConfiguration(
                    url: url, bottleAddress: bottle?.address ?? configuration[Setting.bottleAddress],
                    bottleID: configuration[Setting.mqttBottleID], bottleName: bottle?.name, firmwareVersion: bottle?.firmware,
                    bottleSerial: bottle?.serial, bottleModel: bottle?.model, bridgeID: bridgeID(configuration),
                    bridgeVersion: BridgeInfo.version,
                    topicPrefix: configuration[Setting.mqttTopicPrefix],
                    discoveryPrefix: configuration[Setting.mqttDiscoveryPrefix],
                    discovery: configuration[Setting.mqttDiscovery], caFile: configuration[Setting.mqttCAFile])
                mqtt.discoveryFormat = MQTTSinkConfiguration.DiscoveryFormat(configuration[Setting.mqttDiscoveryFormat])
                mqtt.role = role
                mqtt.dashboardURL = dashboardURL
                sinks.append(try MQTTSink(configuration: mqtt, gate: SettingCatalog.sinkCommandGate(configuration[Setting.mqttCommands]),
                                          refusals: refusals, logger: logger))
            } catch {
                logger.warning("MQTT is not used: \(error)")
            }
        }
        if let url = configuration[Setting.pushURL] {
            do {
                let push = try HTTPPushConfiguration(url: url, token: configuration[Setting.pushToken],
                                                     actionURL: configuration[Setting.pushActionURL])
                sinks.append(HTTPPushSink(configuration: push))
            } catch {
                logger.warning("HTTP push is not used: \(error)")
            }
        }
        return sinks
    }

    /// `bridge.id`, else the host name made safe for a topic (`pi-kitchen`), else `bridge`.
    package static func bridgeID(_ configuration: Configuration) -> String {
        if let id = configuration[Setting.bridgeID] { return id }
        let host = ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? ""
        let safe = String(host.unicodeScalars.filter { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_") }.map(Character.init).prefix(64))
        return safe.isEmpty ? "bridge" : safe
    }

    /// Whether a session bus is there to connect to: a headless Pi has none, and then the
    /// desktop sink is left out instead of retrying forever.
    static func sessionBusExists(environment: [String: String] = ProcessEnvironment.current) -> Bool {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return true }
        guard let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty else { return false }
        return FileManager.default.fileExists(atPath: runtime + "/bus")
    }

    /// A delivery of the reminder engine as the sinks take it.
    package static func notification(_ delivery: Delivery) -> SinkNotification {
        SinkNotification(id: delivery.id, kind: delivery.kind.rawValue, title: delivery.title, body: delivery.body,
                         time: delivery.time, actions: delivery.actions.map { SinkAction(id: $0.id, label: $0.label) })
    }
}

/// The bridge's name and version, for MQTT origin and capture headers.
package enum BridgeInfo {
    package static let version = "0.1.0"
    package static let name = "aquavate-bridge"
}
