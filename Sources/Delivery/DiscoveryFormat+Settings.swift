// The MQTT sink's discovery form from the setting's typed value: the sinks know nothing of the
// settings (Sinks may not import Settings), so the two enums meet here, case for case; a form
// added to one and not the other is a compile error, not a silent fallback.

import Settings
import Sinks

extension MQTTSinkConfiguration.DiscoveryFormat {
    /// The form `mqtt.discovery_format` asks for.
    package init(_ format: MQTTDiscoveryFormat) {
        switch format {
        case .device: self = .device
        case .entity: self = .entity
        }
    }
}
