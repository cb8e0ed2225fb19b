// The error replies bluetoothd sends (src/error.c), with its names and texts, so that a client's
// error handling meets exactly what it will meet on a Raspberry Pi.
import DBus

enum BlueZError {
    static func notReady() -> DBusFailure { DBusFailure(name: "org.bluez.Error.NotReady", message: "Resource Not Ready") }
    static func inProgress() -> DBusFailure { DBusFailure(name: "org.bluez.Error.InProgress", message: "In Progress") }
    static func alreadyConnected() -> DBusFailure {
        DBusFailure(name: "org.bluez.Error.AlreadyConnected", message: "Already Connected")
    }
    static func notConnected() -> DBusFailure { DBusFailure(name: "org.bluez.Error.NotConnected", message: "Not Connected") }
    static func doesNotExist() -> DBusFailure { DBusFailure(name: "org.bluez.Error.DoesNotExist", message: "Does Not Exist") }
    static func notSupported() -> DBusFailure {
        DBusFailure(name: "org.bluez.Error.NotSupported", message: "Operation is not supported")
    }
    static func notPermitted(_ message: String) -> DBusFailure {
        DBusFailure(name: "org.bluez.Error.NotPermitted", message: message)
    }
    static func invalidArguments(_ message: String = "Invalid arguments in method call") -> DBusFailure {
        DBusFailure(name: "org.bluez.Error.InvalidArguments", message: message)
    }
    static func failed(_ message: String) -> DBusFailure { DBusFailure(name: "org.bluez.Error.Failed", message: message) }
    static func authenticationFailed() -> DBusFailure {
        DBusFailure(name: "org.bluez.Error.AuthenticationFailed", message: "Authentication Failed")
    }
    static func unknownObject(_ path: DBusObjectPath) -> DBusFailure {
        DBusFailure(name: DBusFailure.unknownObjectName, message: "No such object path '\(path)'")
    }

    /// The `Failed` text of an LE connection aborted by the local controller (RF trouble, or a
    /// connection cancelled by Disconnect): the error bleak retries after `Connected` goes false.
    static let abortByLocal = "le-connection-abort-by-local"
}
