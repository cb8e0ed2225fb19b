// Helpers for the installation tests: the repository's files, short-lived tools with a time-out,
// scratch folders, and the built aquavate-bridge binary.
//
// These tests install nothing into the system. The only system state they touch is what the brief
// for the Raspberry Pi work requires for an honest D-Bus policy test: throw-away users (created
// and deleted by SystemAccounts) and the `bluetooth` group (created if missing, left in place,
// as bluez's package would have created it).
import Foundation
import Testing
import BusTestSupport

/// The repository root (this file is Tests/InstallTests/TestSupport.swift).
let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

func repositoryFile(_ relativePath: String) -> String {
    repositoryRoot.appendingPathComponent(relativePath).path
}

/// The `aquavate-bridge` built next to the test bundle.
let bridgeBinary: String = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    .appendingPathComponent("aquavate-bridge").path

/// What a finished tool did.
struct ToolResult: CustomStringConvertible {
    var status: Int32
    var output: String
    var error: String
    var description: String { "status \(status)\nstdout:\n\(output)\nstderr:\n\(error)" }
    /// Standard output's lines.
    var lines: [String] { output.split(separator: "\n").map(String.init) }
}

/// A fresh folder under the temporary directory, readable by every user (the policy tests run
/// tools as other users in it). Removed by `remove()`.
struct ScratchFolder {
    let url: URL
    var path: String { url.path }

    init(_ label: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
    }

    func file(_ name: String) -> String { url.appendingPathComponent(name).path }

    func write(_ text: String, to name: String) throws -> String {
        let path = file(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// Runs a tool to completion (killed with SIGKILL after `timeout`). Output goes to files, so a
/// chatty tool never blocks on a pipe; the child is awaited through its termination handler.
func runTool(
    _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
    directory: String? = nil, timeout: Duration = .seconds(60)
) async throws -> ToolResult {
    let scratch = try ScratchFolder("tool")
    defer { scratch.remove() }
    let outPath = scratch.file("out"), errPath = scratch.file("err")
    _ = FileManager.default.createFile(atPath: outPath, contents: nil)
    _ = FileManager.default.createFile(atPath: errPath, contents: nil)
    let tool = Process()
    tool.executableURL = URL(fileURLWithPath: executable)
    tool.arguments = arguments
    if let environment { tool.environment = environment }
    if let directory { tool.currentDirectoryURL = URL(fileURLWithPath: directory) }
    tool.standardInput = FileHandle.nullDevice
    tool.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
    tool.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
    let exited = AsyncStream<Int32>.makeStream()
    tool.terminationHandler = { process in
        exited.continuation.yield(process.terminationStatus)
        exited.continuation.finish()
    }
    try tool.run()
    let status = try await withThrowingTaskGroup(of: Int32?.self) { group in
        group.addTask { await exited.stream.first { _ in true } }
        group.addTask {
            try await Task.sleep(for: timeout)
            return nil
        }
        let first = try await group.next() ?? nil
        group.cancelAll()
        return first
    }
    guard let status else {
        kill(tool.processIdentifier, SIGKILL)
        throw HarnessFailure(description: "\(executable) \(arguments) did not finish within \(timeout)")
    }
    return ToolResult(
        status: status,
        output: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
        error: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "")
}

/// The environment for a child that must see no bus unless the test gives one.
func environmentWithoutBuses(_ extra: [String: String] = [:]) -> [String: String] {
    var environment = ProcessInfo.processInfo.environment
    for key in ["DBUS_SYSTEM_BUS_ADDRESS", "DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR", "JOURNAL_STREAM"] {
        environment.removeValue(forKey: key)
    }
    environment.merge(extra) { $1 }
    return environment
}

/// True when this process runs as root (CI does; the policy, udev and user tests need it).
var runningAsRoot: Bool { geteuid() == 0 }

/// Fails the current test with a clear reason when not root.
func requireRoot(_ what: String) throws {
    try #require(runningAsRoot, "\(what) needs root (it creates users / mount namespaces); CI runs the tests as root")
}
