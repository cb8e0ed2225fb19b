// One daemon per Bluetooth stack, whoever started it. The lock file of `InstanceLock` protects
// the daemons that look in the same place; the service (/run/aquavate-bridge) and a `run` started
// by hand by a user (/run/user/UID) do not. Both talk to the same bluetoothd, so they are claimed
// here too: a listening socket in Linux's abstract namespace, named after the bus BlueZ is on
// (so bridges on separate private buses, as in the tests, do not exclude each other). The kernel
// frees the name with the process, however it ends; a second daemon that finds it taken connects
// and asks the kernel who listens (SO_PEERCRED), so it can name the PID.
//
// An abstract name has no permissions: any local user can bind it first. So the holder is believed
// only when it is someone who may run the bridge against BlueZ: this user, root, the service's
// user `aquavate`, or a member of the group `bluetooth` (the D-Bus policy's, dbus/aquavate-bridge.conf).
// A name held by anyone else is a squatter (one `socat ABSTRACT-LISTEN` could stop the
// service): the daemon says so in one line and goes on without the claim.

import Foundation
import Glibc

package final class BusClaim: Sendable {
    package let name: String
    private let descriptor: Int32
    /// Someone without the right to held the name (then this claim holds nothing): the process
    /// when the kernel named it (nil: bound, but not listening, so it cannot be asked).
    package let squatted: Bool
    package let squatter: Holder?

    package struct Holder: Sendable, Equatable {
        package var pid: Int32
        package var uid: UInt32
    }

    private init(name: String, descriptor: Int32, squatted: Bool = false, squatter: Holder? = nil) {
        self.name = name
        self.descriptor = descriptor
        self.squatted = squatted
        self.squatter = squatter
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    /// The one line saying that a squatter holds the name (nil when the claim is ours).
    package var squatterWarning: String? {
        guard squatted else { return nil }
        let who = squatter.map { "PID \($0.pid) of user \(Self.userName($0.uid)), who may not run the bridge" }
            ?? "a process that does not answer (not a bridge)"
        return "the Bluetooth stack's claim @\(name) is held by \(who): ignored; a second bridge started by another user will not be refused"
    }

    /// The claim's name for the bus at `busAddress` (nil: the system bus).
    package static func name(busAddress: String?) -> String {
        "aquavate-bridge@" + (busAddress ?? "system")
    }

    /// Claims `name` without waiting.
    /// - Throws: `InstanceLockHeld` naming the holder's PID when another process has it,
    ///   `InstanceLockFailed` when the socket cannot be made.
    package static func claim(_ name: String) throws -> BusClaim {
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
            if code == EADDRINUSE {
                // A bridge listens as soon as it has bound; a name bound without listening, or
                // held by a user who may not run the bridge, is not a bridge's.
                guard let holder = holder(of: name), mayRunTheBridge(uid: holder.uid) else {
                    return BusClaim(name: name, descriptor: -1, squatted: true, squatter: holder(of: name))
                }
                throw InstanceLockHeld(path: "the Bluetooth stack (@\(name))", pid: holder.pid)
            }
            throw InstanceLockFailed(path: "@" + name, reason: String(cString: strerror(code)))
        }
        return BusClaim(name: name, descriptor: descriptor)
    }

    /// May the user `uid` run the bridge against BlueZ (so its claim is believed)? This user,
    /// root, the service's user, and the members of the D-Bus policy's group `bluetooth`.
    static func mayRunTheBridge(uid: UInt32) -> Bool {
        if uid == 0 || uid == geteuid() { return true }
        if let service = getpwnam(serviceUser), service.pointee.pw_uid == uid { return true }
        guard let group = getgrnam(bridgeGroup), let user = getpwuid(uid), let userName = user.pointee.pw_name else { return false }
        let groupID = group.pointee.gr_gid
        if user.pointee.pw_gid == groupID { return true }
        var count: Int32 = 64
        var groups = [gid_t](repeating: 0, count: Int(count))
        if getgrouplist(userName, user.pointee.pw_gid, &groups, &count) < 0 {
            groups = [gid_t](repeating: 0, count: Int(count))
            _ = getgrouplist(userName, user.pointee.pw_gid, &groups, &count)
        }
        return groups.prefix(Int(max(0, count))).contains(groupID)
    }

    static let serviceUser = "aquavate"
    static let bridgeGroup = "bluetooth"

    private static func userName(_ uid: UInt32) -> String {
        guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return String(uid) }
        return "\(String(cString: name)) (\(uid))"
    }

    /// The process listening on `name`, from the kernel (SO_PEERCRED of a connection to it).
    private static func holder(of name: String) -> Holder? {
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
        return Holder(pid: credentials.pid, uid: credentials.uid)
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
