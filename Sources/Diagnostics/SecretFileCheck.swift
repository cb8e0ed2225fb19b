// Does a config file that holds a secret (push.token, a password in mqtt.url or push.url) let
// others read it? Anyone who can read the token can push to the person's phone, and the broker
// password opens Home Assistant's broker. World-readable is always a warning; group-readable
// only when the group is not the bridge's own (the service's file is root:aquavate 0640 by
// design: install.sh, so the service can read it and nobody else).
import Foundation
import Glibc
import Settings

enum SecretFileCheck {
    /// Nil when the file holds no secret or only its owner (and the bridge's own group) may read it.
    /// - Parameters:
    ///   - ownGroups: groups that may read it: the checking user's and the service's.
    ///   - serviceGroup: the service's group (`aquavate`), whose file stays group-readable.
    static func finding(path: String, configuration: Configuration, ownGroups: Set<String>,
                        serviceGroup: String?) -> DoctorFinding? {
        let secrets = SettingCatalog.keys.filter { key in
            guard let value = configuration.fileValues[key.name] else { return false }
            return key.isSecret || Redaction.url(value) != value
        }.map(\.name)
        guard !secrets.isEmpty else { return nil }
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        let worldReadable = status.st_mode & S_IROTH != 0
        let group = groupName(status.st_gid)
        let foreignGroupReadable = status.st_mode & S_IRGRP != 0 && !ownGroups.contains(group)
        guard worldReadable || foreignGroupReadable else { return nil }
        let mode = String(status.st_mode & 0o777, radix: 8)
        let who = worldReadable ? "every user" : "group \(group)"
        let fix = group == serviceGroup ? "chmod 640 \(path)" : "chmod 600 \(path)"
        return DoctorFinding(
            .warn, "config secrets",
            "\(path) holds \(secrets.joined(separator: ", ")) and is readable by \(who) (mode \(mode))", fix: fix)
    }

    static func groupName(_ gid: gid_t) -> String {
        guard let entry = getgrgid(gid), let name = entry.pointee.gr_name else { return String(gid) }
        return String(cString: name)
    }
}
