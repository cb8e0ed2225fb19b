// A real mosquitto for the household and Home Assistant tests, started one way everywhere.
//
// On 127.0.0.1 and a port of `freeTCPPort()`, no persistence (a restart loses the sessions and the
// retained messages, which some tests want to see repaired), and `user root` when the tests run
// as root (docs/swift-linux.md P6: mosquitto 2 started as root otherwise drops to `mosquitto`).

import BusTestSupport
import Foundation
import ProcessSupport
import TestFixtures

/// Starts mosquitto on `bus` at `port` with its configuration in `folder` (which must outlive it);
/// `settings` are more configuration lines (a password file, an ACL), `anonymous` whether clients
/// without a user are let in. Its output is the bus log `logName`.
func startMosquitto(on bus: PrivateBus, in folder: TemporaryFolder, port: Int, anonymous: Bool = true, settings: String = "",
                    logName: String = "mosquitto") throws -> ChildProcess {
    let conf = folder.write("\(logName)-\(port).conf", "listener \(port) 127.0.0.1\nallow_anonymous \(anonymous)\npersistence false\n"
                            + settings + (getuid() == 0 ? "user root\n" : ""))
    return try bus.spawn("/usr/sbin/mosquitto", ["-c", conf], logName: logName)
}
