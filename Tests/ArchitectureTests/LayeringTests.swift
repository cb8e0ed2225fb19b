// The layering enforced: every `import` under Sources/<Module>/ must be one that `ModuleMap`
// allows that module. Reads the source tree, so it runs in a moment and needs nothing built.

import Foundation
import Testing

@Suite struct LayeringTests {
    /// The repository: this file is <root>/Tests/ArchitectureTests/LayeringTests.swift.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func everyImportIsAllowedByTheModuleMap() throws {
        let imports = try ImportScanner.scan(sources: Self.root)
        // A scan that finds nothing would pass anything: make sure it read the tree.
        #expect(imports.count > 100, "only \(imports.count) imports found under \(Self.root.path)/Sources")
        for violation in ImportScanner.violations(imports, map: ModuleMap.allowed) {
            Issue.record("\(violation), which the module map does not allow (docs/architecture.md, \"Module map\"; Tests/ArchitectureTests/ModuleMap.swift)")
        }
    }

    @Test func everyModuleIsOnTheMap() throws {
        let modules = try ImportScanner.swiftModules(sources: Self.root)
        #expect(modules.contains("AquavateProtocol") && modules.contains("Daemon"))
        for module in modules where ModuleMap.allowed[module] == nil {
            Issue.record("Sources/\(module) is not on the module map: give it its allowed imports in Tests/ArchitectureTests/ModuleMap.swift and docs/architecture.md")
        }
        for module in ModuleMap.allowed.keys where !modules.contains(module) {
            Issue.record("the module map names \(module), which has no sources: remove it")
        }
    }

    /// An exception is allowed only while it is needed: once the import is gone, so must the
    /// exception be, and the map is the stricter for it.
    @Test func everyKnownExceptionIsStillNeeded() throws {
        let imports = Set(try ImportScanner.scan(sources: Self.root).map { "\($0.module) → \($0.imported)" })
        for (module, exceptions) in ModuleMap.knownExceptions {
            for (imported, reason) in exceptions {
                #expect(ModuleMap.allowed[module]?.contains(imported) == true, "\(module) → \(imported) is an exception the map does not allow")
                if !imports.contains("\(module) → \(imported)") {
                    Issue.record("\(module) no longer imports \(imported) (\(reason)): remove it from ModuleMap.allowed and knownExceptions, and from docs/architecture.md's map")
                }
            }
        }
    }

    /// The pure floor stays pure whatever the map says: the protocol and the reminder rules
    /// import nothing that does I/O; of this project, the reminder rules import only the time
    /// module (the local day), and the time module only the lock.
    @Test func thePureModulesImportOnlyFoundationAndTime() throws {
        let pure: [String: Set<String>] = [
            "AquavateProtocol": ["Foundation"],
            "Reminders": ["Foundation", "Timekeeping"],
            "Timekeeping": ["Foundation", "Locking"],
        ]
        let imports = try ImportScanner.scan(sources: Self.root)
        for line in imports {
            if let allowed = pure[line.module], !allowed.contains(line.imported) {
                Issue.record("\(line): the pure modules import the standard library, Foundation and the bottom floor only")
            }
        }
    }
}

/// The checker itself, on a small tree made for the test: it must catch a planted bad import.
@Suite struct ImportCheckerTests {
    private func tree(_ files: [String: String]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("architecture-\(UUID().uuidString)")
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return root
    }

    @Test func aPlantedBadImportIsCaught() throws {
        let root = try tree([
            "Sources/Reminders/Engine.swift": "import Foundation\nimport DBus\n\nstruct Engine {}\n",
            "Sources/Reminders/Rules/Pace.swift": "// import Sinks (only a comment)\n@testable import Sinks\n",
            "Sources/BottleSession/Session.swift": "import BlueZ\ninternal import History\nimport struct GRDB.Row\n",
            "Sources/Sinks/Hub.swift": "@preconcurrency import BlueZ\n",
            "Sources/CDBus/module.modulemap": "module CDBus {}\n",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let map: [String: Set<String>] = [
            "Reminders": ["Foundation"],
            "BottleSession": ["BlueZ"],
            "Sinks": ["DBus"],
        ]
        let imports = try ImportScanner.scan(sources: root)
        let found = Set(ImportScanner.violations(imports, map: map).map { "\($0.module) → \($0.imported) @ \($0.file):\($0.line)" })
        #expect(found == [
            "Reminders → DBus @ Sources/Reminders/Engine.swift:2",
            "Reminders → Sinks @ Sources/Reminders/Rules/Pace.swift:2",
            "BottleSession → History @ Sources/BottleSession/Session.swift:2",
            "BottleSession → GRDB @ Sources/BottleSession/Session.swift:3",
            "Sinks → BlueZ @ Sources/Sinks/Hub.swift:1",
        ])
        #expect(try ImportScanner.swiftModules(sources: root) == ["BottleSession", "Reminders", "Sinks"])
    }

