// Gives back the code and read-only data that start-up touched and the idle daemon does not run
// (docs/design.md 5: the idle daemon under 20 MB resident).
//
// Measured with /proc/PID/smaps and /proc/PID/pagemap (docs/performance.md): of the idle daemon's
// ~39 MB resident, ~34 MB were clean pages of the executable and its libraries, 15 MB of them in
// the executable's .text alone. Start-up touches code all over the binary (the loader's relocation
// pass, the Swift runtime's conformance scans, Foundation's initialisers, argument parsing, the
// migrations), and the kernel maps up to 64 KiB around every page fault on a file (fault-around),
// so every touch brought 16 pages along. None of it is needed again while the daemon waits for the
// bottle.
//
// So, once start-up is over and again after each session: for every loaded object (the executable
// and each shared library), every segment it is loaded from that is not writable — code and
// read-only data, never a writable segment nor the relocated RELRO pages, which are loaded from
// writable segments — drop its pages from this process (MADV_DONTNEED), and ask for no readahead
// on a later major fault (MADV_RANDOM; the kernel's fault-around on pages already in the page
// cache stays, measured: they come back 64 KiB at a time). The pages stay in the page cache; what
// the daemon runs next comes back on its first touch, a minor fault of about a microsecond.
// Nothing anonymous, writable or shared is touched, so no state can be lost.
//
// The segments come from the loader (dl_iterate_phdr, through CLink), not from /proc/self/smaps:
// smaps made the kernel walk every page of every mapping to count it, and its ~2,500 lines had to
// be parsed, a few milliseconds of each `run --once` for two releases. The release runs inside the loader's
// callback, so no object can be unloaded (dlclose) while its segments are given back.

import CLink
import Glibc

package enum ResidentCode {
    /// What one release did.
    package struct Released: Sendable, Equatable {
        /// Read-only segments given back.
        package var segments: Int
        /// Their size, KiB (mapped, whether or not resident).
        package var kibibytes: Int
    }

    /// Drops this process's pages of read-only segments of loaded objects (see above). Returns
    /// what was released.
    @discardableResult
    package static func releaseStartupPages() -> Released {
        var released = Released(segments: 0, kibibytes: 0)
        _ = withUnsafeMutablePointer(to: &released) { total in
            aq_for_each_loaded_object({ object, context in
                guard let object, let context else { return 0 }
                let total = context.assumingMemoryBound(to: Released.self)
                for segment in ReadOnlySegment.all(of: object.pointee) {
                    guard let start = UnsafeMutableRawPointer(bitPattern: segment.start) else { continue }
                    _ = madvise(start, segment.length, MADV_RANDOM)
                    if madvise(start, segment.length, MADV_DONTNEED) == 0 {
                        total.pointee.segments += 1
                        total.pointee.kibibytes += segment.length / 1024
                    }
                }
                return 0
            }, total)
        }
        return released
    }
}

/// A page-aligned address range of a loaded object that was mapped from a segment without write
/// permission.
struct ReadOnlySegment: Equatable {
    var start: UInt
    var length: Int

    static let pageSize = UInt(sysconf(Int32(_SC_PAGESIZE)))

    /// The read-only PT_LOAD segments of one loaded object. The vDSO is the kernel's, not a
    /// file's: it is left alone; so is an object with text relocations (DT_TEXTREL: the loader
    /// wrote into its read-only segments, whose pages are then private copies that must stay).
    static func all(of object: aq_loaded_object) -> [ReadOnlySegment] {
        guard object.has_text_relocations == 0, !isKernelObject(String(cString: object.name)),
              let headers = object.headers else { return [] }
        return (0..<object.count).compactMap { index in
            let header = headers[index]
            return segment(type: header.type, flags: header.flags, base: object.base, address: header.address, size: header.size)
        }
    }

    /// A loadable segment without write permission, as the pages that hold it; nil for anything
    /// else. The first page is the one the segment starts in (the loader maps whole pages, one
    /// protection each), the last the one it ends in.
    static func segment(type: UInt32, flags: UInt32, base: UInt, address: UInt, size: UInt) -> ReadOnlySegment? {
        guard type == UInt32(PT_LOAD), flags & UInt32(PF_W) == 0, size > 0 else { return nil }
        let first = (base &+ address) & ~(pageSize - 1)
        let end = (base &+ address &+ size &+ pageSize - 1) & ~(pageSize - 1)
        return ReadOnlySegment(start: first, length: Int(end - first))
    }

    /// linux-vdso.so.1 (linux-gate.so.1 on 32-bit x86): mapped by the kernel, no file behind it.
    static func isKernelObject(_ name: String) -> Bool {
        name.hasPrefix("linux-vdso") || name.hasPrefix("linux-gate")
    }
}
