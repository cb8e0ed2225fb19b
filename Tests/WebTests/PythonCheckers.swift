// The consumers' own checkers, from PyPI, pinned: Prometheus' text parser (prometheus_client, the
// parser Prometheus' Python client and its tests use) and an OpenAPI validator
// (openapi-spec-validator). The tests ask them, not our expectation of them. One venv under
// `.build-web-venv/` (gitignored), made once and reused; made once per test process, so that
// tests running at the same time do not build it twice.

import BusTestSupport
import Foundation

enum PythonCheckers {
    static let packages = ["prometheus-client==0.26.0", "openapi-spec-validator==0.9.0"]
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    private static let made = Task { try await makeVenv() }

    /// The venv's python, with the checkers installed.
    static func python() async throws -> String { try await made.value }

    private static func makeVenv() async throws -> String {
        let venv = root.appendingPathComponent(".build-web-venv")
        let python = venv.appendingPathComponent("bin/python").path
        let probe = "import prometheus_client, openapi_spec_validator, importlib.metadata as m; "
            + "assert m.version('prometheus-client') == '0.26.0' and m.version('openapi-spec-validator') == '0.9.0'"
        if FileManager.default.isExecutableFile(atPath: python), try await runTool(python, ["-c", probe]).status == 0 {
            return python
        }
        let created = try await runTool("/usr/bin/python3", ["-m", "venv", venv.path], timeout: .seconds(120))
        guard created.status == 0 else {
            throw HarnessFailure(description: "python3 -m venv failed (is python3-venv installed?): \(created.error)")
        }
        let pip = try await runTool(python, ["-m", "pip", "install", "--quiet"] + packages, timeout: .seconds(300))
        guard pip.status == 0 else { throw HarnessFailure(description: "pip install \(packages) failed (PyPI unreachable?): \(pip.error)") }
        return python
    }

    /// Runs `script` with `input` on its standard input (through a file); what it printed.
    static func run(_ script: String, input: String) async throws -> ToolResult {
        let python = try await python()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("checker-\(UUID().uuidString).txt")
        try Data(input.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try await runTool(python, ["-c", script, file.path], timeout: .seconds(120))
    }

    /// Every sample as Prometheus' parser reads the text: `name{label="value",…} value`, labels
    /// sorted; a failure when the parser refuses the text.
    static func prometheusSamples(_ text: String) async throws -> [String: Double] {
        let script = """
        import sys, json
        from prometheus_client.parser import text_string_to_metric_families
        out = {}
        for family in text_string_to_metric_families(open(sys.argv[1]).read()):
            for s in family.samples:
                labels = ",".join('%s="%s"' % (k, v) for k, v in sorted(s.labels.items()))
                out["%s{%s}" % (s.name, labels)] = s.value
            out["# TYPE " + family.name] = {"gauge": 0, "counter": 1}.get(family.type, 2)
        print(json.dumps(out))
        """
        let result = try await run(script, input: text)
        guard result.status == 0, let object = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Double] else {
            throw HarnessFailure(description: "Prometheus' parser refused the metrics: \(result)")
        }
        return object
    }

    /// openapi-spec-validator's verdict on a document: nil when valid, else its complaint.
    static func openAPIProblem(_ yaml: String) async throws -> String? {
        let script = """
        import sys
        from openapi_spec_validator import validate
        import yaml
        spec = yaml.safe_load(open(sys.argv[1]))
        validate(spec)
        print("valid")
        """
        let result = try await run(script, input: yaml)
        return result.status == 0 && result.output.contains("valid") ? nil : result.description
    }
}
