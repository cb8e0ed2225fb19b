// Which of Home Assistant's discovery forms the bridge publishes (`mqtt.discovery_format`): the
// setting's value, read once by its typed key; the MQTT sink is told the form it stands for
// (`SinkSetup`), never the text.
//
//   device  one retained config per device (`homeassistant/device/…`): Home Assistant 2024.11+
//   entity  one retained config per entity (`homeassistant/<platform>/…`): Home Assistant
//           2023.12+, also the releases before 2024.11, which ignore the device form

package enum MQTTDiscoveryFormat: String, CaseIterable, Sendable {
    case device
    case entity
}
