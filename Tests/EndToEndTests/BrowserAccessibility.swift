// axe-core, Deque's accessibility engine, run in the suite's headless Chromium on the page it
// shows: the pinned axe.min.js of scripts/axe-core.sh (a PyPI wheel's copy, cached), injected
// through WebDriver (which the page's Content-Security-Policy does not govern), run on the rules
// of WCAG 2.0, 2.1 and 2.2 A and AA (its target size included) and axe's best practices, and its
// serious and critical findings returned, one line each.

import BusTestSupport
import Foundation

enum Accessibility {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// axe.min.js (the first time: the wheel is downloaded, a minute or so).
    static func axeSource() async throws -> String {
        let result = try await runTool("/bin/bash", [repository.appendingPathComponent("scripts/axe-core.sh").path], timeout: .seconds(600))
        guard result.status == 0, let path = result.lines.last else {
            throw WebDriverFailure(description: "scripts/axe-core.sh failed: \(result)")
        }
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    /// The serious and critical findings on the page `browser` shows, as "rule: help (where)".
    static func findings(_ browser: WebDriver, axe: String) async throws -> [String] {
        if (try await browser.script("return typeof window.axe")) as? String != "object" {
            _ = try await browser.script(axe + "\n;return true")
        }
        let found = try await browser.asyncScript("""
            var done = arguments[arguments.length - 1];
            axe.run(document, {runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]},
                               resultTypes: ["violations"]}).then(function (result) {
              done(result.violations.filter(function (v) { return v.impact === "serious" || v.impact === "critical"; })
                .map(function (v) { return v.id + ": " + v.help + " (" + v.nodes.slice(0, 3).map(function (n) { return n.target.join(" "); }).join(" | ") + ")"; }));
            }).catch(function (e) { done(["axe failed: " + e]); });
            """)
        guard let lines = found as? [String] else { throw WebDriverFailure(description: "axe answered \(found)") }
        return lines
    }

    /// The axe-core version that ran (so a report can say which).
    static func version(_ browser: WebDriver) async throws -> String {
        (try await browser.script("return window.axe ? axe.version : ''")) as? String ?? ""
    }
}
