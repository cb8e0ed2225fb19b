// The dashboard card of docs/home-assistant.md as its reader uses it: pasted into a dashboard of
// Home Assistant's (its Lovelace config, saved through the websocket API as the dashboard editor
// does) and opened in headless Chromium. Every entity it names must be one Home Assistant has: a
// card naming an id it does not know shows "Entity not available" where the value should be.

import BusTestSupport
import Foundation
import ProcessSupport

enum DashboardCard {
    /// The YAML of the card, from the docs.
    static func documented() throws -> String {
        let text = try String(contentsOf: HomeAssistant.repository.appendingPathComponent("docs/home-assistant.md"), encoding: .utf8)
        guard let heading = text.range(of: "### A dashboard card"), let open = text.range(of: "```yaml\n", range: heading.upperBound..<text.endIndex),
              let close = text.range(of: "```", range: open.upperBound..<text.endIndex) else {
            throw HomeAssistantFailure(description: "docs/home-assistant.md has no dashboard card")
        }
        return String(text[open.upperBound..<close.lowerBound])
    }

    /// Saves the card as the one view of a new dashboard, opens it, and waits
    /// until it shows `expected` and no warning of an unknown entity; a PNG to `screenshot` when given.
    static func check(_ home: HomeAssistant, expecting expected: [String], screenshot: String?, folder: URL) async throws {
        // Home Assistant's own YAML reader (its environment has PyYAML): the card as the editor reads it.
        let parsed = try await runTool(home.python, ["-c", "import json, sys, yaml; print(json.dumps(yaml.safe_load(sys.argv[1])))",
                                                     try documented()], timeout: .seconds(60))
        guard parsed.status == 0, let line = parsed.lines.last,
              let card = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw HomeAssistantFailure(description: "the card is not YAML Home Assistant reads: \(parsed)")
        }
        // A dashboard of its own, as Settings → Dashboards → Add dashboard makes one (the default
        // one is no longer `/lovelace` from 2026 on), the card its one view.
        _ = try await home.websocket(["type": "lovelace/dashboards/create", "url_path": "aquavate-water", "title": "Water",
                                      "mode": "storage", "require_admin": false, "show_in_sidebar": true])
        let view: [String: Any] = ["title": "Water", "path": "water", "cards": [card]]
        _ = try await home.websocket(["type": "lovelace/config/save", "url_path": "aquavate-water", "config": ["title": "Water", "views": [view]]])
        try await DevicePage.show(home, path: "/aquavate-water/water", expecting: expected,
                                  refusing: ["Entity not available", "Entity not found", "not available:"],
                                  window: "900,1100", screenshot: screenshot, folder: folder)
    }
}
