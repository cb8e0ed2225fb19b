// Gives back the code and read-only data that start-up touched and the idle daemon does not run
// (docs/design.md 5: the idle daemon under 20 MB resident).
//
// Measured with /proc/PID/smaps and /proc/PID/pagemap (README, "Performance"): of the idle daemon's
// ~39 MB resident, ~34 MB were clean pages of the executable and its libraries, 15 MB of them in
// the executable's .text alone. Start-up touches code all over the binary (the loader's relocation
// pass, the Swift runtime's conformance scans, Foundation's initialisers, argument parsing, the
// migrations), and the kernel maps up to 64 KiB around every page fault on a file (fault-around),
// so every touch brought 16 pages along. None of it is needed again while the daemon waits for the
// bottle.
//
// So, once start-up is over and again after each session: for every private, read-only,
// file-backed mapping that holds no private (copied-on-write) page — code, read-only data, never
// the relocated RELRO pages — drop its pages from this process (MADV_DONTNEED), and ask for no
// readahead on a later major fault (MADV_RANDOM; the kernel's fault-around on pages already in the
// page cache stays, measured: they come back 64 KiB at a time). The pages stay in the page cache;
// what the daemon runs next comes back on its first touch, a minor fault of about a microsecond.
// Nothing anonymous, writable or shared is touched, so no state can be lost.

import Glibc

public enum ResidentCode {
    /// What one release did.
    public struct Released: Sendable, Equatable {
        /// Mappings given back.
        public var mappings: Int
        /// Their resident size before, KiB.
        public var kibibytes: Int
    }

    /// Drops this process's clean, read-only, file-backed pages (see above). Returns what was
    /// released; nil when /proc/self/smaps cannot be read (then nothing is done).
    @discardableResult
    public static func releaseStartupPages() -> Released? {
        guard let text = readSmaps() else { return nil }
        var released = Released(mappings: 0, kibibytes: 0)
        for mapping in SmapsMapping.parse(text) where mapping.isCleanReadOnlyFile && mapping.residentKiB > 0 {
            guard let start = UnsafeMutableRawPointer(bitPattern: mapping.start) else { continue }
            let length = Int(mapping.end - mapping.start)
            _ = madvise(start, length, MADV_RANDOM)
            if madvise(start, length, MADV_DONTNEED) == 0 {
                released.mappings += 1
                released.kibibytes += mapping.residentKiB
            }
        }
        return released
    }

    private static func readSmaps() -> String? {
        let fd = open("/proc/self/smaps", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 { return nil }
            if count == 0 { break }
            bytes.append(contentsOf: buffer[0..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// One mapping of /proc/PID/smaps: its header line and the two fields the release needs.
struct SmapsMapping: Equatable {
    var start: UInt
    var end: UInt
    /// `r-xp`, `r--p`, …
    var permissions: String
    var inode: UInt64
    var path: String
    var residentKiB = 0
    /// Pages of this mapping that are private copies (written, or relocated): these must stay.
    var anonymousKiB = 0

    /// Private, not writable, backed by a file, and without a single private copy.
    var isCleanReadOnlyFile: Bool {
        let flags = Array(permissions.utf8)
        return flags.count == 4 && flags[0] == UInt8(ascii: "r") && flags[1] == UInt8(ascii: "-")
            && flags[3] == UInt8(ascii: "p") && inode != 0 && path.hasPrefix("/") && anonymousKiB == 0
    }

    /// The mappings of a smaps text, in order. A mapping whose fields are missing keeps a
    /// non-zero `anonymousKiB` guard: it is never released.
    static func parse(_ text: String) -> [SmapsMapping] {
        var mappings: [SmapsMapping] = []
        var sawAnonymous = true
        func finish() {
            if !sawAnonymous, var last = mappings.popLast() {
                last.anonymousKiB = Int.max
                mappings.append(last)
            }
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            if let header = header(line) {
                finish()
                mappings.append(header)
                sawAnonymous = false
            } else if !mappings.isEmpty {
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                guard fields.count >= 2, let value = Int(fields[1]) else { continue }
                if fields[0] == "Rss:" { mappings[mappings.count - 1].residentKiB = value }
                if fields[0] == "Anonymous:" {
                    mappings[mappings.count - 1].anonymousKiB = value
                    sawAnonymous = true
                }
            }
        }
        finish()
        return mappings
    }

    /// `55a5cb1f3000-55a5cd0d2000 r-xp 00000000 fe:01 1234 /path/to/file`, else nil.
    private static func header(_ line: Substring) -> SmapsMapping? {
        let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
        guard fields.count >= 5, fields[0].contains("-"), !fields[0].hasSuffix(":") else { return nil }
        let range = fields[0].split(separator: "-")
        guard range.count == 2, let start = UInt(range[0], radix: 16), let end = UInt(range[1], radix: 16),
              let inode = UInt64(fields[4]) else { return nil }
        let path = fields.count == 6 ? String(fields[5].drop(while: { $0 == " " })) : ""
        return SmapsMapping(start: start, end: end, permissions: String(fields[1]), inode: inode, path: path)
    }
}
