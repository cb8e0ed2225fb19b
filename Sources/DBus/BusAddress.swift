// Which bus to connect to, and how its address is found.
//
// The address is resolved each time a connection is opened, from the environment as it is
// then: a test that points DBUS_SYSTEM_BUS_ADDRESS at a private bus gets that bus, unlike
// libdbus's `dbus_bus_get`, which reads the variable once per process and caches the connection.
import Glibc

package enum BusAddress: Hashable, Sendable, CustomStringConvertible {
    /// `DBUS_SYSTEM_BUS_ADDRESS`, else the standard system bus socket.
    case system
    /// `DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus`.
    case session
    /// A D-Bus server address such as `unix:path=/tmp/x/bus.sock`.
    case address(String)

    package static let defaultSystemAddress = "unix:path=/var/run/dbus/system_bus_socket"

    package var description: String {
        switch self {
        case .system: "the system bus"
        case .session: "the session bus"
        case .address(let address): address
        }
    }

    /// The address to open, looking variables up with `environment`.
    package func resolve(environment: (String) -> String? = BusAddress.processEnvironment) throws -> String {
        func variable(_ name: String) -> String? {
            guard let value = environment(name), !value.isEmpty else { return nil }
            return value
        }
        switch self {
        case .system:
            return variable("DBUS_SYSTEM_BUS_ADDRESS") ?? Self.defaultSystemAddress
        case .session:
            if let address = variable("DBUS_SESSION_BUS_ADDRESS") { return address }
            if let runtime = variable("XDG_RUNTIME_DIR") { return "unix:path=\(runtime)/bus" }
            throw DBusConnectFailed(
                address: "(none)", name: "org.freedesktop.DBus.Error.NotSupported",
                message: "neither DBUS_SESSION_BUS_ADDRESS nor XDG_RUNTIME_DIR is set")
        case .address(let address):
            return address
        }
    }

    /// The process environment, read now.
    package static func processEnvironment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
