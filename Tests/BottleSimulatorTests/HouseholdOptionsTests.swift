// The simulator's household options on its command line: several bottles on one bus and one
// bottle shared between rooms, documented in --help, and refused with one clear line when
// they cannot be honoured.
import BusTestSupport
import Foundation
import Testing

@Suite struct HouseholdOptionsTests {
    @Test func helpDocumentsSeveralBottlesAndSharedBottle() async throws {
        let bus = try await PrivateBus.start()
        defer { bus.stop() }
        let help = try await bus.run(simulatorBinary, ["--help"])
        #expect(help.status == 0)
        for text in ["--bottles", "--shared-bottle", "--connect-timeout", "--rssi", "SEVERAL BOTTLES ON ONE BUS",
                     "ONE BOTTLE IN SEVERAL ROOMS", "le-connection-abort-by-local", "ADDRESS.link"] {
            #expect(help.output.contains(text), "\(text) in --help")
        }
        for (arguments, message) in [
            (["--bottles", "0"], "--bottles takes 1…50"),
            (["--bottles", "2", "--name", "Kitchen"], "--name names one bottle"),
            (["--rssi", "40"], "--rssi takes -127…20 dBm"),
            (["--connect-timeout=-1"], "delays must not be negative"),
        ] {
            let refused = try await bus.run(simulatorBinary, ["--bus", bus.address] + arguments)
            #expect(refused.status != 0 && refused.error.contains(message), "\(arguments): \(refused)")
        }
        let unusable = try await bus.run(simulatorBinary, ["--bus", bus.address, "--shared-bottle", "/proc/no-such-dir"])
        #expect(unusable.status != 0 && unusable.error.contains("shared bottle: cannot open"), "\(unusable)")
    }
}
