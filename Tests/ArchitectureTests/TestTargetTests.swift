// The tests mirror the modules (CONTRIBUTING.md, "Test"): every library module under Sources (not
// the C shims, not the executables) has a test target named after it, `<Module>Tests`, with tests
// in it; every folder under Tests is a target of Package.swift (SwiftPM would ignore one that is
// not, and its tests would never run); and every test target is an entry of
// scripts/test-targets.sh, the list scripts/test.sh and scripts/tsan.sh run (a target missing from
// it would build and never run in CI).

import Foundation
import Testing

@Suite struct TestTargetTests {
    static var manifest: String {
        get throws { try String(contentsOf: LayeringTests.root.appendingPathComponent("Package.swift"), encoding: .utf8) }
    }

    /// The names of the manifest's calls of `kind` (`target`, `executableTarget`, `testTarget`).
    static func names(of kind: String, in manifest: String) throws -> Set<String> {
        let call = try Regex(#"\.\#(kind)\(\s*name:\s*"([^"]+)""#)
        return Set(manifest.matches(of: call).compactMap { $0.output[1].substring.map(String.init) })
    }

    /// The targets of scripts/test-targets.sh's `targets=( … )` (an entry `T/group` names T).
    static func listedTargets(in script: String) throws -> Set<String> {
        let list = try #require(script.firstMatch(of: try Regex(#"(?s)\ntargets=\(([^)]*)\)"#))?.output[1].substring)
        return Set(list.split(whereSeparator: \.isWhitespace).map { String($0.split(separator: "/")[0]) })
    }

    /// The library modules: folders of Sources with Swift code, less the executables.
    static func libraryModules() throws -> [String] {
        let executables = try names(of: "executableTarget", in: manifest)
        return try ImportScanner.swiftModules(sources: LayeringTests.root).filter { !executables.contains($0) }
    }

    @Test func everyLibraryModuleHasItsTestTarget() throws {
        let modules = try Self.libraryModules()
        let testTargets = try Self.names(of: "testTarget", in: Self.manifest)
        // A scan that found nothing would pass anything; the C shims are not modules here.
        #expect(modules.contains("Settings") && modules.contains("Daemon") && !modules.contains("CDBus") && !modules.contains("CLink"))
        #expect(!modules.contains("aquavate-bridge") && !modules.contains("aquavate-sim"))
        for module in modules {
            let target = module + "Tests"
            guard testTargets.contains(target) else {
                Issue.record("Sources/\(module) has no test target \(target): add it to Package.swift and scripts/test-targets.sh, with the module's unit tests in Tests/\(target)")
                continue
            }
            let folder = LayeringTests.root.appendingPathComponent("Tests/\(target)")
            let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
            let tests = try files.filter { try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8).contains("@Test") }
            if tests.isEmpty { Issue.record("Tests/\(target) has no @Test: a module's target holds its unit tests") }
        }
    }

    @Test func everyTestFolderIsATarget() throws {
        let manifest = try Self.manifest
        let declared = try Self.names(of: "testTarget", in: manifest).union(Self.names(of: "target", in: manifest))
        let folders = try FileManager.default.contentsOfDirectory(atPath: LayeringTests.root.appendingPathComponent("Tests").path).filter { name in
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: LayeringTests.root.appendingPathComponent("Tests/\(name)").path, isDirectory: &isFolder)
            return isFolder.boolValue
        }
        #expect(folders.contains("ArchitectureTests"))
        for folder in folders where !declared.contains(folder) {
            Issue.record("Tests/\(folder) is no target of Package.swift: its tests would never be built")
        }
    }

    @Test func everyTestTargetIsRunByTheScripts() throws {
        let script = try String(contentsOf: LayeringTests.root.appendingPathComponent("scripts/test-targets.sh"), encoding: .utf8)
        let listed = try Self.listedTargets(in: script)
        let testTargets = try Self.names(of: "testTarget", in: Self.manifest)
        #expect(testTargets.contains("ArchitectureTests"))
        for target in testTargets.subtracting(listed) {
            Issue.record("\(target) is not in scripts/test-targets.sh: scripts/test.sh and CI would never run it")
        }
        for target in listed.subtracting(testTargets) {
            Issue.record("scripts/test-targets.sh runs \(target), which Package.swift does not declare")
        }
    }

    @Test func theScriptsListIsReadAsTheScriptsReadIt() throws {
        let script = """
            # a comment
            targets=(LockingTests ArchitectureTests
                     EndToEndTests/- EndToEndTests/Household)

            target_selection() { echo; }
            """
        #expect(try Self.listedTargets(in: script) == ["LockingTests", "ArchitectureTests", "EndToEndTests"])
    }
}
