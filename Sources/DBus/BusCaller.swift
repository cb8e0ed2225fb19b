// Who this process is to the system bus's policy: dbus-daemon decides a call by the caller's
// user and groups (`<policy user=…>`, `<policy group=…>`), so an AccessDenied means something
// different for a caller a policy names (the policy is not loaded) and for one it does not (the
// caller is not in it). The groups are the process's own, which is what the bus sees.
import Glibc

package struct BusCaller: Sendable, Equatable {
    /// The user name, or "uid N" when the user database has none.
    package var user: String
    /// The names of the process's groups (primary and supplementary).
    package var groups: Set<String>

    package init(user: String, groups: Set<String>) {
        self.user = user
        self.groups = groups
    }

    /// This process.
    package static func current() -> BusCaller {
        let uid = geteuid()
        let user = getpwuid(uid).flatMap { $0.pointee.pw_name.map { String(cString: $0) } } ?? "uid \(uid)"
        var ids = [gid_t](repeating: 0, count: Int(max(0, getgroups(0, nil))))
        let count = ids.isEmpty ? 0 : getgroups(Int32(ids.count), &ids)
        let names = ([getegid()] + ids.prefix(Int(max(0, count)))).compactMap { id in
            getgrgid(id).flatMap { $0.pointee.gr_name.map { String(cString: $0) } }
        }
        return BusCaller(user: user, groups: Set(names))
    }

    /// True when a policy with these `<policy user=…>` and `<policy group=…>` entries applies.
    package func isNamed(users: Set<String>, groups named: Set<String>) -> Bool {
        users.contains(user) || !groups.isDisjoint(with: named)
    }
}
