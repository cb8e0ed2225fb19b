// The release of start-up pages (ResidentCode): which segments it may give back, that it gives
// back resident memory, and that a process keeps running correctly after giving it back.

import CLink
@testable import Daemon
import Foundation
import Glibc
import Testing

@Suite struct ResidentCodeTests {
    private static let page = ReadOnlySegment.pageSize

    @Test func onlyLoadableSegmentsWithoutWritePermissionAreReleased() throws {
        let readExecute = UInt32(PF_R) | UInt32(PF_X), readWrite = UInt32(PF_R) | UInt32(PF_W)
        // Code (r-x) and read-only data (r--), at the object's base.
        let code = try #require(ReadOnlySegment.segment(type: UInt32(PT_LOAD), flags: readExecute, base: 0x5500_0000_0000,
                                                        address: 0x10_0000, size: 3 * Self.page))
        #expect(code == ReadOnlySegment(start: 0x5500_0010_0000, length: Int(3 * Self.page)))
        #expect(ReadOnlySegment.segment(type: UInt32(PT_LOAD), flags: UInt32(PF_R), base: 0, address: 0x2000, size: 1) != nil)
        // Writable data — including the RELRO pages, which are loaded from the writable segment —
        // and anything that is not a loadable segment stay.
        #expect(ReadOnlySegment.segment(type: UInt32(PT_LOAD), flags: readWrite, base: 0, address: 0x2000, size: 0x1000) == nil)
        #expect(ReadOnlySegment.segment(type: UInt32(PT_GNU_RELRO), flags: UInt32(PF_R), base: 0, address: 0x2000, size: 0x1000) == nil)
        #expect(ReadOnlySegment.segment(type: UInt32(PT_DYNAMIC), flags: UInt32(PF_R), base: 0, address: 0x2000, size: 0x1000) == nil)
        #expect(ReadOnlySegment.segment(type: UInt32(PT_LOAD), flags: UInt32(PF_R), base: 0, address: 0x2000, size: 0) == nil)
    }

    @Test func aSegmentIsTheWholePagesItLiesIn() throws {
        // Starts mid-page and ends mid-page: from the page it starts in to the end of the page
        // it ends in (the loader maps whole pages, one protection each).
        let segment = try #require(ReadOnlySegment.segment(type: UInt32(PT_LOAD), flags: UInt32(PF_R), base: 0x7000_0000_0000,
                                                           address: Self.page + 0x10, size: Self.page))
        #expect(segment.start == 0x7000_0000_0000 + Self.page)
        #expect(segment.length == Int(2 * Self.page))
    }

    @Test func anObjectWithTextRelocationsOrTheKernelsIsLeftAlone() {
        let headers = [aq_segment_header(type: UInt32(PT_LOAD), flags: UInt32(PF_R) | UInt32(PF_X), address: 0, size: 0x4000),
                       aq_segment_header(type: UInt32(PT_LOAD), flags: UInt32(PF_R) | UInt32(PF_W), address: 0x5000, size: 0x1000)]
        headers.withUnsafeBufferPointer { buffer in
            func object(_ name: StaticString, textRelocations: Int32) -> aq_loaded_object {
                aq_loaded_object(name: UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self), base: 0x7f00_0000_0000,
                                 headers: buffer.baseAddress, count: buffer.count, has_text_relocations: textRelocations)
            }
            // The code segment of a library, not its data.
            #expect(ReadOnlySegment.all(of: object("/lib/libsqlite3.so.0", textRelocations: 0))
                        == [ReadOnlySegment(start: 0x7f00_0000_0000, length: 0x4000)])
            #expect(ReadOnlySegment.all(of: object("/lib/libold.so.1", textRelocations: 1)).isEmpty)
            #expect(ReadOnlySegment.all(of: object("linux-vdso.so.1", textRelocations: 0)).isEmpty)
        }
    }

    @Test func theKernelsObjectIsLeftAlone() {
        #expect(ReadOnlySegment.isKernelObject("linux-vdso.so.1"))
        #expect(ReadOnlySegment.isKernelObject("linux-gate.so.1"))
        #expect(!ReadOnlySegment.isKernelObject(""))  // the executable
        #expect(!ReadOnlySegment.isKernelObject("/lib/x86_64-linux-gnu/libc.so.6"))
    }

    @Test func aReleaseLowersResidentMemoryAndTheProcessRunsOn() throws {
        let before = (1...1000).reduce(0, +)
        let residentBefore = try Self.residentKiB()
        let released = ResidentCode.releaseStartupPages()
        let residentAfter = try Self.residentKiB()
        // The test runner's code, Swift Testing's, the standard library's and the C libraries'.
        #expect(released.segments > 3)
        #expect(released.kibibytes > 1024)
        #expect(residentAfter < residentBefore, "resident \(residentBefore) KiB before, \(residentAfter) KiB after")
        // What was dropped comes back on its first use.
        #expect((1...1000).reduce(0, +) == before)
        #expect(String(describing: [1, 2, 3]) == "[1, 2, 3]")
    }

    /// VmRSS of /proc/self/status.
    private static func residentKiB() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
        return try #require(Int(line.split(separator: " ").dropFirst().first ?? ""))
    }
}
