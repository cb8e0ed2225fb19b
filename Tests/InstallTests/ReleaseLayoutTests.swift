// The binary the Debian package ships is the release build of scripts/release-build.sh, whose
// link options keep a sync's resident memory small (docs/performance.md): the relative
// relocations are packed (DT_RELR, not 2.9 MB of .rela.dyn read at every start), and the
// functions of packaging/hot-code.order are laid out together at the start of .text, so the
// kernel's fault-around maps the code a sync runs rather than cold code around it. Both are
// link options a change of build script could silently drop; these tests notice.
import BusTestSupport
import Foundation
import Testing

@Suite("Release binary layout")
struct ReleaseLayoutTests {
    /// The packaged executable, extracted from the .deb into a scratch folder.
    private static func packagedBinary(in scratch: ScratchFolder) async throws -> String {
        let deb = try await DebianPackage.built.value
        let extracted = try await runTool("/usr/bin/dpkg-deb", ["-x", deb, scratch.file("root")])
        try #require(extracted.status == 0, "\(extracted)")
        return scratch.file("root/usr/bin/aquavate-bridge")
    }

    @Test("the packaged binary's relative relocations are packed (DT_RELR) and .rela.dyn is small")
    func packedRelocations() async throws {
        let scratch = try ScratchFolder("layout")
        defer { scratch.remove() }
        let binary = try await Self.packagedBinary(in: scratch)
        let dynamic = try await runTool("/usr/bin/readelf", ["--dynamic", "--wide", binary])
        #expect(dynamic.status == 0, "\(dynamic)")
        #expect(dynamic.output.contains("(RELR)"), "no DT_RELR entry: \(dynamic.output.prefix(2000))")
        let sections = try await runTool("/usr/bin/readelf", ["--sections", "--wide", binary])
        let relaSize = sections.lines.first { $0.contains(" .rela.dyn ") }.flatMap(Self.sectionSize)
        // Unpacked, the executable has ~120,000 relative relocations of 24 bytes: ~2.9 MB.
        #expect(try #require(relaSize, "no .rela.dyn: \(sections.output)") < 256 * 1024)
    }

    @Test("the functions of packaging/hot-code.order come first in .text, side by side")
    func hotCodeFirst() async throws {
        let scratch = try ScratchFolder("layout")
        defer { scratch.remove() }
        let binary = try await Self.packagedBinary(in: scratch)
        let order = try String(contentsOf: repositoryRoot.appendingPathComponent("packaging/hot-code.order"), encoding: .utf8)
        let hot = Set(order.split(separator: "\n").map(String.init))
        #expect(hot.count > 1000, "packaging/hot-code.order lists \(hot.count) functions")

        let sections = try await runTool("/usr/bin/readelf", ["--sections", "--wide", binary])
        let text = try #require(sections.lines.first { $0.contains(" .text ") }, "\(sections.output)")
        let (textStart, textSize) = try #require(Self.sectionAddressAndSize(text), "\(text)")

        // The stripped package keeps the dynamic symbol table, which names the executable's
        // global functions (it exports them): where the hot ones are, relative to .text.
        let symbols = try await runTool("/usr/bin/nm", ["--dynamic", "--defined-only", binary], timeout: .seconds(120))
        #expect(symbols.status == 0, "\(symbols)")
        var hotOffsets: [UInt64] = []
        var coldOffsets: [UInt64] = []
        for line in symbols.lines {
            let fields = line.split(separator: " ", maxSplits: 2)
            guard fields.count == 3, "tTwW".contains(fields[1]), let address = UInt64(fields[0], radix: 16),
                  address >= textStart, address < textStart + textSize else { continue }
            if hot.contains(String(fields[2])) { hotOffsets.append(address - textStart) } else { coldOffsets.append(address - textStart) }
        }
        #expect(hotOffsets.count > 200, "only \(hotOffsets.count) of the listed functions are exported")
        // Laid out first: the listed functions (~6,000, ~2 MB, with the sections they share) end
        // within the first fifth of .text (~27 MB) and few other functions lie among them; in a
        // link without the ordering they spread over all of it, among all the others.
        let hotEnd = try #require(hotOffsets.max())
        #expect(hotEnd < textSize / 5, "the listed functions end \(hotEnd) bytes into .text (of \(textSize))")
        let coldAmongHot = coldOffsets.filter { $0 < hotEnd }.count
        #expect(Double(coldAmongHot) < 0.1 * Double(max(coldOffsets.count, 1)),
                "\(coldAmongHot) of \(coldOffsets.count) other functions lie among the listed ones")
    }

    /// `[Nr] Name Type Address Off Size …` of `readelf --sections --wide`: the address and size.
    private static func sectionAddressAndSize(_ line: String) -> (UInt64, UInt64)? {
        let fields = line.replacingOccurrences(of: "[ ", with: "[").split(separator: " ")
        guard fields.count >= 6, let address = UInt64(fields[3], radix: 16), let size = UInt64(fields[5], radix: 16) else { return nil }
        return (address, size)
    }

    private static func sectionSize(_ line: String) -> UInt64? { sectionAddressAndSize(line)?.1 }
}
