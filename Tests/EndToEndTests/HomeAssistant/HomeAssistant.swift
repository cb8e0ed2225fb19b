// A real Home Assistant for the tests: the pinned version of scripts/home-assistant-env.sh (a
// cached virtual environment), a configuration directory of its own, onboarded and given the
// MQTT integration through its REST API, and read only through that API (states, templates for
// the device registry, history, the error log) — never through the bridge's payloads.

import BusTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ProcessSupport

struct HomeAssistantFailure: Error, CustomStringConvertible {
    var description: String
}

final class HomeAssistant: @unchecked Sendable {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let username = "aquavate", password = "aquavate-test-password"

    let python: String
    let directory: URL
    let port: Int
    let timeZone: String
    /// The environment it runs in (nil: the test's own): a simulated day's wall clock (FakeDays).
    let environment: [String: String]?
    private let lock = NSLock()
    private var child: ChildProcess?
    private var accessToken: String?

    var base: String { "http://127.0.0.1:\(port)" }
    var clientID: String { base + "/" }
    var token: String? { lock.withLock { accessToken } }

    /// One release of the suite (scripts/home-assistant-versions): its role, its version, and the
    /// discovery forms (`mqtt.discovery_format`) it is tested with.
    struct Release: Sendable {
        var role: String
        var version: String
        var forms: [String]
    }

