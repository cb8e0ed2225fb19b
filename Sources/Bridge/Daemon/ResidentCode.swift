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
// So, once start-up is over and again after each session: for every private, read-only mapping
// of the executable or a shared library that holds no private (copied-on-write) page — code,
// read-only data, never the relocated RELRO pages — drop its pages from this process
// (MADV_DONTNEED), and ask for no readahead on a later major fault (MADV_RANDOM; the kernel's
// fault-around on pages already in the page cache stays, measured: they come back 64 KiB at a time). The pages stay in the page cache;
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
        let executable = executablePath()
        var released = Released(mappings: 0, kibibytes: 0)
        for mapping in SmapsMapping.parse(text)
        where mapping.isCleanReadOnlyFile && mapping.isLoadedCode(executable: executable) && mapping.residentKiB > 0 {
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

    /// /proc/self/exe, resolved.
    private static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func readSmaps() -> [UInt8]? {
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
        return bytes
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
    /// `Int.max` until smaps says otherwise.
    var anonymousKiB = Int.max

    /// Private, not writable, backed by a file, and without a single private copy.
    var isCleanReadOnlyFile: Bool {
        let flags = Array(permissions.utf8)
        return flags.count == 4 && flags[0] == UInt8(ascii: "r") && flags[1] == UInt8(ascii: "-")
            && flags[3] == UInt8(ascii: "p") && inode != 0 && path.hasPrefix("/") && anonymousKiB == 0
    }

    /// The executable or a shared library, but not a gconv module (glibc may unload those):
    /// mappings that stay where they are while the process lives. Anything else that is mapped
    /// from a file could be unmapped by another thread between the reading of smaps and the
    /// madvise, and its address taken by a new mapping whose pages must not be dropped.
    func isLoadedCode(executable: String?) -> Bool {
        if let executable, path == executable { return true }
        // Byte searches: `String.contains` of a string is Foundation's, through NSString (a tenth
        // of a release's instructions, for ~200 mappings).
        let bytes = Array(path.utf8)
        return (path.hasSuffix(".so") || Self.find(".so.", in: bytes)) && !Self.find("/gconv/", in: bytes)
    }

    private static func find(_ needle: StaticString, in bytes: [UInt8]) -> Bool {
        let pattern = UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount)
        guard pattern.count <= bytes.count else { return false }
        return (0...(bytes.count - pattern.count)).contains { start in
            bytes[start..<(start + pattern.count)].elementsEqual(pattern)
        }
    }

    /// The mappings of a smaps text, in order. A mapping whose Anonymous line is missing is
    /// never released (its `anonymousKiB` is `Int.max`).
    ///
    /// Bytes, not `String` lines: the daemon parses ~2,500 lines at every release, and splitting
    /// them as Strings took ~6 ms (perf); this takes well under one.
    static func parse(_ bytes: [UInt8]) -> [SmapsMapping] {
        var mappings: [SmapsMapping] = []
        var lineStart = 0
        while lineStart < bytes.count {
            var lineEnd = lineStart
            while lineEnd < bytes.count && bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
            let line = bytes[lineStart..<lineEnd]
            lineStart = lineEnd + 1
            if let header = header(line) {
                mappings.append(header)
            } else if !mappings.isEmpty, let (name, value) = field(line) {
                if name == "Rss" { mappings[mappings.count - 1].residentKiB = value }
                if name == "Anonymous" { mappings[mappings.count - 1].anonymousKiB = value }
            }
        }
        return mappings
    }

    private static let rssPrefix = Array("Rss:".utf8)
    private static let anonymousPrefix = Array("Anonymous:".utf8)

    /// `Rss:   21048 kB` → ("Rss", 21048); nil for anything else. Most lines are neither, and
    /// are told by their first bytes: this runs for each of ~2,500 lines at every release.
    private static func field(_ line: ArraySlice<UInt8>) -> (String, Int)? {
        let name: String
        let rest: ArraySlice<UInt8>
        if line.starts(with: rssPrefix) {
            name = "Rss"
            rest = line.dropFirst(rssPrefix.count)
        } else if line.starts(with: anonymousPrefix) {
            name = "Anonymous"
            rest = line.dropFirst(anonymousPrefix.count)
        } else {
            return nil
        }
        var value = 0
        var sawDigit = false
        for byte in rest {
            if byte == UInt8(ascii: " ") && !sawDigit { continue }
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { break }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            sawDigit = true
        }
        return sawDigit ? (name, value) : nil
    }

    /// `55a5cb1f3000-55a5cd0d2000 r-xp 00000000 fe:01 1234 /path/to/file`, else nil.
    private static func header(_ line: ArraySlice<UInt8>) -> SmapsMapping? {
        guard let first = line.first, Self.hexValue(first) != nil else { return nil }
        var fields: [ArraySlice<UInt8>] = []
        var index = line.startIndex
        while index < line.endIndex && fields.count < 5 {
            while index < line.endIndex && line[index] == UInt8(ascii: " ") { index += 1 }
            let start = index
            while index < line.endIndex && line[index] != UInt8(ascii: " ") { index += 1 }
            if start < index { fields.append(line[start..<index]) }
        }
        guard fields.count == 5, let dash = fields[0].firstIndex(of: UInt8(ascii: "-")),
              let start = hex(fields[0][fields[0].startIndex..<dash]), let end = hex(fields[0][(dash + 1)...]),
              let inode = UInt64(String(decoding: fields[4], as: UTF8.self)) else { return nil }
        while index < line.endIndex && line[index] == UInt8(ascii: " ") { index += 1 }
        return SmapsMapping(start: start, end: end, permissions: String(decoding: fields[1], as: UTF8.self), inode: inode,
                            path: String(decoding: line[index...], as: UTF8.self), anonymousKiB: Int.max)
    }

    private static func hex(_ digits: ArraySlice<UInt8>) -> UInt? {
        guard !digits.isEmpty, digits.count <= 16 else { return nil }
        var value: UInt = 0
        for digit in digits {
            guard let nibble = hexValue(digit) else { return nil }
            value = value << 4 | UInt(nibble)
        }
        return value
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
