import AquavateProtocol
import Foundation
import Timekeeping

/// What a btsnoop file became: a capture header and events in time order, ready for
/// `CaptureWriter` or replay, plus what could not be used.
package struct BtsnoopImport: Sendable, Equatable {
    package var header: CaptureHeader
    package var events: [CaptureEvent]
    /// Per-record problems; `line` is the record number (1-based).
    package var errors: [CaptureLineError]
    /// Attribute handles that carried values but map to no characteristic, ascending: pass
    /// them as `--handle NAME=0xHHHH` to include their events.
    package var unmappedHandles: [UInt16]
    /// Records in the file, including ignored ones.
    package var recordCount: Int
}

/// Imports btsnoop captures (`btmon -w`, Android's `btsnoop_hci.log`; docs/integrations.md 3) as
/// capture events: connections, notifications, writes, reads (long reads joined), the MTU.
/// Handles are named from the GATT discovery in the capture, or by `handleMap`, which wins.
package struct BtsnoopImporter: Sendable {
    package var handleMap: [UInt16: Characteristic]

    package init(handleMap: [UInt16: Characteristic] = [:]) {
        self.handleMap = handleMap
    }

    /// Reads and imports `path`, streaming it in blocks (a capture of hundreds of megabytes
    /// needs no more memory than its events). Throws `CaptureFileUnreadable` or
    /// `BtsnoopFileRejected` (not btsnoop, wrong version, unsupported datalink); problems of
    /// single records are in the result's `errors`.
    package func importFile(path: String) throws -> BtsnoopImport {
        try importSource(.file(FileSource(path: path)), name: path)
    }

    /// Imports a btsnoop file held in memory, named `name` in errors.
    package func importData(_ bytes: [UInt8], name: String) throws(BtsnoopFileRejected) -> BtsnoopImport {
        do {
            return try importSource(.memory(bytes, offset: 0), name: name)
        } catch let rejected as BtsnoopFileRejected {
            throw rejected
        } catch {
            // Bytes in memory never fail to read; said as a rejection rather than a crash anyway.
            throw BtsnoopFileRejected(file: name, message: "\(error)")
        }
    }

    private func importSource(_ source: ByteSource, name: String) throws -> BtsnoopImport {
        var file = try BtsnoopFile(source: source, name: name)
        var decoder = BtsnoopDecoder(file: name, datalink: file.datalink, handleMap: handleMap)
        var recordCount = 0
        while let item = file.next() {
            switch item {
            case .record(let record):
                recordCount = record.number
                decoder.consume(record)
            case .broken(let number, let message):
                decoder.report(number, message)
            case .unreadable(let reason):
                throw CaptureFileUnreadable(path: name, reason: reason)
            }
        }
        decoder.finish()
        let header = CaptureHeader(
            created: decoder.firstTime.map(ISO8601Text.format),
            source: "btsnoop import (datalink \(file.datalink.rawValue))",
            deviceName: decoder.deviceName, deviceAddress: decoder.deviceAddress, mtu: decoder.mtu)
        // Events are made in record order, except a long read, which is stamped with its last
        // part and known complete only later; a stable sort restores time order.
        let events = decoder.events.enumerated()
            .sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
            .map(\.element)
        let errors = decoder.errors.enumerated()
            .sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }
            .map(\.element)
        return BtsnoopImport(header: header, events: events, errors: errors,
                             unmappedHandles: decoder.unmappedHandles.sorted(), recordCount: recordCount)
    }

    /// Parses a `--handle` option: `drink-data=0x0012` (a capture name or UUID, `=`, the value
    /// handle in hex with `0x` or in decimal).
    package static func parseHandleOption(_ text: String) throws(HandleOptionInvalid) -> (UInt16, Characteristic) {
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw HandleOptionInvalid(text: text, problem: "no \"=\"") }
        let name = parts[0].trimmingCharacters(in: .whitespaces)
        let number = parts[1].trimmingCharacters(in: .whitespaces)
        guard let characteristic = Characteristic(nameOrUUID: name) else {
            throw HandleOptionInvalid(text: text, problem: "unknown characteristic \"\(name)\"")
        }
        let parsed: UInt16?
        if number.lowercased().hasPrefix("0x") {
            let digits = number.dropFirst(2)
            parsed = (1...4).contains(digits.count) ? UInt16(digits, radix: 16) : nil
        } else {
            parsed = UInt16(number)
        }
        guard let handle = parsed, handle != 0 else {
            throw HandleOptionInvalid(text: text, problem: "handle \"\(number)\" is not a number from 0x0001 to 0xffff")
        }
        return (handle, characteristic)
    }
}

/// A `--handle` option that can't be used.
package struct HandleOptionInvalid: Error, Sendable, Equatable, CustomStringConvertible {
    package var text: String
    package var problem: String

    package init(text: String, problem: String) {
        self.text = text
        self.problem = problem
    }

    package var description: String {
        let names = Characteristic.allCases.map(\.captureName).joined(separator: ", ")
        return "--handle \"\(text)\": \(problem); expected NAME=0xHHHH with NAME one of \(names)"
    }
}
