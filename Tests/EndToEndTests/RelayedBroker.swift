// The set-up of the suites whose household members run their replication in the test process
// (HouseholdChaosTests, HouseholdConvergenceTests, HouseholdRepairTrafficTests): a real mosquitto
// on a private bus, a LossyMQTTRelay in front of it (lossless until a test sets its rates: it also
// tells when the path is quiet, and counts the bytes) and the ManualClock the members share.

import BusTestSupport
import Foundation
import ProcessSupport
import TestFixtures
import Testing
import Timekeeping

struct RelayedBroker {
    let bus: PrivateBus
    let folder: TemporaryFolder
    let port: Int
    /// The broker as started (a test may kill it and start another on `port`).
    let broker: ChildProcess
    let relay: LossyMQTTRelay
    let clock: ManualClock

    /// The parts, stopped when `body` returns; the relay's connections are its `seed`'s.
    static func with(seed: UInt64 = 1, _ body: (RelayedBroker) async throws -> Void) async throws {
        try await withPrivateBus { bus in
            let folder = TemporaryFolder()
            let port = try freeTCPPort()
            let broker = try startMosquitto(on: bus, in: folder, port: port)
            defer { broker.killNow() }
            let relay = try #require(LossyMQTTRelay(to: port, seed: seed, rates: .none))
            defer { relay.stop() }
            try await body(RelayedBroker(bus: bus, folder: folder, port: port, broker: broker, relay: relay, clock: ManualClock(WallInstant(Date()))))
        }
    }
}
