// One daemon per Bluetooth stack, whoever started it. The lock file of `InstanceLock` protects
// the daemons that look in the same place; the service (/run/aquavate-bridge) and a `run` started
// by hand by a user (/run/user/UID) do not. Both talk to the same bluetoothd, so they are claimed
// here too: a listening socket in Linux's abstract namespace, named after the bus BlueZ is on
// (so bridges on separate private buses, as in the tests, do not exclude each other). The kernel
// frees the name with the process, however it ends; a second daemon that finds it taken connects
// and asks the kernel who listens (SO_PEERCRED), so it can name the PID.

import Foundation
import Glibc

public final class BusClaim: Sendable {
    public let name: String
    private let descriptor: Int32

    private init(name: String, descriptor: Int32) {
        self.name = name
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// The claim's name for the bus at `busAddress` (nil: the system bus).
    public static func name(busAddress: String?) -> String {
        "aquavate-bridge@" + (busAddress ?? "system")
    }

    /// Claims `name` without waiting.
    /// - Throws: `InstanceLockHeld` naming the holder's PID when another process has it,
    ///   `InstanceLockFailed` when the socket cannot be made.
    public static func claim(_ name: String) throws -> BusClaim {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw InstanceLockFailed(path: "@" + name, reason: String(cString: strerror(errno))) }
        let (address, length) = abstractAddress(name)
        var bound = address
        let result = withUnsafePointer(to: &bound) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        guard result == 0, listen(descriptor, 4) == 0 else {
            let code = errno
            close(descriptor)
            if code == EADDRINUSE { throw InstanceLockHeld(path: "the Bluetooth stack (@\(name))", pid: holder(of: name)) }
            throw InstanceLockFailed(path: "@" + name, reason: String(cString: strerror(code)))
        }
        return BusClaim(name: name, descriptor: descriptor)
    }

    /// The PID listening on `name`, from the kernel (SO_PEERCRED of a connection to it).
    private static func holder(of name: String) -> Int32? {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var (address, length) = abstractAddress(name)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, length) }
        }
        guard connected == 0 else { return nil }
        // struct ucred { pid_t pid; uid_t uid; gid_t gid; } (Glibc's module hides it behind
        // _GNU_SOURCE): the same three 32-bit fields.
        var credentials: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)
        var size = socklen_t(MemoryLayout.size(ofValue: credentials))
        guard getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &size) == 0, credentials.pid > 0 else { return nil }
        return credentials.pid
    }

    /// `sockaddr_un` for an abstract name: a leading NUL, then the name (not NUL-terminated); the
    /// length counts exactly those bytes. Names longer than the 107 bytes that fit are cut.
    private static func abstractAddress(_ name: String) -> (sockaddr_un, socklen_t) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = [UInt8(0)] + Array(name.utf8).prefix(MemoryLayout.size(ofValue: address.sun_path) - 1)
        withUnsafeMutableBytes(of: &address.sun_path) { path in
            for (index, byte) in bytes.enumerated() { path[index] = byte }
        }
        let length = MemoryLayout<sa_family_t>.size + bytes.count
        return (address, socklen_t(length))
    }
}
