// `aquavate-bridge import FILE.btsnoop -o FILE.aqcap`: convert a Bluetooth capture.

import AquavateCapture
import AquavateProtocol
import ArgumentParser
import Foundation
import Reports

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Convert a btsnoop capture (btmon -w, Android HCI log) into an .aqcap file.",
        discussion: """
            Reads datalinks 1001 (HCI), 1002 (HCI UART/H4) and 2001 (btmon), reassembles ACL \
            fragments, and keeps the ATT traffic of the bottle's characteristics: notifications, \
            writes and read responses. Handles are mapped to characteristics from the GATT \
            discovery inside the capture; when the capture starts after discovery, give them \
            with --handle (see `btmon` or `bluetoothctl` for the value handles).

            Damaged records are reported with their record number and skipped.
            """
    )

    @Argument(help: ArgumentHelp("The btsnoop file.", valueName: "FILE"))
    var input: String

    @Option(name: .shortAndLong, help: ArgumentHelp(
        "Where to write the .aqcap capture. It is written beside FILE and renamed over it when complete: whatever was at FILE (a symbolic link included) is replaced, never written through.",
        valueName: "FILE"))
    var output: String

    @Option(name: .customLong("handle"), help: ArgumentHelp(
        "Map an ATT value handle to a characteristic, e.g. --handle drink-data=0x0012 (repeatable).",
        valueName: "NAME=0xHHHH"))
    var handles: [String] = []

    func run() throws {
        try reportingFailures("import") {
            let handleMap = try HandleOptions.map(handles)
            let imported: BtsnoopImport
            do {
                imported = try BtsnoopImporter(handleMap: handleMap).importFile(path: input)
            } catch {
                throw CommandFailure("\(error)")
            }
            for error in imported.errors {
                StandardError.writeLine(error.description)
            }
            // A temporary file renamed over the output: a symlink there is replaced, never
            // written through (CaptureReplacement).
            do {
                let replacement = try CaptureReplacement(path: output, header: imported.header)
                for event in imported.events {
                    try replacement.writer.write(event)
                }
                try replacement.commit()
            } catch let unwritable as CaptureFileUnwritable {
                throw CommandFailure("\(unwritable)")
            } catch {
                throw CommandFailure("cannot write \(output): \(error)")
            }
            if !imported.unmappedHandles.isEmpty {
                let list = imported.unmappedHandles.map { String(format: "0x%04X", $0) }.joined(separator: ", ")
                StandardError.writeLine("warning: traffic on handles \(list) was not mapped; pass --handle NAME=0xHHHH to keep it")
            }
            print("\(imported.events.count) events written to \(output)")
            if !imported.errors.isEmpty {
                throw CommandFailure("\(imported.errors.count) record(s) rejected; the rest was imported")
            }
        }
    }
}
