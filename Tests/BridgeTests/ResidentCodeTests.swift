// The release of start-up pages (ResidentCode): which mappings it may give back, and that a process
// keeps running correctly after giving them back.

@testable import Bridge
import Testing

@Suite struct ResidentCodeTests {
    static let sample = """
        55a5cb1f3000-55a5cd0d2000 r-xp 00000000 fe:01 1234 /usr/bin/aquavate-bridge
        Size:              31612 kB
        Rss:               21048 kB
        Anonymous:             0 kB
        55a5cd0d2000-55a5cd19f000 r--p 01ede000 fe:01 1234 /usr/bin/aquavate-bridge
        Size:                820 kB
        Rss:                 820 kB
        Anonymous:           820 kB
        55a5cd19f000-55a5cf611000 rw-p 01fab000 fe:01 1234 /usr/bin/aquavate-bridge
        Rss:                3352 kB
        Anonymous:           404 kB
        7f16440a0000-7f16440c0000 rw-p 00000000 00:00 0 
        Rss:                 128 kB
        Anonymous:           128 kB
        7f1644100000-7f1644200000 r--p 00000000 fe:01 99 /usr/lib/x86_64-linux-gnu/libsqlite3.so.0.8.6
        Rss:                 300 kB
        Anonymous:             0 kB
        7f1644300000-7f1644301000 r--s 00000000 fe:01 77 /tmp/a.sqlite-shm
        Rss:                   4 kB
        Anonymous:             0 kB
        7ffd1c5f0000-7ffd1c5f2000 r-xp 00000000 00:00 0                          [vdso]
        Rss:                   8 kB
        Anonymous:             0 kB
        7f1644400000-7f1644500000 r-xp 00000000 fe:01 100 /usr/lib/x86_64-linux-gnu/libc.so.6
        Rss:                1500 kB
        """

    @Test func onlyCleanPrivateReadOnlyFileMappingsAreReleased() {
        let mappings = SmapsMapping.parse(Array(Self.sample.utf8))
        #expect(mappings.count == 8)
        let releasable = mappings.filter { $0.isCleanReadOnlyFile && $0.isLoadedCode(executable: "/usr/bin/aquavate-bridge") }
            .map(\.path)
        // The executable's code and the library's read-only data; not the relocated RELRO pages,
        // not the writable data, not anonymous memory, not a shared mapping, not the vDSO, and not
        // a mapping whose Anonymous line is missing (the last one).
        #expect(releasable == ["/usr/bin/aquavate-bridge", "/usr/lib/x86_64-linux-gnu/libsqlite3.so.0.8.6"])
        #expect(mappings[0].residentKiB == 21048)
        #expect(mappings[0].start == 0x55a5cb1f3000 && mappings[0].end == 0x55a5cd0d2000)
    }

    @Test func onlyTheExecutableAndSharedLibrariesCount() {
        func mapping(_ path: String) -> SmapsMapping {
            SmapsMapping(start: 0x1000, end: 0x2000, permissions: "r--p", inode: 7, path: path, residentKiB: 4, anonymousKiB: 0)
        }
        let executable = "/usr/bin/aquavate-bridge"
        #expect(mapping(executable).isLoadedCode(executable: executable))
        #expect(mapping("/usr/lib/x86_64-linux-gnu/libdbus-1.so.3.32.4").isLoadedCode(executable: executable))
        #expect(mapping("/usr/lib/x86_64-linux-gnu/libcurl.so").isLoadedCode(executable: executable))
        // glibc may unload these; a file some code mapped may be unmapped any time.
        #expect(!mapping("/usr/lib/x86_64-linux-gnu/gconv/UTF-16.so").isLoadedCode(executable: executable))
        #expect(!mapping("/usr/lib/locale/locale-archive").isLoadedCode(executable: executable))
        #expect(!mapping("/var/lib/aquavate/capture.aqcap").isLoadedCode(executable: executable))
    }

    @Test func aProcessRunsOnAfterItsCodeIsReleased() {
        let before = (1...1000).reduce(0, +)
        let released = ResidentCode.releaseStartupPages()
        #expect(released != nil)
        #expect((released?.mappings ?? 0) > 0)
        // The code just dropped (the test runner's, Swift Testing's, the standard library's)
        // comes back on its first use.
        #expect((1...1000).reduce(0, +) == before)
        #expect(String(describing: [1, 2, 3]) == "[1, 2, 3]")
    }
}
