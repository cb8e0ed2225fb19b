// BlueZ's D-Bus names (bluez/bluez doc/*.rst): the service, its interfaces and the error names
// the client reacts to. Kept in one place so that every workaround names the same strings.

/// Names of `org.bluez` on the system bus.
package enum BlueZNames {
    package static let service = "org.bluez"
    package static let root: String = "/org/bluez"

    package static let adapterInterface = "org.bluez.Adapter1"
    package static let deviceInterface = "org.bluez.Device1"
    package static let serviceInterface = "org.bluez.GattService1"
    package static let characteristicInterface = "org.bluez.GattCharacteristic1"
    package static let batteryInterface = "org.bluez.Battery1"
    package static let objectManagerInterface = "org.freedesktop.DBus.ObjectManager"
    package static let propertiesInterface = "org.freedesktop.DBus.Properties"

    /// Error names BlueZ replies with (src/error.h).
    package enum Error {
        package static let failed = "org.bluez.Error.Failed"
        package static let inProgress = "org.bluez.Error.InProgress"
        package static let notReady = "org.bluez.Error.NotReady"
        package static let notConnected = "org.bluez.Error.NotConnected"
        package static let alreadyConnected = "org.bluez.Error.AlreadyConnected"
        package static let doesNotExist = "org.bluez.Error.DoesNotExist"
        package static let notPermitted = "org.bluez.Error.NotPermitted"
        package static let notAuthorized = "org.bluez.Error.NotAuthorized"
        package static let notSupported = "org.bluez.Error.NotSupported"
        package static let unknownObject = "org.freedesktop.DBus.Error.UnknownObject"
        package static let unknownMethod = "org.freedesktop.DBus.Error.UnknownMethod"
        package static let serviceUnknown = "org.freedesktop.DBus.Error.ServiceUnknown"
        package static let nameHasNoOwner = "org.freedesktop.DBus.Error.NameHasNoOwner"
        package static let accessDenied = "org.freedesktop.DBus.Error.AccessDenied"
    }

    /// Messages carried in `org.bluez.Error.Failed` for LE connects (src/error.h:49-67).
    package enum ConnectFailure {
        package static let abortByLocal = "le-connection-abort-by-local"
    }
}
