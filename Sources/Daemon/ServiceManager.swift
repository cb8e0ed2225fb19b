// The service manager's notification protocol (sd_notify(3)): READY=1, STATUS=, STOPPING=1 and
// WATCHDOG=1 for a `Type=notify` unit with `WatchdogSec=`. libsystemd speaks the protocol; a
// protocol here lets the pinger's tests record what would be sent.

import CSystemd
import Foundation
import Settings

package protocol ServiceManager: Sendable {
    /// True when a service manager listens (NOTIFY_SOCKET is set); otherwise nothing is sent.
    var isListening: Bool { get }
    /// The watchdog time-out systemd expects pings within (`WatchdogSec=`), nil when it runs none.
    var watchdogTimeout: Duration? { get }
    /// Sends newline-separated `KEY=value` assignments.
    func notify(_ assignments: String)
}

extension ServiceManager {
    /// `STATUS=`: one line, what the daemon does now (`systemctl status` shows it).
    package func status(_ text: String) {
        notify("STATUS=" + text.split(whereSeparator: \.isNewline).joined(separator: " "))
    }
}

/// systemd, through libsystemd.
package struct Systemd: ServiceManager {
    package let isListening: Bool
    package let watchdogTimeout: Duration?

    /// Reads this process's environment, as libsystemd does.
    package init() {
        isListening = !(ProcessEnvironment.current["NOTIFY_SOCKET"] ?? "").isEmpty
        var microseconds: UInt64 = 0
        // sd_watchdog_enabled reads WATCHDOG_USEC and WATCHDOG_PID (the pings are expected from
        // that process only). 0: the variables stay in the environment; a child started later
        // does not take them as its own, WATCHDOG_PID names this process.
        if isListening, sd_watchdog_enabled(0, &microseconds) > 0, microseconds > 0 {
            watchdogTimeout = .microseconds(Int64(clamping: microseconds))
        } else {
            watchdogTimeout = nil
        }
    }

    package func notify(_ assignments: String) {
        guard isListening else { return }
        // A failure (the manager went away) changes nothing for the bridge: it keeps syncing.
        _ = sd_notify(0, assignments)
    }
}
