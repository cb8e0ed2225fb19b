// Another local user must not keep the service from starting: the Bluetooth stack's claim is a name
// in Linux's abstract socket namespace, which has no permissions: any local user could bind
// `\0aquavate-bridge@system` first, and the service then refused to start. Now a holder is believed
// only when it may run the bridge (this user, root, the service's user, the group `bluetooth`); a
// squatter (here the user nobody, through setpriv) is named in one line and ignored. A holder of
// this user is still believed (SecondInstanceTests covers a real second daemon). Real processes on
// a private bus with the simulator.

import BusTestSupport
@testable import Daemon
import Foundation
import History
import ProcessSupport
import TestFixtures
import Testing

@Suite("the Bluetooth stack's claim")
struct ClaimSquatterTests {
    static let bridge = LiveCommandTests.bridge
    /// Binds (and with `listen`, listens on) the abstract name argv[1], then waits to be killed.
    static let squatter = """
        import socket, sys, time
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.bind(b"\\0" + sys.argv[1].encode()[:107])
        if sys.argv[2] == "listen":
            s.listen(4)
        print("bound", flush=True)
        time.sleep(600)
        """

    private func squat(_ bus: PrivateBus, as user: String?, listening: Bool, logName: String) async throws -> ChildProcess {
        let name = "aquavate-bridge@" + bus.address
        let python = ["/usr/bin/python3", "-c", Self.squatter, name, listening ? "listen" : "bind"]
        let child = if let user {
            try bus.spawn("/usr/bin/setpriv", ["--reuid=\(user)", "--regid=\(user)", "--clear-groups", "--"] + python, logName: logName)
        } else {
            try bus.spawn(python[0], Array(python.dropFirst()), logName: logName)
        }
        try await waitUntil(.seconds(20), "the squatter to bind (\(bus.log(logName)))") { bus.log(logName).contains("bound") }
        return child
    }

    @Test("another user's squatter, listening or not, does not stop run; one of this user's does")
    func squatters() async throws {
        try await withPrivateBus { bus in
            let folder = TemporaryFolder()
            try await LiveCommandTests().startSimulator(on: bus, folder: folder, records: 30)
            let db = folder.path + "/history.sqlite"

            let nobody = try await squat(bus, as: "65534", listening: true, logName: "nobody")
            let run = try await LiveCommandTests().bridge(bus, ["run", "--once", "--timeout", "30", "--db", db])
            #expect(run.status == 0, "\(run)")
            #expect(try DrinkHistory(path: db).drinks.drinkCount() == 30)
            #expect(run.error.contains("is held by PID \(nobody.processIdentifier) of user nobody (65534), who may not run the bridge: ignored"),
                    "\(run.error)")
            nobody.killNow()
            _ = await nobody.waitForExit(timeout: .seconds(10))

            let silent = try await squat(bus, as: "65534", listening: false, logName: "silent")
            let second = try await LiveCommandTests().bridge(bus, ["run", "--once", "--timeout", "30", "--db", folder.path + "/second.sqlite"])
            #expect(second.status == 0, "\(second)")
            #expect(second.error.contains("is held by a process that does not answer"), "\(second.error)")
            silent.killNow()
            _ = await silent.waitForExit(timeout: .seconds(10))

            // This user's holder is believed: refused, naming its PID, as before.
            let own = try await squat(bus, as: nil, listening: true, logName: "own")
            let refused = try await LiveCommandTests().bridge(bus, ["run", "--once", "--timeout", "10", "--db", folder.path + "/third.sqlite"])
            #expect(refused.status == 1, "\(refused)")
            #expect(refused.error.contains("PID \(own.processIdentifier)"), "\(refused.error)")
            own.killNow()
        }
    }

    @Test("who may hold the claim: this user and root; not nobody")
    func trust() {
        #expect(BusClaim.mayRunTheBridge(uid: 0))
        #expect(BusClaim.mayRunTheBridge(uid: geteuid()))
        #expect(!BusClaim.mayRunTheBridge(uid: 65534) || geteuid() == 65534)
    }
}
