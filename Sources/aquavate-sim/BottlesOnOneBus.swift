// `--bottles N`: the configurations of N bottles in range of one adapter, each its own bottle
// (address, serial, name, records, state file) derived from the first one's.
import ArgumentParser
import BottleSimulator
import Foundation
import Timekeeping

enum BottlesOnOneBus {
    /// Bottle `index` (0 is the first, as configured): the address plus 4 × index in its last two
    /// bytes (the serial, address − 2, differs with it), `records` drinks ending `index` minutes
    /// earlier, the state file with "-(index + 1)" before its extension, and no faults.
    static func configuration(bottle index: Int, of first: SimulatorConfiguration, records: Int?) throws
        -> SimulatorConfiguration {
        guard index > 0 else { return first }
        var bottle = first
        bottle.faults = []
        bottle.name = nil
        bottle.address = try address(first.address, plus: 4 * index)
        if let records {
            bottle.records = RecordSource.generated(count: records, endingAt: SystemClock().now - .seconds(60 * index))
        }
        if let file = first.stateFile {
            let stem = file.deletingPathExtension().lastPathComponent + "-\(index + 1)"
            let name = file.pathExtension.isEmpty ? stem : stem + "." + file.pathExtension
            bottle.stateFile = file.deletingLastPathComponent().appendingPathComponent(name)
        }
        return bottle
    }

    /// `address` with `offset` added to its last two bytes.
    static func address(_ address: String, plus offset: Int) throws -> String {
        var bytes = address.split(separator: ":").compactMap { UInt8($0, radix: 16) }
        guard bytes.count == 6 else {
            throw ValidationError("bottle address \"\(address)\" is not of the form F4:12:FA:00:A3:F4")
        }
        let low = (Int(bytes[4]) << 8 | Int(bytes[5])) + offset
        bytes[4] = UInt8((low >> 8) & 0xFF)
        bytes[5] = UInt8(low & 0xFF)
        return bytes.map { String(format: "%02X", $0) }.joined(separator: ":")
    }
}
