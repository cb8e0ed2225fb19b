// The process's environment, read once. `ProcessInfo.processInfo.environment` builds a new
// dictionary of every variable at each call (~350,000 instructions here); a `run --once` asked
// for it five times on its way to the bottle (the log handler, the instance lock, the session
// bus, the service manager, the default paths). Nothing in the bridge changes its own
// environment, so one copy, made at the first use, answers them all. Code that is tested with
// other environments takes a dictionary, whose default is this one.

import Foundation

package enum ProcessEnvironment {
    /// The environment the process started with (first read on first use).
    package static let current: [String: String] = ProcessInfo.processInfo.environment
}
