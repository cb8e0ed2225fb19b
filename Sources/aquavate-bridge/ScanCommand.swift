// `aquavate-bridge scan`: the bottles in range (docs/design.md 3.1).

import ArgumentParser
import Foundation
import Reports
import Settings

struct ScanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "List the Aquavate bottles advertising nearby: name, address, RSSI.",
        discussion: """
            Scans (filtered on the Aquavate service, names starting `Aquavate-`) for --timeout \
            seconds and prints one line per bottle when it is first seen: name, address, RSSI \
            in dBm. A bottle advertises only for a while after it is picked up.
            """
    )

    @Option(help: ArgumentHelp("Seconds to scan (default 10).", valueName: "S"))
    var timeout: Double = 10

    @Option(help: ArgumentHelp("Bluetooth adapter to use (default: the bluetooth.adapter setting, else the first powered one).", valueName: "hciN"))
    var adapter: String?

    @OptionGroup var common: CommonOptions

    func validate() throws {
        if timeout <= 0 { throw ValidationError("--timeout must be a positive number of seconds") }
    }

    func run() async throws {
        do {
            // The setting as `run` reads it: file, stored settings (when a history exists), --set.
            let logger = common.makeLogger()
            let history = FileManager.default.fileExists(atPath: common.databasePath)
                ? try? common.openHistory(path: common.databasePath) : nil
            let configuration = try common.loadConfiguration(history: history, logger: logger)
            let scan = try await BottleScan.run(adapter: adapter ?? configuration[Setting.bluetoothAdapter], seconds: timeout) { sighting in
                let rssi = sighting.rssi.map { "\($0) dBm" } ?? "RSSI unknown"
                print("\(sighting.name)  \(sighting.address)  \(rssi)")
            }
            StandardError.writeLine("\(scan.bottles.count) bottle(s) seen in \(timeout) s on \(scan.adapter)")
        } catch {
            StandardError.writeLine("aquavate-bridge scan: \(error)")
            throw ExitCode.failure
        }
    }
}
