// Telling the two capture formats apart by their first bytes, so `replay` takes either.

import Foundation

extension BtsnoopImporter {
    /// True when the file starts with the btsnoop magic "btsnoop\0" (docs/integrations.md 3).
    /// `.aqcap` files start with "{" and can never match.
    package static func looksLikeBtsnoop(path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let magic = (try? handle.read(upToCount: 8)) ?? Data()
        return Array(magic) == Array("btsnoop".utf8) + [0]
    }
}
