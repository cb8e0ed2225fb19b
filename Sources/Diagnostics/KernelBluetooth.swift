// What the kernel itself says about Bluetooth, through libbluetooth: things D-Bus cannot say.
//
// bluetoothd on D-Bus only shows what it manages. Two failures are invisible from there:
//   * no Bluetooth in the kernel at all (module not loaded, `dtoverlay=disable-bt` on a Pi, or a
//     container with its own network namespace: the kernel refuses AF_BLUETOOTH sockets outside
//     the initial namespace with EAFNOSUPPORT) — bluetoothd then simply shows no adapter;
//   * a controller (hciN) the kernel has but bluetoothd does not show (bluetoothd started before
//     it, or lost it after a USB reset).
// The probe opens a raw HCI socket and asks for each controller's info (HCIGETDEVINFO); it needs
// no privilege.
import CBluetooth
import Glibc

/// One HCI controller as the kernel sees it.
package struct HCIController: Sendable, Equatable {
    /// `hci0`, `hci1`, …
    package var name: String
    /// `AA:BB:CC:DD:EE:FF`.
    package var address: String
    /// True when the HCI device is up (HCI_UP).
    package var isUp: Bool

    package init(name: String, address: String, isUp: Bool) {
        self.name = name
        self.address = address
        self.isUp = isUp
    }
}

/// The answer of the kernel probe.
package enum KernelBluetooth: Sendable, Equatable {
    /// `socket(AF_BLUETOOTH, …)` failed with EAFNOSUPPORT: no Bluetooth here at all.
    case noBluetoothSockets
    /// The socket could not be opened for another reason (errno).
    case socketFailed(errno: Int32)
    /// Bluetooth sockets work; these controllers exist (possibly none).
    case controllers([HCIController])

    /// Asks the kernel now.
    package static func probe() -> KernelBluetooth {
        let descriptor = socket(AF_BLUETOOTH, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue), BTPROTO_HCI)
        guard descriptor >= 0 else {
            let error = errno
            return error == EAFNOSUPPORT ? .noBluetoothSockets : .socketFailed(errno: error)
        }
        close(descriptor)
        var found: [HCIController] = []
        for id in 0..<Int32(HCI_MAX_DEV) {
            var info = hci_dev_info()
            guard hci_devinfo(id, &info) == 0 else { continue }
            found.append(controller(from: info))
        }
        return .controllers(found)
    }

    private static func controller(from info: hci_dev_info) -> HCIController {
        var info = info
        let name = withUnsafeBytes(of: &info.name) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        var text = [CChar](repeating: 0, count: 18)
        _ = ba2str(&info.bdaddr, &text)
        let address = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let isUp = info.flags & (UInt32(1) << UInt32(HCI_UP)) != 0
        return HCIController(name: name, address: address, isUp: isUp)
    }

    /// The doctor's line for this answer.
    package var finding: DoctorFinding {
        switch self {
        case .noBluetoothSockets:
            return DoctorFinding(
                .fail, "kernel",
                "no Bluetooth here: socket(AF_BLUETOOTH) failed with EAFNOSUPPORT, so the kernel has no Bluetooth "
                    + "support loaded, or this runs in a container with its own network namespace",
                fix: "sudo modprobe bluetooth btusb (Raspberry Pi: remove dtoverlay=disable-bt from "
                    + "/boot/firmware/config.txt and reboot); in a container, use the host's network (--network host)")
        case .socketFailed(let error):
            return DoctorFinding(
                .warn, "kernel", "cannot open a Bluetooth socket: \(String(cString: strerror(error))) (errno \(error))",
                fix: "run the doctor outside any sandbox to check the kernel's Bluetooth")
        case .controllers(let controllers) where controllers.isEmpty:
            return DoctorFinding(
                .fail, "kernel", "Bluetooth is in the kernel but it sees no controller (no hciN device)",
                fix: "plug in a USB Bluetooth dongle and check `dmesg | grep -i bluetooth`; Raspberry Pi built-in "
                    + "radio: sudo systemctl restart hciuart")
        case .controllers(let controllers):
            let list = controllers.map { "\($0.name) (\($0.isUp ? "up" : "down"), \($0.address))" }
            return DoctorFinding(.ok, "kernel", "Bluetooth controller(s): " + list.joined(separator: ", "))
        }
    }
}
