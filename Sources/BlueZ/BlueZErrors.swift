// What can go wrong talking to BlueZ, one type per situation. Each `description` is one line:
// what was wrong and what to do about it (docs/design.md 3.1: no stack traces for expected errors).

import DBus

/// `org.bluez` is not on the bus (or the bus itself cannot be reached).
package struct BluetoothServiceUnavailable: Error, Sendable, CustomStringConvertible {
    package var detail: String
    package init(detail: String) { self.detail = detail }
    package var description: String {
        "BlueZ (org.bluez) is not available on the system bus (\(detail)): is bluetoothd running? "
            + "Start it with `sudo systemctl start bluetooth`"
    }
}

/// The bus refused us access to `org.bluez` (docs/bluez.md F20). The cause depends on who asked:
/// for a caller the bridge's policy names, the bus has not loaded that policy (it was not
/// installed, or dbus-daemon read it before the user existed: it then ignores the rule); for any
/// other caller, the policy does not name it.
package struct BluetoothAccessDenied: Error, Sendable, CustomStringConvertible {
    package var detail: String
    package var caller: BusCaller
    package init(detail: String, caller: BusCaller = .current()) {
        self.detail = detail
        self.caller = caller
    }

    /// Whom the bridge's D-Bus policy (dbus/aquavate-bridge.conf) lets call BlueZ.
    package static let policyUsers: Set<String> = ["aquavate"]
    package static let policyGroups: Set<String> = ["bluetooth"]

    package var description: String {
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
package struct NoBluetoothAdapter: Error, Sendable, CustomStringConvertible {
    package init() {}
    package var description: String {
        "BlueZ has no Bluetooth adapter: plug one in, check `bluetoothctl list`, and that `rfkill list` shows it unblocked"
    }
}

/// `--adapter NAME` named an adapter BlueZ does not have.
package struct AdapterNotFound: Error, Sendable, CustomStringConvertible {
    package var name: String
    package var available: [String]
    package init(name: String, available: [String]) {
        self.name = name
        self.available = available
    }
    package var description: String {
        "no Bluetooth adapter \(name) in BlueZ; available: "
            + (available.isEmpty ? "none" : available.joined(separator: ", "))
    }
}

/// The adapter exists but is powered off (docs/bluez.md F14).
package struct AdapterPoweredOff: Error, Sendable, CustomStringConvertible {
    package var name: String
    package init(name: String) { self.name = name }
    package var description: String {
        "Bluetooth adapter \(name) is powered off: run `bluetoothctl power on` "
            + "(if that fails, `rfkill unblock bluetooth`)"
    }
}

/// The adapter cannot act as an LE central (its `Roles` lack "central").
package struct AdapterNotCentral: Error, Sendable, CustomStringConvertible {
    package var name: String
    package init(name: String) { self.name = name }
    package var description: String {
        "Bluetooth adapter \(name) cannot act as an LE central; use another adapter with --adapter"
    }
}

/// The device's object is gone from BlueZ (docs/bluez.md F5: never scanned, or removed after
/// `TemporaryTimeout`, or `RemoveDevice`). Scan again before connecting.
package struct DeviceVanished: Error, Sendable, CustomStringConvertible {
    package var device: String
    package init(device: String) { self.device = device }
    package var description: String {
        "the bottle \(device) is no longer known to BlueZ (it stopped advertising or was removed); it will be found at its next advertisement"
    }
}

/// Connecting failed after the retries of the connect state machine.
package struct ConnectFailed: Error, Sendable, CustomStringConvertible {
    package var device: String
    package var attempts: Int
    package var reason: String
    package init(device: String, attempts: Int, reason: String) {
        self.device = device
        self.attempts = attempts
        self.reason = reason
    }
    package var description: String {
        "could not connect to \(device) after \(attempts) attempt(s): \(reason); move the bottle closer or wake it by picking it up"
    }
}

/// Connecting took longer than the outer safety time-out (docs/bluez.md F18).
package struct ConnectTimedOut: Error, Sendable, CustomStringConvertible {
    package var device: String
    package var timeout: Duration
    package init(device: String, timeout: Duration) {
        self.device = device
        self.timeout = timeout
    }
    package var description: String {
        "connecting to \(device) did not finish within \(timeout) (BlueZ or the bottle stalled); the attempt was cancelled"
    }
}

/// The GATT database lacked characteristics the bridge needs even after waiting, and the stale
/// cache was removed (`RemoveDevice`, docs/bluez.md F7). The device must be found again.
package struct StaleGATTCache: Error, Sendable, CustomStringConvertible {
    package var device: String
    package var missing: [String]
    package init(device: String, missing: [String]) {
        self.device = device
        self.missing = missing
    }
    package var description: String {
        "\(device) resolved its services without \(missing.joined(separator: ", ")); BlueZ's cached copy was removed and the bottle will be rediscovered"
    }
}

/// The link ended while an operation needed it: disconnected, or the device object vanished.
package struct LinkLost: Error, Sendable, CustomStringConvertible, Equatable {
    package var device: String
    package var reason: LinkLoss
    package init(device: String, reason: LinkLoss) {
        self.device = device
        self.reason = reason
    }
    package var description: String { "the connection to \(device) ended: \(reason)" }
}

/// Why a link ended.
package enum LinkLoss: Sendable, Equatable, CustomStringConvertible {
    /// `Connected` went false (supervision time-out, the bottle slept, or a disconnect).
    case disconnected
    /// The device object was removed without `Connected=false` (docs/bluez.md 7.3).
    case vanished
    /// bluetoothd left the bus.
    case serviceLost
    /// We asked for it.
    case local

    package var description: String {
        switch self {
        case .disconnected: "disconnected"
        case .vanished: "the device object vanished from BlueZ"
        case .serviceLost: "bluetoothd left the bus"
        case .local: "disconnected by the bridge"
        }
    }
}

/// A GATT read, write or notify request failed with an error that is not a lost link.
package struct GATTOperationFailed: Error, Sendable, CustomStringConvertible {
    package var operation: String
    package var characteristic: String
    package var detail: String
    package init(operation: String, characteristic: String, detail: String) {
        self.operation = operation
        self.characteristic = characteristic
        self.detail = detail
    }
    package var description: String { "\(operation) of characteristic \(characteristic) failed: \(detail)" }
}

/// The device has no characteristic with that UUID.
package struct CharacteristicNotFound: Error, Sendable, CustomStringConvertible {
    package var uuid: String
    package var device: String
    package init(uuid: String, device: String) {
        self.uuid = uuid
        self.device = device
    }
    package var description: String { "\(device) has no characteristic \(uuid); is it an Aquavate bottle with current firmware?" }
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
