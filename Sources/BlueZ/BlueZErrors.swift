// What can go wrong talking to BlueZ, one type per situation. Each `description` is one line:
// what was wrong and what to do about it (docs/design.md 3.1: no stack traces for expected errors).

import DBus

/// `org.bluez` is not on the bus (or the bus itself cannot be reached).
public struct BluetoothServiceUnavailable: Error, Sendable, CustomStringConvertible {
    public var detail: String
    public init(detail: String) { self.detail = detail }
    public var description: String {
        "BlueZ (org.bluez) is not available on the system bus (\(detail)): is bluetoothd running? "
            + "Start it with `sudo systemctl start bluetooth`"
    }
}

/// The bus refused us access to `org.bluez` (docs/bluez.md F20). The cause depends on who asked:
/// for a caller the bridge's policy names, the bus has not loaded that policy (it was not
/// installed, or dbus-daemon read it before the user existed: it then ignores the rule); for any
/// other caller, the policy does not name it.
public struct BluetoothAccessDenied: Error, Sendable, CustomStringConvertible {
    public var detail: String
    public var caller: BusCaller
    public init(detail: String, caller: BusCaller = .current()) {
        self.detail = detail
        self.caller = caller
    }

    /// Whom the bridge's D-Bus policy (dbus/aquavate-bridge.conf) lets call BlueZ.
    public static let policyUsers: Set<String> = ["aquavate"]
    public static let policyGroups: Set<String> = ["bluetooth"]

    public var description: String {
        if caller.isNamed(users: Self.policyUsers, groups: Self.policyGroups) {
            return "the system bus refused \(caller.user)'s call to BlueZ (org.bluez) although the bridge's D-Bus policy "
                + "allows this user: the bus has not loaded the policy (aquavate-bridge.conf missing from "
                + "/usr/share/dbus-1/system.d and /etc/dbus-1/system.d, or read before the user existed); "
                + "check the file is there, then `sudo systemctl reload dbus` (\(detail))"
        }
        return "the system bus refused \(caller.user)'s call to BlueZ (org.bluez): the bridge's D-Bus policy lets only "
            + "the service user aquavate and the `bluetooth` group call it; run as the service user "
            + "(`sudo -u aquavate aquavate-bridge …`) or join the group (`sudo usermod -aG bluetooth \(caller.user)`, "
            + "then log in again) (\(detail))"
    }
}

/// BlueZ knows no adapter at all.
public struct NoBluetoothAdapter: Error, Sendable, CustomStringConvertible {
    public init() {}
    public var description: String {
        "BlueZ has no Bluetooth adapter: plug one in, check `bluetoothctl list`, and that `rfkill list` shows it unblocked"
    }
}

/// `--adapter NAME` named an adapter BlueZ does not have.
public struct AdapterNotFound: Error, Sendable, CustomStringConvertible {
    public var name: String
    public var available: [String]
    public init(name: String, available: [String]) {
        self.name = name
        self.available = available
    }
    public var description: String {
        "no Bluetooth adapter \(name) in BlueZ; available: "
            + (available.isEmpty ? "none" : available.joined(separator: ", "))
    }
}

/// The adapter exists but is powered off (docs/bluez.md F14).
public struct AdapterPoweredOff: Error, Sendable, CustomStringConvertible {
    public var name: String
    public init(name: String) { self.name = name }
    public var description: String {
        "Bluetooth adapter \(name) is powered off: run `bluetoothctl power on` "
            + "(if that fails, `rfkill unblock bluetooth`)"
    }
}

/// The adapter cannot act as an LE central (its `Roles` lack "central").
public struct AdapterNotCentral: Error, Sendable, CustomStringConvertible {
    public var name: String
    public init(name: String) { self.name = name }
    public var description: String {
        "Bluetooth adapter \(name) cannot act as an LE central; use another adapter with --adapter"
    }
}

/// The device's object is gone from BlueZ (docs/bluez.md F5: never scanned, or removed after
/// `TemporaryTimeout`, or `RemoveDevice`). Scan again before connecting.
public struct DeviceVanished: Error, Sendable, CustomStringConvertible {
    public var device: String
    public init(device: String) { self.device = device }
    public var description: String {
        "the bottle \(device) is no longer known to BlueZ (it stopped advertising or was removed); it will be found at its next advertisement"
    }
}

