// The gate the daemon gives its sinks (SettingAccess): a sink may set only the person's settings.
// Here rather than beside `refusalFromSink`, so that the configuration knows nothing of the sinks.

import Settings
import Sinks

extension SettingCatalog {
    /// The gate the daemon gives its sinks: settings by `refusalFromSink`, everything else passes.
    public static let sinkCommandGate = SinkCommandGate { command in
        guard case let .configSet(key, value) = command else { return nil }
        return refusalFromSink(key: key, value: value)
    }
}
