// The history holds the person's drinks and the secrets stored with `config set` (`web.token`,
// `push.token`), so it is created for its owner alone: the database 0600 and any folder made for
// it 0700, whatever the umask (`config set web.token` run by hand used to write a 0644 database
// in a 0755 folder, readable by every local user). SQLite gives the `-wal` and `-shm` files the
// database's own mode when it creates them, so they follow. Existing files and folders are left as
// they are: `doctor` says when they are open to others, and how to close them.

import Glibc

enum PrivateFiles {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Creates the missing folders of `path` (and their missing parents), each 0700.
    static func createFolders(_ path: String) throws(Failure) {
        var missing: [String] = []
        var current = path
        while !current.isEmpty, current != "/", !exists(current) {
            missing.append(current)
            current = parent(current)
        }
        for folder in missing.reversed() {
            if mkdir(folder, 0o700) != 0, errno != EEXIST {
                throw Failure(description: "cannot create \(folder): \(String(cString: strerror(errno)))")
            }
            // The umask may have taken bits away (0o277 would leave it unwritable); the mode is
            // set outright.
            if chmod(folder, 0o700) != 0 {
                throw Failure(description: "cannot make \(folder) private: \(String(cString: strerror(errno)))")
            }
        }
        guard isFolder(path) else { throw Failure(description: "\(path) is not a folder") }
    }

    /// Creates `path` empty with mode 0600 when it does not exist (SQLite takes an empty file as a
    /// new database). A symlink at the path is not followed.
    static func createFile(_ path: String) throws(Failure) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        if descriptor < 0 {
            if errno == EEXIST { return }
            throw Failure(description: String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        if fchmod(descriptor, 0o600) != 0 {
            throw Failure(description: "cannot make it private: \(String(cString: strerror(errno)))")
        }
    }

    private static func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    private static func isFolder(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }

    private static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        let head = String(path[..<slash])
        return head.isEmpty ? "/" : head
    }
}
