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
    /// The text of the page, through every shadow root (Home Assistant's frontend is web components).
    static let deepText = """
        const walk = (node) => { let text = ''; \
        if (node.shadowRoot) text += walk(node.shadowRoot); \
        for (const child of node.childNodes) { text += child.nodeType === 3 ? child.textContent + ' ' : walk(child); } \
        return text; }; return walk(document.body);
        """

    /// Opens the device page of `entity`'s device, waits until it shows `expected` (entity names),
    /// and returns its text; writes a PNG to `path` when given. The browser is a `HeadlessBrowser`:
    /// its session quit and every process of it ended whatever happens here.
    @discardableResult
    static func open(_ home: HomeAssistant, entity: String, expecting expected: [String], screenshot path: String?,
                     folder: URL) async throws -> String {
        let device = try await home.template("{{ device_id('\(entity)') }}").trimmingCharacters(in: .whitespacesAndNewlines)
        return try await show(home, path: "/config/devices/device/\(device)", expecting: expected, screenshot: path, folder: folder)
    }

    static let httpDialog = "Confirm new HTTP server configuration"

    /// Clicks the button that says "Confirm", wherever it is in the shadow roots.
    static let confirmButton = """
        const find = (node) => { if (node.shadowRoot) { const found = find(node.shadowRoot); if (found) return found; } \
        for (const child of node.children || []) { \
        if (['HA-BUTTON', 'MWC-BUTTON', 'BUTTON'].includes(child.tagName) && child.textContent.trim() === 'Confirm') return child; \
        const found = find(child); if (found) return found; } return null; }; \
        const button = find(document.body); if (button) { button.click(); return true; } return false;
        """

    /// Opens `page` (a path of Home Assistant's frontend) logged in, waits until it shows every
    /// text of `expected` and none of `refused`, and returns its text; a PNG to `path` when given.
    @discardableResult
    static func show(_ home: HomeAssistant, path page: String, expecting expected: [String], refusing refused: [String] = [],
                     window: String = "1280,1400", screenshot path: String?, folder: URL) async throws -> String {
        let profile = folder.appendingPathComponent("chromium-\(UUID().uuidString.prefix(8))").path
        let log = folder.appendingPathComponent("chromedriver.log").path
        return try await HeadlessBrowser.with(profile: profile, arguments: ["--window-size=\(window)"], driverLog: log) { browser in
            let code = try await home.authorizationCode()
            let state = Data(#"{"hassUrl":"\#(home.base)","clientId":"\#(home.clientID)"}"#.utf8).base64EncodedString()
                .addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            try await browser.go("\(home.base)\(page)?auth_callback=1&code=\(code)&state=\(state)")
            let text = Locked(TextBox())
            func screenshot(_ path: String) async throws {
                guard let base64 = try await WebDriver.call(port: browser.port, "GET", "/session/\(browser.session)/screenshot", nil) as? String,
                      let png = Data(base64Encoded: base64) else {
                    throw HomeAssistantFailure(description: "no screenshot")
                }
                try png.write(to: URL(fileURLWithPath: path))
            }
            do {
                try await waitUntil(.seconds(60), "\(page) to show \(expected) and not \(refused)") {
                    let shown = try await browser.script(deepText) as? String ?? ""
                    text.withLock { $0.value = shown }
                    // From 2026 on, a new install whose http settings come from its YAML asks its
                    // owner to confirm them (else it reverts them after 5 minutes): confirmed, as
                    // the owner would, and the page read after.
                    if shown.contains(httpDialog) {
                        _ = try await browser.script(confirmButton)
                        return false
                    }
                    return expected.allSatisfy { shown.contains($0) } && !refused.contains { shown.contains($0) }
                }
            } catch {
                let location = try? await browser.script("return location.href")
                if let path { try? await screenshot(path + ".failed.png") }
                let errors = home.log.split(separator: "\n").filter { $0.contains(" ERROR ") || $0.contains(" WARNING ") }.suffix(15)
                throw HomeAssistantFailure(description: "\(error); at \(location ?? "?") it shows: \(text.withLock { $0.value.prefix(300) }); "
                                           + "Home Assistant's log: \(errors.joined(separator: "\n"))")
            }
            if let path { try await screenshot(path) }
            return text.withLock { $0.value }
        }
    }

    struct TextBox { var value = "" }
}
