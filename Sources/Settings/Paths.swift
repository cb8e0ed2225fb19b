// Default locations of the config file and the database (docs/design.md 3.2).

import Foundation

package enum BridgePaths {
    /// `$XDG_CONFIG_HOME/aquavate/bridge.toml` (XDG default `~/.config`).
    package static func defaultConfigFile(environment: [String: String] = ProcessEnvironment.current) -> String {
        let base = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (home(environment) + "/.config")
        return base + "/aquavate/bridge.toml"
    }

    /// `$XDG_DATA_HOME/aquavate/history.sqlite` (XDG default `~/.local/share`).
    package static func defaultDatabase(environment: [String: String] = ProcessEnvironment.current) -> String {
        let base = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (home(environment) + "/.local/share")
        return base + "/aquavate/history.sqlite"
    }

    private static func home(_ environment: [String: String]) -> String {
        environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
    }
}
