// The bottle's device page of the real Home Assistant in headless Chromium, as its owner sees it
// (docs/home-assistant.md shows it): the browser is logged in the way Home Assistant's own login
// page does it, with an authorization code of the login flow handed to the frontend's
// `auth_callback`, which exchanges it for tokens itself.

import BusTestSupport
import Foundation

enum DevicePage {
    static let chromium = "/usr/bin/chromium"

    static func screenshot(_ home: HomeAssistant, entity: String, to path: String, folder: URL) async throws {
        let device = try await home.template("{{ device_id('\(entity)') }}").trimmingCharacters(in: .whitespacesAndNewlines)
        let code = try await home.authorizationCode()
        let state = Data(#"{"hassUrl":"\#(home.base)","clientId":"\#(home.clientID)"}"#.utf8).base64EncodedString()
            .addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let url = "\(home.base)/config/devices/device/\(device)?auth_callback=1&code=\(code)&state=\(state)"
        let result = try await runTool(chromium, [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
            "--force-device-scale-factor=1", "--no-first-run", "--lang=en-GB", "--window-size=1400,1100",
            "--user-data-dir=\(folder.appendingPathComponent("chromium").path)", "--virtual-time-budget=30000",
            "--screenshot=\(path)", url,
        ], timeout: .seconds(120))
        guard FileManager.default.fileExists(atPath: path) else {
            throw HomeAssistantFailure(description: "no screenshot: \(result)")
        }
    }
}