    /// The releases of scripts/home-assistant-versions (docs/home-assistant.md, "Which Home
    /// Assistant"): the oldest each form supports, one of the deprecation window, the newest.
    static let releases: [Release] = {
        let file = repository.appendingPathComponent("scripts/home-assistant-versions")
        let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard fields.count == 4, !fields[0].hasPrefix("#") else { return nil }
            return Release(role: fields[0], version: fields[1], forms: fields[3].split(separator: ",").map(String.init))
        }
    }()

    /// The newest release pinned (an empty version, which no environment has, if the file says none).
    static var newest: String { releases.first { $0.role == "newest" }?.version ?? "" }

    /// The virtual environment's python (made the first time: minutes; cached after).
    static func environment(version: String = newest) async throws -> String {
        let result = try await runTool("/bin/bash", [repository.appendingPathComponent("scripts/home-assistant-env.sh").path, version],
                                       timeout: .seconds(1500))
        guard result.status == 0, let python = result.lines.last, FileManager.default.isExecutableFile(atPath: python) else {
            throw HomeAssistantFailure(description: "scripts/home-assistant-env.sh failed: \(result)")
        }
        return python
    }

    init(python: String, directory: URL, port: Int, timeZone: String, environment: [String: String]? = nil) throws {
        self.python = python
        self.directory = directory
        self.port = port
        self.timeZone = timeZone
        self.environment = environment
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // Only what the test reads: the API, the registries, the recorder and its history, the
        // frontend (for the screenshot), MQTT as a config entry.
        let configuration = """
            homeassistant:
              name: Home
              latitude: 51.5
              longitude: 0
              elevation: 0
              unit_system: metric
              time_zone: \(timeZone)
              currency: EUR
              country: GB
              internal_url: \(base)
            http:
              server_host: 127.0.0.1
              server_port: \(port)
            api:
            config:
            onboarding:
            frontend:
            history:
            recorder:
              commit_interval: 0
            logger:
              default: info

            """
        try Data(configuration.utf8).write(to: directory.appendingPathComponent("configuration.yaml"))
    }

    var logFile: URL { directory.appendingPathComponent("home-assistant.log") }
    var log: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

    /// Starts it and waits until its HTTP server answers.
    func start() async throws {
        let output = try FileHandle(forWritingTo: Self.emptyFile(directory.appendingPathComponent("stdout.log")))
        let process = try ChildProcess.spawn(python, ["-m", "homeassistant", "--config", directory.path, "--skip-pip",
                                                      "--log-file", logFile.path],
                                             environment: environment, output: output, error: output)
        lock.withLock { child = process }
        try await waitUntil(.seconds(240), "Home Assistant to serve HTTP (\(log.suffix(1500)))") {
            guard process.isRunning else {
                throw HomeAssistantFailure(description: "Home Assistant exited: \(self.log.suffix(3000))")
            }
            // A page that needs no token (its frontend's manifest): after a simulated day, the
            // token of the day before has expired (30 minutes), and asking the API without one
            // would put a failed login in Home Assistant's log.
            var request = URLRequest(url: URL(string: self.base + "/manifest.json")!)
            request.timeoutInterval = 5
            guard let (_, response) = try? await URLSession.shared.data(for: request) else { return false }
            return (response as? HTTPURLResponse)?.statusCode == 200
        }
    }

    /// Stops it as its own `homeassistant.stop` service does (a SIGTERM may be blocked in a
    /// test's children, docs/swift-linux.md P7), SIGKILL when it does not go.
    func stop() async {
        guard let process = lock.withLock({ child }) else { return }
        _ = try? await request("POST", "/api/services/homeassistant/stop", body: [String: String]())
        if await process.waitForExit(timeout: .seconds(60)) == nil { process.killNow() }
        lock.withLock { child = nil }
    }

    func killNow() {
        lock.withLock { child }?.killNow()
    }

    /// The owner's account through the onboarding API, a token for it, the rest of onboarding
    /// done (as a person finishing the wizard would).
    func onboard() async throws {
        let created = try await request("POST", "/api/onboarding/users", authorized: false, body: [
            "client_id": clientID, "name": "Aquavate", "username": Self.username, "password": Self.password, "language": "en",
        ])
        guard let code = (created as? [String: Any])?["auth_code"] as? String else {
            throw HomeAssistantFailure(description: "onboarding gave no auth_code: \(String(describing: created))")
        }
        try await exchange(code: code)
        // The core-config step also sets up a few default integrations (radio, translation …)
        // whose packages the test's environment leaves out: it is marked done, answering 500.
        _ = try? await request("POST", "/api/onboarding/core_config", body: [String: String]())
        _ = try await request("POST", "/api/onboarding/analytics", body: [String: String]())
        _ = try await request("POST", "/api/onboarding/integration", body: ["client_id": clientID, "redirect_uri": clientID])
    }

    /// After a restart: a fresh token through the login flow (the same user).
    func logIn() async throws {
        try await exchange(code: try await authorizationCode())
    }

    /// An authorization code for the owner, through the login flow (what the login page does).
    func authorizationCode() async throws -> String {
        let flow = try await request("POST", "/auth/login_flow", authorized: false, body: [
            "client_id": clientID, "handler": ["homeassistant", nil] as [String?], "redirect_uri": clientID,
        ] as [String: Any])
        guard let id = (flow as? [String: Any])?["flow_id"] as? String else {
            throw HomeAssistantFailure(description: "no login flow: \(String(describing: flow))")
        }
        let done = try await request("POST", "/auth/login_flow/\(id)", authorized: false, body: [
            "client_id": clientID, "username": Self.username, "password": Self.password,
        ])
        guard let code = (done as? [String: Any])?["result"] as? String else {
            throw HomeAssistantFailure(description: "login refused: \(String(describing: done))")
        }
        return code
    }

    private func exchange(code: String) async throws {
        var request = URLRequest(url: URL(string: base + "/auth/token")!)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        let form = "grant_type=authorization_code&code=\(code)&client_id=\(clientID.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
        request.httpBody = Data(form.utf8)
        let (data, response) = try await URLSession.shared.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 200,
              let json = try JSONSerialization.jsonObject(with: data) as? [String: Any], let token = json["access_token"] as? String else {
            throw HomeAssistantFailure(description: "no token: \(String(decoding: data, as: UTF8.self))")
        }
        lock.withLock { accessToken = token }
    }

    /// The MQTT integration, as a person adds it in Settings → Devices & services.
    func addMQTT(brokerPort: Int) async throws {
        let flow = try await request("POST", "/api/config/config_entries/flow", body: ["handler": "mqtt", "show_advanced_options": false] as [String: Any])
        guard let step = flow as? [String: Any], let id = step["flow_id"] as? String else {
            throw HomeAssistantFailure(description: "no MQTT flow: \(String(describing: flow))")
        }
        // The form as the frontend fills it before the person types (from 2026 it has a required
        // section of other settings), then the broker's address.
        var form = Self.initialData(step["data_schema"] as? [[String: Any]] ?? [])
        form["broker"] = "127.0.0.1"
        form["port"] = brokerPort
        let done = try await request("POST", "/api/config/config_entries/flow/\(id)", body: form)
        guard (done as? [String: Any])?["type"] as? String == "create_entry" else {
            throw HomeAssistantFailure(description: "the MQTT flow did not create an entry: \(String(describing: done))")
        }
    }

    /// A form's data as Home Assistant's frontend starts it (computeInitialHaFormData): each
    /// field's default, else, for a required one, false, the first option or an empty text; a
    /// section's fields inside it.
    static func initialData(_ schema: [[String: Any]]) -> [String: Any] {
        var data: [String: Any] = [:]
        for field in schema {
            guard let name = field["name"] as? String else { continue }
            if field["type"] as? String == "expandable" {
                data[name] = initialData(field["schema"] as? [[String: Any]] ?? [])
            } else if let value = field["default"] {
                data[name] = value
            } else if field["required"] as? Bool == true, let selector = field["selector"] as? [String: Any] {
                if selector["boolean"] != nil {
                    data[name] = false
                } else if let options = (selector["select"] as? [String: Any])?["options"] as? [Any], let first = options.first {
                    data[name] = (first as? [String: Any])?["value"] ?? first
                } else if selector["text"] != nil {
                    data[name] = ""
                }
            } else if field["required"] as? Bool == true, field["type"] as? String == "boolean" {
                data[name] = false
            }
        }
        return data
    }

    // MARK: The API

    @discardableResult
    func request(_ method: String, _ path: String, authorized: Bool = true, body: Any? = nil, raw: Bool = false) async throws -> Any {
        var request = URLRequest(url: URL(string: base + path)!)
        request.httpMethod = method
        request.timeoutInterval = 30
        if authorized {
            guard let token else { throw HomeAssistantFailure(description: "no token yet") }
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        }
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = try JSONSerialization.data(withJSONObject: body)
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard (200..<300).contains(status) else {
            throw HomeAssistantFailure(description: "\(method) \(path): HTTP \(status) \(String(decoding: data.prefix(500), as: UTF8.self))")
        }
        if raw { return String(decoding: data, as: UTF8.self) }
        if data.isEmpty { return [String: Any]() }
        return (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) ?? String(decoding: data, as: UTF8.self)
    }

    /// Every entity's state, by entity id.
    func states() async throws -> [String: State] {
        guard let list = try await request("GET", "/api/states") as? [[String: Any]] else { return [:] }
        var states: [String: State] = [:]
        for item in list {
            guard let id = item["entity_id"] as? String, let state = item["state"] as? String else { continue }
            states[id] = State(state: state, attributes: item["attributes"] as? [String: Any] ?? [:])
        }
        return states
    }

    struct State: @unchecked Sendable {
        var state: String
        var attributes: [String: Any]
    }

    /// A template rendered by Home Assistant (its device registry is read this way:
    /// `device_attr`, `device_id`, `device_entities`).
    func template(_ text: String) async throws -> String {
        try await request("POST", "/api/template", body: ["template": text], raw: true) as? String ?? ""
    }

    func call(_ domain: String, _ service: String, _ data: [String: Any]) async throws {
        try await request("POST", "/api/services/\(domain)/\(service)", body: data)
    }

    /// The states an entity went through since `start` (ISO 8601), oldest first.
    func history(of entity: String, since start: String) async throws -> [String] {
        let path = "/api/history/period/\(start)?filter_entity_id=\(entity)&minimal_response&no_attributes"
        guard let lists = try await request("GET", path) as? [[[String: Any]]] else { return [] }
        return lists.first?.compactMap { $0["state"] as? String } ?? []
    }

    /// One command of Home Assistant's websocket API (what its frontend speaks; the recorder's
    /// statistics are served only there), through aiohttp from its own environment, and its result.
    func websocket(_ command: [String: Any]) async throws -> Any {
        guard let token else { throw HomeAssistantFailure(description: "no token yet") }
        let script = """
            import asyncio, json, sys, aiohttp
            async def main(url, token, command):
                async with aiohttp.ClientSession() as session:
                    async with session.ws_connect(url) as ws:
                        await ws.receive_json()
                        await ws.send_json({"type": "auth", "access_token": token})
                        answer = await ws.receive_json()
                        if answer.get("type") != "auth_ok":
                            sys.exit("websocket auth refused: %s" % answer)
                        await ws.send_json(dict(json.loads(command), id=1))
                        while True:
                            answer = await ws.receive_json()
                            if answer.get("id") == 1:
                                print(json.dumps(answer))
                                return
            asyncio.run(main(*sys.argv[1:]))
            """
        let message = String(decoding: try JSONSerialization.data(withJSONObject: command), as: UTF8.self)
        let result = try await runTool(python, ["-c", script, "ws://127.0.0.1:\(port)/api/websocket", token, message], timeout: .seconds(60))
        guard result.status == 0, let line = result.lines.last,
              let answer = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw HomeAssistantFailure(description: "websocket \(command["type"] ?? ""): \(result)")
        }
        guard answer["success"] as? Bool == true else {
            throw HomeAssistantFailure(description: "websocket \(command["type"] ?? "") failed: \(answer)")
        }
        return answer["result"] ?? NSNull()
    }

    /// Home Assistant's own log, as its API serves it.
    func errorLog() async throws -> String {
        (try await request("GET", "/api/error_log", raw: true)) as? String ?? ""
    }

    static func emptyFile(_ url: URL) -> URL {
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        return url
    }
}
