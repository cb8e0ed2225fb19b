// Running a tool to completion from a test without blocking a thread of the test pool.
import Foundation
import ProcessSupport

/// What a finished tool did.
package struct ToolResult: CustomStringConvertible {
    package var status: Int32
    package var output: String
    package var error: String
    package var description: String { "status \(status)\nstdout:\n\(output)\nstderr:\n\(error)" }
    /// Standard output's lines.
    package var lines: [String] { output.split(separator: "\n").map(String.init) }
}

/// Runs a tool to completion (killed with SIGKILL after `timeout`). Output goes to files, so a
/// chatty tool never blocks on a pipe; the child is awaited without blocking a thread (ChildProcess).
package func runTool(
    _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
    directory: String? = nil, timeout: Duration = .seconds(60)
) async throws -> ToolResult {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("tool-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let outPath = scratch.appendingPathComponent("out").path, errPath = scratch.appendingPathComponent("err").path
    _ = FileManager.default.createFile(atPath: outPath, contents: nil)
    _ = FileManager.default.createFile(atPath: errPath, contents: nil)
    let tool = try ChildProcess.spawn(
        executable, arguments, environment: environment, directory: directory,
        output: try FileHandle(forWritingTo: URL(fileURLWithPath: outPath)),
        error: try FileHandle(forWritingTo: URL(fileURLWithPath: errPath)))
    guard let status = await tool.waitForExit(timeout: timeout) else {
        tool.killNow()
        throw HarnessFailure(description: "\(executable) \(arguments) did not finish within \(timeout)")
    }
    return ToolResult(
        status: status,
        output: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
        error: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "")
}
