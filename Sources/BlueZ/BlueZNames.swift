// BlueZ's D-Bus names (bluez/bluez doc/*.rst): the service, its interfaces and the error names
// the client reacts to. Kept in one place so that every workaround names the same strings.

/// Names of `org.bluez` on the system bus.
public enum BlueZNames {
    public static let service = "org.bluez"
    public static let root: String = "/org/bluez"

    public static let adapterInterface = "org.bluez.Adapter1"
    public static let deviceInterface = "org.bluez.Device1"
    public static let serviceInterface = "org.bluez.GattService1"
    public static let characteristicInterface = "org.bluez.GattCharacteristic1"
    public static let batteryInterface = "org.bluez.Battery1"
    public static let objectManagerInterface = "org.freedesktop.DBus.ObjectManager"
    public static let propertiesInterface = "org.freedesktop.DBus.Properties"

    /// Error names BlueZ replies with (src/error.h).
    public enum Error {
        public static let failed = "org.bluez.Error.Failed"
        public static let inProgress = "org.bluez.Error.InProgress"
        public static let notReady = "org.bluez.Error.NotReady"
        public static let notConnected = "org.bluez.Error.NotConnected"
        public static let alreadyConnected = "org.bluez.Error.AlreadyConnected"
        public static let doesNotExist = "org.bluez.Error.DoesNotExist"
        public static let notPermitted = "org.bluez.Error.NotPermitted"
        public static let notAuthorized = "org.bluez.Error.NotAuthorized"
        public static let notSupported = "org.bluez.Error.NotSupported"
        public static let unknownObject = "org.freedesktop.DBus.Error.UnknownObject"
        public static let unknownMethod = "org.freedesktop.DBus.Error.UnknownMethod"
        public static let serviceUnknown = "org.freedesktop.DBus.Error.ServiceUnknown"
        public static let nameHasNoOwner = "org.freedesktop.DBus.Error.NameHasNoOwner"
        public static let accessDenied = "org.freedesktop.DBus.Error.AccessDenied"
    }

    /// Messages carried in `org.bluez.Error.Failed` for LE connects (src/error.h:49-67).
    public enum ConnectFailure {
        public static let abortByLocal = "le-connection-abort-by-local"
    }
}
