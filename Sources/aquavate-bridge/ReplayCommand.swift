// `aquavate-bridge replay FILE...`: captures through the decoder and the history.

import AquavateCapture
import AquavateProtocol
import ArgumentParser
import Foundation
import Ingest
import Reports

struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay recorded captures through the decoder and the drink history.",
        discussion: """
            Each FILE is an .aqcap capture (JSON Lines, as written by `run --record`) or a \
            btsnoop file (`btmon -w`, Android's btsnoop_hci.log), recognised by its first bytes. \
            All files form one timeline and one history, in the order given.

            The sync is reconstructed from the capture (START, chunks, ACKs, interruptions) and \
            every chunk's records are stored before the ACK that follows them, exactly as the \
            live bridge does. Records already in the history are reported with "new": false.

            Without --db the history lives in memory for this run only. With --db, replaying \
            the same capture twice stores nothing twice.

            Output: one line per event; with --json one JSON object per line (drink, state, \
            sync, notification, error, then one day event per local day the drinks fall on).

            With --reminders the reminder engine runs on the capture's clock (docs/reminders.md 0): \
            a tick at every whole minute from the first to the last event, a tick at the same \
            instant as an event running before it. Two replays sharing one --db are two runs of \
            the bridge with a restart in between: the engine's state is restored from the database.

            Exit status: 0 when every line was used; 1 when any input line was rejected \
            (each is reported with file and line) after processing all the rest.
            """
    )

    @Argument(help: ArgumentHelp("Capture files (.aqcap or btsnoop).", valueName: "FILE"))
    var files: [String]

    @Flag(help: "One JSON object per line (docs/design.md 3.4).")
    var json = false

    @Flag(help: ArgumentHelp(
        "Run the reminder engine on the capture's clock: a tick at every whole minute between the first and the last event; deliveries are printed as notification events.",
        discussion: ""))
    var reminders = false

    @Option(name: .customLong("handle"), help: ArgumentHelp(
        "btsnoop only: map an ATT value handle to a characteristic when the capture has no discovery, e.g. --handle drink-data=0x0012 (repeatable).",
        valueName: "NAME=0xHHHH"))
    var handles: [String] = []

    @OptionGroup var common: CommonOptions

    func run() throws {
        try reportingFailures("replay") {
            let logger = common.makeLogger()
            let handleMap = try HandleOptions.map(handles)
            let history = try common.openHistory(path: common.db, durability: .normal)
            let configuration = try common.loadConfiguration(history: common.db == nil ? nil : history, logger: logger)
            let json = self.json
            let timeZone = configuration.timeZone
            let replayer = Replayer(history: history, configuration: configuration, logger: logger,
                                    reminders: reminders) { event in
                if case .error = event, !json {
                    StandardError.writeLine(event.textLine(timeZone: timeZone))
                } else {
                    print(json ? event.jsonLine() : event.textLine(timeZone: timeZone))
                }
            }
            for file in files {
                replayer.replay(path: file, handleMap: handleMap)
            }
            replayer.finish()
            if replayer.rejectedLines > 0 || replayer.failedFiles > 0 {
                var parts: [String] = []
                if replayer.rejectedLines > 0 { parts.append("\(replayer.rejectedLines) input line(s) rejected") }
                if replayer.failedFiles > 0 { parts.append("\(replayer.failedFiles) file(s) unusable") }
                throw CommandFailure(parts.joined(separator: ", ") + "; everything else was replayed")
            }
        }
    }
}