    @Test func aModuleMissingFromTheMapMayImportNothing() throws {
        let root = try tree(["Sources/NewThing/A.swift": "import Foundation\n"])
        defer { try? FileManager.default.removeItem(at: root) }
        let violations = ImportScanner.violations(try ImportScanner.scan(sources: root), map: [:])
        #expect(violations.map(\.description) == ["Sources/NewThing/A.swift:1: NewThing imports Foundation"])
    }

    @Test func importsInCommentsAndStringsAreNotImports() {
        let text = """
            /* a block comment
            import DBus
               /* nested */ import Sinks
            */
            let help = \"\"\"
            import BlueZ
            \"\"\"
            // import History
            #if canImport(Glibc)
            import Glibc
            #endif
            @_spi(Testing) public import struct Locking.Locked
            """
        #expect(ImportScanner.imports(in: text).map(\.module) == ["Glibc", "Locking"])
        #expect(ImportScanner.imports(in: text).map(\.line) == [10, 12])
    }
}

/// Package.swift may not declare what the map forbids: a dependency there is an import waiting
/// to happen.
@Suite struct ManifestTests {
    @Test func everyDeclaredDependencyIsAllowedByTheModuleMap() throws {
        let manifest = try String(contentsOf: LayeringTests.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let declared = PackageManifest.dependencies(in: manifest)
        #expect(declared["BottleSession"]?.contains("BlueZ") == true, "Package.swift was not read: \(declared)")
        for (module, allowed) in ModuleMap.allowed {
            guard let dependencies = declared[module] else {
                Issue.record("Package.swift declares no target \(module)")
                continue
            }
            for dependency in dependencies.subtracting(allowed).sorted() {
                Issue.record("Package.swift: \(module) depends on \(dependency), which the module map does not allow")
            }
        }
    }

    @Test func theManifestReaderFindsTargetsAndProducts() {
        let manifest = """
            .target(name: "Reminders"),
            .target(name: "BlueZ", dependencies: [
                "DBus", .product(name: "Logging", package: "swift-log"),
            ]),
            .executableTarget(name: "fuzz", dependencies: ["AquavateProtocol"], path: "Fuzz/fuzz"),
            """
        #expect(PackageManifest.dependencies(in: manifest) == [
            "Reminders": [], "BlueZ": ["DBus", "Logging"], "fuzz": ["AquavateProtocol"],
        ])
    }
}

/// One lock type (docs/robustness.md, "Thread sanitizer"): outside the Locking module no source makes a
/// lock of its own. Foundation's NSLock and the standard library's Mutex were the ones found; a
/// Mutex is invisible to ThreadSanitizer on Linux, and two kinds of lock are two sets of rules.
@Suite struct OneLockTypeTests {
    static let otherLocks = ["NSLock", "NSRecursiveLock", "NSCondition", "NSConditionLock", "Mutex<", "Mutex(",
                             "os_unfair_lock", "pthread_mutex_", "pthread_rwlock_", "pthread_spin_"]

    /// The lines of `text` that make or use another lock, outside comments.
    static func otherLockUses(in text: String) -> [Int] {
        text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { index, line in
            let code = line.range(of: "//").map { line[..<$0.lowerBound] } ?? line[...]
            return otherLocks.contains { code.contains($0) } ? index + 1 : nil
        }
    }

    @Test func onlyLockingMakesLocks() throws {
        for file in try sourceFiles(outside: "Locking") {
            for line in Self.otherLockUses(in: file.text) {
                Issue.record("\(file.path):\(line): a lock other than Locked (module Locking)")
            }
        }
    }

    @Test func theLockFinderSeesALockButNotAComment() {
        let text = """
            import Foundation
            // an NSLock would do here, but see Locking
            final class Box { private let lock = NSLock() }
            let m = Mutex<Int>(0)
            let fine = Locked(0)
            """
        #expect(Self.otherLockUses(in: text) == [3, 4])
    }
}

/// Every Swift file of Sources outside `module`, as its path from the package root and its text.
func sourceFiles(outside module: String) throws -> [(path: String, text: String)] {
    let sources = LayeringTests.root.appendingPathComponent("Sources")
    let files = FileManager.default
    var found: [(path: String, text: String)] = []
    for other in try files.contentsOfDirectory(atPath: sources.path).sorted() where other != module {
        let folder = sources.appendingPathComponent(other)
        guard let walker = files.enumerator(atPath: folder.path) else { continue }
        for case let relative as String in walker where relative.hasSuffix(".swift") {
            found.append(("Sources/\(other)/\(relative)", try String(contentsOf: folder.appendingPathComponent(relative), encoding: .utf8)))
        }
    }
    // A scan that reads nothing would pass anything.
    #expect(found.count > 100)
    return found
}
