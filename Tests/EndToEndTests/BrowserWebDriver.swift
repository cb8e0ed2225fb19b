// Just enough of the W3C WebDriver protocol to use the dashboard as a person does, in a real
// headless Chromium driven by chromedriver (Debian's chromium and chromium-driver): open a page,
// find elements, read their text, click, type, run scripts (axe-core), read the browser's console,
// take screenshots in light and dark mode.

import BusTestSupport
import Foundation
import ProcessSupport

struct WebDriverFailure: Error, CustomStringConvertible { var description: String }

struct WebDriver: Sendable {
    static let chromedriver = "/usr/bin/chromedriver"
    static let chromium = "/usr/bin/chromium"
    static let elementKey = "element-6066-11e4-a52e-4f735466cecf"

    let port: Int
    let session: String

    /// A new headless browser session on a chromedriver listening on `port`; `arguments`:
    /// Chromium's beyond these defaults (a window size).
    static func start(port: Int, profile: String, arguments: [String] = []) async throws -> WebDriver {
        let capabilities: [String: Any] = ["capabilities": ["alwaysMatch": [
            "browserName": "chrome",
            "goog:chromeOptions": [
                "binary": chromium,
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
                         "--force-device-scale-factor=1", "--no-first-run", "--user-data-dir=\(profile)", "--lang=en-GB"] + arguments,
            ],
            "goog:loggingPrefs": ["browser": "ALL"],
        ]]]
        let reply = try await call(port: port, "POST", "/session", capabilities)
        guard let value = reply as? [String: Any], let session = value["sessionId"] as? String else {
            throw WebDriverFailure(description: "no session: \(reply)")
        }
        return WebDriver(port: port, session: session)
    }

    func go(_ url: String) async throws { _ = try await command("POST", "/url", ["url": url]) }

    func elements(_ css: String) async throws -> [String] {
        let value = try await command("POST", "/elements", ["using": "css selector", "value": css])
        return (value as? [[String: Any]] ?? []).compactMap { $0[Self.elementKey] as? String }
    }

    func element(_ css: String) async throws -> String {
        guard let first = try await elements(css).first else {
            let page = (try? await script("return location.href + ' ' + document.documentElement.outerHTML.slice(0, 600)")) as? String
            throw WebDriverFailure(description: "no element \(css) on the page: \(page ?? "?")")
        }
        return first
    }

    func text(_ css: String) async throws -> String {
        try await command("GET", "/element/\(try await element(css))/text") as? String ?? ""
    }

    /// The text of `css` once it is `expected` (after a form's post and the page that follows),
    /// or what it is after 10 s.
    func text(_ css: String, becoming expected: String) async throws -> String {
        var seen = ""
        for _ in 0..<100 {
            seen = (try? await text(css)) ?? ""
            if seen == expected { return seen }
            try await Task.sleep(for: .milliseconds(100))
        }
        return seen
    }

    func click(_ css: String) async throws { _ = try await command("POST", "/element/\(try await element(css))/click", [:]) }

    func type(_ css: String, _ text: String) async throws {
        let field = try await element(css)
        _ = try await command("POST", "/element/\(field)/clear", [:])
        _ = try await command("POST", "/element/\(field)/value", ["text": text])
    }

    func script(_ source: String) async throws -> Any {
        try await command("POST", "/execute/sync", ["script": source, "args": []])
    }

    /// A script that calls its last argument (WebDriver's asynchronous execution) with its result.
    func asyncScript(_ source: String) async throws -> Any {
        try await command("POST", "/execute/async", ["script": source, "args": []])
    }

    /// The page as a device in dark (or light) mode sees it: `prefers-color-scheme` emulated.
    func colourScheme(dark: Bool) async throws {
        _ = try await command("POST", "/goog/cdp/execute", ["cmd": "Emulation.setEmulatedMedia",
                                                             "params": ["features": [["name": "prefers-color-scheme", "value": dark ? "dark" : "light"]]]])
    }

    /// The console's messages since the last call (chromedriver's log endpoint).
    func consoleEntries() async throws -> [[String: Any]] {
        (try await command("POST", "/se/log", ["type": "browser"]) as? [[String: Any]]) ?? []
    }

    /// The window as a device of `width` × `height` CSS pixels shows the page (a phone's first
    /// screen), the page laid out again.
    func viewport(width: Int, height: Int, mobile: Bool) async throws {
        _ = try await command("POST", "/goog/cdp/execute", ["cmd": "Emulation.setDeviceMetricsOverride",
                                                             "params": ["width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile]])
    }

    /// What the window shows now (after `viewport`): a PNG.
    func screenshotOfViewport() async throws -> Data {
        guard let base64 = try await command("GET", "/screenshot") as? String, let png = Data(base64Encoded: base64) else {
            throw WebDriverFailure(description: "no screenshot")
        }
        return png
    }

    /// The page at `width` CSS pixels, as tall as the page is: a PNG.
    func screenshot(width: Int, mobile: Bool) async throws -> Data {
        _ = try await command("POST", "/goog/cdp/execute", ["cmd": "Emulation.setDeviceMetricsOverride",
                                                             "params": ["width": width, "height": 800, "deviceScaleFactor": 1, "mobile": mobile]])
        let height = (try await script("return document.documentElement.scrollHeight") as? Int) ?? 2000
        _ = try await command("POST", "/goog/cdp/execute", ["cmd": "Emulation.setDeviceMetricsOverride",
                                                             "params": ["width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile]])
        guard let base64 = try await command("GET", "/screenshot") as? String, let png = Data(base64Encoded: base64) else {
            throw WebDriverFailure(description: "no screenshot")
        }
        return png
    }

    func quit() async { _ = try? await Self.call(port: port, "DELETE", "/session/\(session)", nil) }

    private func command(_ method: String, _ path: String, _ body: [String: Any]? = nil) async throws -> Any {
        try await Self.call(port: port, method, "/session/\(session)\(path)", body)
    }

    /// One WebDriver call; its `value`, or its error as a failure.
    static func call(port: Int, _ method: String, _ path: String, _ body: [String: Any]?) async throws -> Any {
        let text = try body.map { String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self) }
        let reply = try await RawHTTP.send(port: port, method, path, headers: text == nil ? [] : [("Content-Type", "application/json")], body: text)
        let object = reply.jsonObject
        if reply.status != 200 {
            throw WebDriverFailure(description: "\(method) \(path): \(reply.status) \(reply.body.prefix(400))")
        }
        return object["value"] ?? NSNull()
    }

    /// A free loopback port (bound and released; chromedriver takes it a moment later).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Int32 in
                guard bind(fd, pointer, length) == 0 else { return -1 }
                return getsockname(fd, pointer, &length)
            }
        }
        guard bound == 0 else { throw WebDriverFailure(description: "no free port: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
