// The bottle's device page of the real Home Assistant in headless Chromium (Debian's chromium and
// chromium-driver, over WebDriver), as its owner sees it: docs/home-assistant.md shows it. The
// browser is logged in as Home Assistant's own login page does it, an authorization code of the
// login flow handed to the frontend's `auth_callback`, which exchanges it for tokens itself.
// Written only when AQUAVATE_HA_SCREENSHOT names a file; the page is checked either way.

import BusTestSupport
import Foundation
import Locking
import ProcessSupport

enum DevicePage {
    static let chromedriver = "/usr/bin/chromedriver", chromium = "/usr/bin/chromium"

    /// The text of the page, through every shadow root (Home Assistant's frontend is web components).
    static let deepText = """
        const walk = (node) => { let text = ''; \
        if (node.shadowRoot) text += walk(node.shadowRoot); \
        for (const child of node.childNodes) { text += child.nodeType === 3 ? child.textContent + ' ' : walk(child); } \
        return text; }; return walk(document.body);
        """

    /// Opens the device page of `entity`'s device, waits until it shows `expected` (entity names),
    /// and returns its text; writes a PNG to `path` when given.
    @discardableResult
    static func open(_ home: HomeAssistant, entity: String, expecting expected: [String], screenshot path: String?,
                     folder: URL) async throws -> String {
        guard let listener = LoopbackListener() else { throw HomeAssistantFailure(description: "no port") }
        let port = listener.port
        close(listener.descriptor)
        let log = folder.appendingPathComponent("chromedriver.log")
        let driver = try ChildProcess.spawn(chromedriver, ["--port=\(port)", "--log-path=\(log.path)"])
        defer { driver.killNow() }
        let problem = Locked(TextBox())
        do {
            try await waitUntil(.seconds(20), "chromedriver") {
                do {
                    _ = try await call(port, "GET", "/status", nil)
                    return true
                } catch {
                    problem.withLock { $0.value = "\(error)" }
                    return false
                }
            }
        } catch {
            throw HomeAssistantFailure(description: "\(error): \(problem.withLock { $0.value }); \((try? String(contentsOf: log, encoding: .utf8))?.suffix(800) ?? "")")
        }
        let session = try await call(port, "POST", "/session", ["capabilities": ["alwaysMatch": [
            "browserName": "chrome",
            "goog:chromeOptions": ["binary": chromium, "args": [
                "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
                "--force-device-scale-factor=1", "--no-first-run", "--lang=en-GB", "--window-size=1280,1400",
                "--user-data-dir=\(folder.appendingPathComponent("chromium").path)",
            ]],
        ]]])
        guard let id = (session as? [String: Any])?["sessionId"] as? String else {
            throw HomeAssistantFailure(description: "no WebDriver session: \(session)")
        }
        defer { Task { _ = try? await call(port, "DELETE", "/session/\(id)", nil) } }

        let device = try await home.template("{{ device_id('\(entity)') }}").trimmingCharacters(in: .whitespacesAndNewlines)
        let code = try await home.authorizationCode()
        let state = Data(#"{"hassUrl":"\#(home.base)","clientId":"\#(home.clientID)"}"#.utf8).base64EncodedString()
            .addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        _ = try await call(port, "POST", "/session/\(id)/url",
                           ["url": "\(home.base)/config/devices/device/\(device)?auth_callback=1&code=\(code)&state=\(state)"])
        let text = Locked(TextBox())
        func screenshot(_ path: String) async throws {
            guard let base64 = try await call(port, "GET", "/session/\(id)/screenshot", nil) as? String,
                  let png = Data(base64Encoded: base64) else {
                throw HomeAssistantFailure(description: "no screenshot")
            }
            try png.write(to: URL(fileURLWithPath: path))
        }
        do {
            try await waitUntil(.seconds(60), "the device page to show \(expected)") {
                let shown = try await call(port, "POST", "/session/\(id)/execute/sync", ["script": deepText, "args": []]) as? String ?? ""
                text.withLock { $0.value = shown }
                return expected.allSatisfy { shown.contains($0) }
            }
        } catch {
            let location = try? await call(port, "POST", "/session/\(id)/execute/sync", ["script": "return location.href", "args": []])
            if let path { try? await screenshot(path + ".failed.png") }
            throw HomeAssistantFailure(description: "\(error); at \(location ?? "?") it shows: \(text.withLock { $0.value.prefix(800) })")
        }
        if let path { try await screenshot(path) }
        return text.withLock { $0.value }
    }

    struct TextBox { var value = "" }

    /// One WebDriver call: its `value`.
    static func call(_ port: Int, _ method: String, _ path: String, _ body: [String: Any]?) async throws -> Any {
        let text = try body.map { String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self) }
        let reply = try await RawHTTP.send(port: port, method, path, headers: text == nil ? [] : [("Content-Type", "application/json")], body: text)
        guard reply.status == 200 else {
            throw HomeAssistantFailure(description: "WebDriver \(method) \(path): \(reply.status) \(reply.body.prefix(400))")
        }
        return reply.jsonObject["value"] ?? NSNull()
    }
}
