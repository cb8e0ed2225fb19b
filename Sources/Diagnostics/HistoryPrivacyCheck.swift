// Can other local users read the history? It holds the drinks and the secrets `config set`
// stored (`web.token`, `push.token`), and SQLite's `-wal` holds the latest of them in clear too.
// The bridge creates them private (History's PrivateFiles: 0600 files in a 0700 folder), but a
// history made by an older version, copied, or restored may not be. A file anyone may read is a
// warning; group-readable only when the group is not the bridge's own (the service's files belong
// to the group aquavate); the folder when others may list or enter it.
import Foundation
import Glibc

enum HistoryPrivacyCheck {
    static let subject = "history privacy"

    /// Nothing when the database does not exist yet (the bridge will create it private).
    static func findings(databasePath path: String, ownGroups: Set<String>) -> [DoctorFinding] {
        var status = stat()
        guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return [] }
        var findings: [DoctorFinding] = []
        var open: [String] = []
        var shown: [String] = []
        for file in [path, path + "-wal", path + "-shm"] {
            var fileStatus = stat()
            guard stat(file, &fileStatus) == 0 else { continue }
            let world = fileStatus.st_mode & (S_IROTH | S_IWOTH) != 0
            let group = SecretFileCheck.groupName(fileStatus.st_gid)
            let foreignGroup = fileStatus.st_mode & (S_IRGRP | S_IWGRP) != 0 && !ownGroups.contains(group)
            if world || foreignGroup {
                open.append(file)
                shown.append("\(file) (mode \(String(fileStatus.st_mode & 0o777, radix: 8)), \(world ? "every user" : "group \(group)"))")
            }
        }
        if !open.isEmpty {
            findings.append(DoctorFinding(
                .warn, subject, "other users can read the history and the secrets stored in it: \(shown.joined(separator: ", "))",
                fix: "chmod 600 " + open.joined(separator: " ")))
        }
        let folder = (path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent
        var folderStatus = stat()
        // Only a folder of the history's owner: a shared one (/tmp) is not the bridge's to close.
        if stat(folder, &folderStatus) == 0, folderStatus.st_uid == status.st_uid,
           folderStatus.st_mode & (S_IROTH | S_IWOTH | S_IXOTH) != 0 {
            findings.append(DoctorFinding(
                .warn, subject, "every user can enter the history's folder \(folder) (mode \(String(folderStatus.st_mode & 0o777, radix: 8)))",
                fix: "chmod 700 \(folder)"))
        }
        if findings.isEmpty {
            findings.append(DoctorFinding(.ok, subject, "\(path) and its folder are closed to other users"))
        }
        return findings
    }
}
