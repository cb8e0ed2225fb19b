// A headless Chromium under chromedriver for the length of one use, for every test that drives a
// browser (the dashboard's and Home Assistant's device page): the session is quit on every path,
// then chromedriver and everything it started are killed at once (BrowserProcesses), and the test
// checks that no Chromium of its own is left. Quitting the session from a detached task and killing
// chromedriver alone (as the device page once did) left a headless Chromium running after the run.

import BusTestSupport
import Foundation
import ProcessSupport
import Testing

enum HeadlessBrowser {
    /// `body` with a browser whose profile is `profile` (a folder of the test's own, which also
    /// finds a Chromium left by it). `arguments`: Chromium's beyond the headless defaults;
    /// `driverLog`: where chromedriver writes its log.
    static func with<T: Sendable>(profile: String, arguments: [String] = [], driverLog: String? = nil,
                                  _ body: @Sendable (WebDriver) async throws -> T) async throws -> T {
        for program in [WebDriver.chromedriver, WebDriver.chromium] {
            try #require(FileManager.default.isExecutableFile(atPath: program),
                         "\(program) is missing: scripts/install-deps.sh installs chromium and chromium-driver")
        }
        var outcome: Result<T, any Error>
        do {
            let driverPort = try WebDriver.freePort()
            let driver = try ChildProcess.spawn(WebDriver.chromedriver, ["--port=\(driverPort)"] + (driverLog.map { ["--log-path=\($0)"] } ?? []))
            // Whatever happens below (a failed start, a thrown check, a session whose quit was
            // lost), nothing chromedriver started outlives this use.
            defer { BrowserProcesses.kill(driver) }
            do {
                try await waitUntil(.seconds(20), "chromedriver to listen") {
                    (try? await RawHTTP.send(port: driverPort, "GET", "/status"))?.status == 200
                }
            } catch {
                let log = driverLog.flatMap { try? String(contentsOfFile: $0, encoding: .utf8) }?.suffix(800) ?? ""
                throw WebDriverFailure(description: "\(error)\(log.isEmpty ? "" : "; chromedriver's log: \(log)")")
            }
            let browser = try await WebDriver.start(port: driverPort, profile: profile, arguments: arguments)
            do {
                outcome = .success(try await body(browser))
            } catch {
                outcome = .failure(error)
            }
            // Every path quits the session before the browser's processes are killed.
            await browser.quit()
        } catch {
            outcome = .failure(error)
        }
        // Killed processes take a moment to go: wait for it, then say which are left, if any (and
        // end them, so that one failure does not leave a browser to the next run).
        _ = try? await waitUntil(.seconds(10), "the browser's processes to end") { BrowserProcesses.survivors(profile: profile).isEmpty }
        let left = BrowserProcesses.survivors(profile: profile)
        #expect(left.isEmpty, "processes of the browser outlived its use:\n\(left.map(\.description).joined(separator: "\n"))")
        BrowserProcesses.kill(left)
        return try outcome.get()
    }
}
