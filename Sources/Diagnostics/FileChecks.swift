// Can the bridge write its history database and read its config file?
//
// SQLite writes next to the database (the WAL and its index), so the folder must be writable
// too, not just the file. A database that does not exist yet is fine when the bridge can create
// it: DrinkHistory creates missing folders, so the nearest existing ancestor must be a folder it
// may write. `access()` is asked rather than the mode bits read, so ACLs, read-only mounts and
// root count as they will when the bridge runs.
import Foundation
import Glibc
import History
import Settings

enum FileChecks {
    static func database(path: String) -> DoctorFinding {
        let subject = "database"
        let user = BlueZChecks.currentUserName()
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
            if isFolder.boolValue {
                return DoctorFinding(.fail, subject, "\(path) is a folder, not a database file",
                                     fix: "give --db the path of a file, e.g. \(path)/history.sqlite")
            }
            if let problem = accessProblem(path, R_OK | W_OK) {
                return DoctorFinding(.fail, subject, "user \(user) cannot write \(path): \(problem)",
                                     fix: "sudo chown \(user) \(path), or use --db with a path you own")
            }
            let folder = (path as NSString).deletingLastPathComponent
            if let problem = accessProblem(folder.isEmpty ? "." : folder, W_OK | X_OK) {
                return DoctorFinding(
                    .fail, subject, "user \(user) cannot write the folder \(folder) that SQLite needs next to \(path): \(problem)",
                    fix: "sudo chown \(user) \(folder), or move the database with --db")
            }
            return DoctorFinding(.ok, subject, "\(path) is writable")
        }
        var ancestor = (path as NSString).deletingLastPathComponent
        while !ancestor.isEmpty, ancestor != "/", !FileManager.default.fileExists(atPath: ancestor) {
            ancestor = (ancestor as NSString).deletingLastPathComponent
        }
        if ancestor.isEmpty { ancestor = "." }
        guard FileManager.default.fileExists(atPath: ancestor, isDirectory: &isFolder), isFolder.boolValue else {
            return DoctorFinding(.fail, subject, "cannot create \(path): \(ancestor) is a file, not a folder",
                                 fix: "choose a --db path in a folder")
        }
        if let problem = accessProblem(ancestor, W_OK | X_OK) {
            return DoctorFinding(.fail, subject, "user \(user) cannot create \(path): \(ancestor) is not writable (\(problem))",
                                 fix: "use --db with a path you own, or sudo chown \(user) \(ancestor)")
        }
        return DoctorFinding(.ok, subject, "\(path) does not exist yet and can be created")
    }

    /// Nil when `access(path, mode)` succeeds, else the reason.
    static func accessProblem(_ path: String, _ mode: Int32) -> String? {
        access(path, mode) == 0 ? nil : String(cString: strerror(errno))
    }

    /// Loads the configuration as the bridge would (file, then `config set` values from an
    /// existing database, then `--set`), and says whether that worked.
    ///
    /// The database is opened only when this user owns it: opening a SQLite database in WAL mode
    /// creates its `-wal` and `-shm` files, and if root created them (`sudo aquavate-bridge doctor
    /// --service`) the service's user could no longer write its own history.
    static func configuration(
        path: String, mustExist: Bool, databasePath: String, overrides: [String]
    ) -> (DoctorFinding, Configuration) {
        let subject = "config"
        var configuration: Configuration
        do {
            configuration = try Configuration.load(file: path, mustExist: mustExist)
        } catch {
            return (DoctorFinding(.fail, subject, error.description, fix: "fix or create \(path)"), Configuration())
        }
        var unreadStoredValues: String?
        var status = stat()
        if stat(databasePath, &status) == 0 {
            if status.st_uid != geteuid() {
                unreadStoredValues = "settings saved with `config set` were not read: \(databasePath) belongs to another user"
            } else if let history = try? DrinkHistory(path: databasePath), let stored = try? history.settings.all() {
                configuration.useStoredValues(stored)
            } else {
                unreadStoredValues = "settings saved with `config set` could not be read from \(databasePath)"
            }
        }
        for assignment in overrides {
            do {
                try configuration.applyOverride(assignment)
            } catch {
                return (DoctorFinding(.fail, subject, "--set \(Redaction.assignment(assignment)): \(error.description)",
                                      fix: "correct the --set option"), configuration)
            }
        }
        if let first = configuration.warnings.first {
            let more = configuration.warnings.count > 1 ? " (and \(configuration.warnings.count - 1) more)" : ""
            return (DoctorFinding(.warn, subject, first + more, fix: "edit \(path)"), configuration)
        }
        if let unreadStoredValues {
            return (DoctorFinding(.warn, subject, unreadStoredValues,
                                  fix: "run the doctor as the database's owner (the service: sudo -u aquavate aquavate-bridge doctor --service)"),
                    configuration)
        }
        let exists = FileManager.default.fileExists(atPath: path)
        let detail = exists ? "\(path) loads without problems" : "\(path) does not exist; the defaults apply"
        return (DoctorFinding(.ok, subject, detail), configuration)
    }
}