/// Connecting failed after the retries of the connect state machine.
public struct ConnectFailed: Error, Sendable, CustomStringConvertible {
    public var device: String
    public var attempts: Int
    public var reason: String
    public init(device: String, attempts: Int, reason: String) {
        self.device = device
        self.attempts = attempts
        self.reason = reason
    }
    public var description: String {
        "could not connect to \(device) after \(attempts) attempt(s): \(reason); move the bottle closer or wake it by picking it up"
    }
}

/// Connecting took longer than the outer safety time-out (docs/bluez.md F18).
public struct ConnectTimedOut: Error, Sendable, CustomStringConvertible {
    public var device: String
    public var timeout: Duration
    public init(device: String, timeout: Duration) {
        self.device = device
        self.timeout = timeout
    }
    public var description: String {
        "connecting to \(device) did not finish within \(timeout) (BlueZ or the bottle stalled); the attempt was cancelled"
    }
}

/// The GATT database lacked characteristics the bridge needs even after waiting, and the stale
/// cache was removed (`RemoveDevice`, docs/bluez.md F7). The device must be found again.
public struct StaleGATTCache: Error, Sendable, CustomStringConvertible {
    public var device: String
    public var missing: [String]
    public init(device: String, missing: [String]) {
        self.device = device
        self.missing = missing
    }
    public var description: String {
        "\(device) resolved its services without \(missing.joined(separator: ", ")); BlueZ's cached copy was removed and the bottle will be rediscovered"
    }
}

/// The link ended while an operation needed it: disconnected, or the device object vanished.
public struct LinkLost: Error, Sendable, CustomStringConvertible, Equatable {
    public var device: String
    public var reason: LinkLoss
    public init(device: String, reason: LinkLoss) {
        self.device = device
        self.reason = reason
    }
    public var description: String { "the connection to \(device) ended: \(reason)" }
}

/// Why a link ended.
public enum LinkLoss: Sendable, Equatable, CustomStringConvertible {
    /// `Connected` went false (supervision time-out, the bottle slept, or a disconnect).
    case disconnected
    /// The device object was removed without `Connected=false` (docs/bluez.md 7.3).
    case vanished
    /// bluetoothd left the bus.
    case serviceLost
    /// We asked for it.
    case local

    public var description: String {
        switch self {
        case .disconnected: "disconnected"
        case .vanished: "the device object vanished from BlueZ"
        case .serviceLost: "bluetoothd left the bus"
        case .local: "disconnected by the bridge"
        }
    }
}

/// A GATT read, write or notify request failed with an error that is not a lost link.
public struct GATTOperationFailed: Error, Sendable, CustomStringConvertible {
    public var operation: String
    public var characteristic: String
    public var detail: String
    public init(operation: String, characteristic: String, detail: String) {
        self.operation = operation
        self.characteristic = characteristic
        self.detail = detail
    }
    public var description: String { "\(operation) of characteristic \(characteristic) failed: \(detail)" }
}

/// The device has no characteristic with that UUID.
public struct CharacteristicNotFound: Error, Sendable, CustomStringConvertible {
    public var uuid: String
    public var device: String
    public init(uuid: String, device: String) {
        self.uuid = uuid
        self.device = device
    }
    public var description: String { "\(device) has no characteristic \(uuid); is it an Aquavate bottle with current firmware?" }
}

extension DBusFailure {
    /// True for the replies that mean "the object is not there": BlueZ's UnknownObject, and
    /// UnknownMethod which a peer without the object (dbusmock) gives instead.
    var meansObjectGone: Bool {
        name == BlueZNames.Error.unknownObject || name == BlueZNames.Error.doesNotExist
    }

    /// True for the replies that mean the link is down.
    var meansNotConnected: Bool {
        name == BlueZNames.Error.notConnected
            || (name == BlueZNames.Error.failed && message.lowercased().contains("not connected"))
    }
}
