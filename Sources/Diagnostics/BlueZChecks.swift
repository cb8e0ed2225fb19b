// The doctor's D-Bus side: is bluetoothd on the system bus, may this user call it, which
// adapter would the bridge use, and is it powered (docs/bluez.md F14, F20, F21).
//
// One GetManagedObjects call answers three questions: it fails with AccessDenied when the D-Bus
// policy does not let this user talk to BlueZ (F20), and its tree holds the adapters and their
// `Powered` property. The system bus is whatever DBUS_SYSTEM_BUS_ADDRESS says, else the standard
// socket (docs/design.md 3.2), so tests point the doctor at a private bus.
import DBus
import Glibc

enum BlueZChecks {
    static let service = "org.bluez"
    static let adapterInterface = "org.bluez.Adapter1"

    /// The findings `system bus`, `bluetoothd`, `D-Bus permission`, `adapter`, `powered`, and
    /// one `kernel` warning per controller bluetoothd does not show.
    static func findings(
        systemBus: String, adapterSetting: String?, kernel: KernelBluetooth, timeout: Duration
    ) async -> [DoctorFinding] {
        let connection: BusConnection
        do {
            connection = try await BusConnection.connect(.address(systemBus))
        } catch {
            let reason = (error as? DBusConnectFailed)?.message ?? "\(error)"
            return [DoctorFinding(
                .fail, "system bus", "cannot connect to \(systemBus): \(reason)",
                fix: "sudo systemctl start dbus (or correct DBUS_SYSTEM_BUS_ADDRESS)")]
        }
        defer { Task { await connection.close() } }
        var findings = [DoctorFinding(.ok, "system bus", "connected to \(systemBus)")]

        let owner: String?
        do {
            owner = try await connection.nameOwner(service)
        } catch {
            findings.append(DoctorFinding(
                .fail, "bluetoothd", "cannot ask the bus who owns \(service): \(error)",
                fix: "sudo systemctl restart dbus"))
            return findings
        }
        guard let owner else {
            findings.append(DoctorFinding(
                .fail, "bluetoothd", "bluetoothd is not running on the system bus (nobody owns \(service))",
                fix: "sudo systemctl start bluetooth (install it first if needed: sudo apt install bluez)"))
            findings.append(DoctorFinding(
                .fail, "adapter", "unknown: without bluetoothd no adapter can be used",
                fix: "start bluetoothd first (see the bluetoothd line)"))
            return findings
        }
        findings.append(DoctorFinding(.ok, "bluetoothd", "\(service) is on the system bus (owner \(owner))"))

        let objects: [DBusObjectPath: [String: [String: DBusValue]]]
        do {
            objects = try await connection.managedObjects(destination: service, timeout: timeout)
        } catch let failure as DBusFailure where failure.name == DBusFailure.accessDeniedName {
            let user = currentUserName()
            findings.append(DoctorFinding(
                .fail, "D-Bus permission", "user \(user) may not call \(service) (AccessDenied)",
                fix: accessFix(for: .current(), user: user)))
            return findings
        } catch {
            findings.append(DoctorFinding(
                .fail, "bluetoothd", "bluetoothd did not answer GetManagedObjects: \(error)",
                fix: "sudo systemctl restart bluetooth"))
            return findings
        }
        findings.append(DoctorFinding(.ok, "D-Bus permission", "user \(currentUserName()) may call \(service)"))

        let adapters = objects.compactMap { path, interfaces -> Adapter? in
            guard let properties = interfaces[adapterInterface] else { return nil }
            return Adapter(path: path, properties: properties)
        }.sorted { $0.name < $1.name }
        findings += adapterFindings(adapters, setting: adapterSetting)

        if case .controllers(let controllers) = kernel {
            let shown = Set(adapters.map(\.name))
            for controller in controllers where !shown.contains(controller.name) {
                findings.append(DoctorFinding(
                    .warn, "kernel", "\(controller.name) exists in the kernel but bluetoothd does not show it",
                    fix: "sudo systemctl restart bluetooth"))
            }
        }
        return findings
    }

    /// One adapter object of BlueZ.
    struct Adapter {
        var path: DBusObjectPath
        var properties: [String: DBusValue]
        /// `hci0` for `/org/bluez/hci0`.
        var name: String { String(path.rawValue.split(separator: "/").last ?? "") }
        var powered: Bool? { properties["Powered"]?.bool }
        var address: String { properties["Address"]?.string ?? "address unknown" }
    }

    /// `adapter` and `powered` for the adapter the bridge would use: `bluetooth.adapter` when
    /// set, else the first powered one, else the first.
    static func adapterFindings(_ adapters: [Adapter], setting: String?) -> [DoctorFinding] {
        guard !adapters.isEmpty else {
            return [DoctorFinding(
                .fail, "adapter", "bluetoothd shows no Bluetooth adapter (no \(adapterInterface) object)",
                fix: "plug in a USB Bluetooth dongle or enable the built-in radio, then sudo systemctl restart "
                    + "bluetooth; see the kernel line")]
        }
        let names = adapters.map(\.name).joined(separator: ", ")
        let chosen: Adapter
        if let setting {
            guard let match = adapters.first(where: { $0.name == setting }) else {
                return [DoctorFinding(
                    .fail, "adapter", "\(setting) (bluetooth.adapter) is not there; bluetoothd shows \(names)",
                    fix: "aquavate-bridge config set bluetooth.adapter \(adapters[0].name), or config unset bluetooth.adapter")]
            }
            chosen = match
        } else {
            chosen = adapters.first { $0.powered == true } ?? adapters[0]
        }
        var findings = [DoctorFinding(
            .ok, "adapter", "\(chosen.name) (\(chosen.address))" + (adapters.count > 1 ? "; all: \(names)" : ""))]
        if chosen.powered == true {
            findings.append(DoctorFinding(.ok, "powered", "\(chosen.name) is powered on"))
        } else {
            findings.append(DoctorFinding(
                .fail, "powered", "\(chosen.name) is powered off",
                fix: "bluetoothctl power on (if it turns itself off again, check the rfkill line)"))
        }
        return findings
    }

    /// The login name of the effective user, else `uid N`.
    /// The fix for an AccessDenied: a user the bridge's policy names is refused only when the bus
    /// has not loaded the policy (not installed, or read before the user existed); anyone else
    /// must be named by it.
    static func accessFix(for caller: BusCaller, user: String) -> String {
        if caller.isNamed(users: ["aquavate"], groups: ["bluetooth"]) {
            return "the bridge's policy allows \(user) but the bus has not loaded it: check that aquavate-bridge.conf is in "
                + "/usr/share/dbus-1/system.d (the package) or /etc/dbus-1/system.d (sudo make install), "
                + "then sudo systemctl reload dbus"
        }
        return "sudo usermod -aG bluetooth \(user), then log out and in again (or run as the service user: "
            + "sudo -u aquavate aquavate-bridge doctor --service); the policy aquavate-bridge.conf must be installed "
            + "(the package puts it in /usr/share/dbus-1/system.d, sudo make install in /etc/dbus-1/system.d)"
    }

    static func currentUserName() -> String {
        let uid = geteuid()
        guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return "uid \(uid)" }
        return String(cString: name)
    }
}
