// aquavate-sim: a simulated Aquavate bottle behind a BlueZ-compatible D-Bus service.
import AquavateProtocol
import ArgumentParser
import BottleSimulator
import DBus
import Foundation
import Glibc
import Locking
import Synchronization
import Timekeeping

/// The entry point. SIGTERM and SIGINT get a handler that writes to a pipe before anything else
/// runs; `dispatchMain()` then parks the main thread in sigsuspend with every signal open, so the
/// handler runs even when the process was started with those signals blocked (a child of a Swift
/// Testing process is, docs/swift-linux.md P7).
@main
enum Main {
    static func main() {
        SignalWaiter.install()
        Task {
            await AquavateSim.main()
            exit(0)
        }
        dispatchMain()
    }
}

struct AquavateSim: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "aquavate-sim",
        abstract: "A simulated Aquavate bottle behind a BlueZ-compatible D-Bus service.",
        discussion: """
            aquavate-sim owns org.bluez on a D-Bus bus and serves what bluetoothd 5.66 would serve \
            with one Aquavate bottle in range: the ObjectManager at /, the adapter /org/bluez/hci0, \
            the device (it appears while a client discovers, like a real advertisement), and, once \
            connected, the bottle's GATT services and characteristics. The bottle follows the \
            Aquavate protocol, firmware bugs included (20-record chunks truncated above MTU - 3, \
            deleted-but-unsynced records, ACKs without chunk numbers, sync state surviving a \
            disconnect). Any BlueZ client (bleak, the bridge, gdbus) can drive it.

            SEVERAL BOTTLES ON ONE BUS (--bottles N)
            N bottles in range of the one adapter, each with its own device object, address, \
            serial, name, records, link and GATT tree, all advertising. Bottle 1 has --address; \
            bottle k has that address plus 4 × (k − 1) in its last two bytes (so its serial, the \
            address − 2, differs too) and --records drinks ending k − 1 minutes earlier. With \
            --state-file FILE, bottle 1 writes FILE and bottle k FILE with "-k" before its extension. \
            --fault and the test hooks apply to bottle 1.

            ONE BOTTLE IN SEVERAL ROOMS (--shared-bottle DIR)
            Simulators on different buses (one per room's bluetoothd) given the same DIR are one \
            physical bottle per address: one drink store and one LE link (each room may hear it at \
            its own --rssi). In DIR, for each address (written F4-12-FA-00-A3-F4): ADDRESS.ring (the records, their flags and the id counter, JSON), ADDRESS.lock \
            (flock'ed around every change; it counts the ring's rewrites) and ADDRESS.link \
            (flock'ed while a room's central holds the link; the kernel lets go if that simulator \
            dies). The first simulator seeds the ring with its records; the others take it as it \
            is. Records synced or deleted in one room are so in every room, and a drink added \
            through any simulator is one record. While one room is linked the bottle advertises \
            in no room, and another room's Connect waits and fails after --connect-timeout with \
            org.bluez.Error.Failed "le-connection-abort-by-local" (the kernel cancels its LE \
            Create Connection; no Connected flip, nothing was linked). The rest (sync engine RAM, \
            water, daily total, battery, calibration) is each room's own.

            BUS
            Without --bus it uses the system bus, i.e. DBUS_SYSTEM_BUS_ADDRESS when set, else \
            /var/run/dbus/system_bus_socket. Run it on a private bus: a real bluetoothd already \
            owns org.bluez on the system bus.

            FAULTS (--fault NAME[=ARG], repeatable)
            \(faultList)

            TEST HOOKS
            org.aquavate.Simulator1 at / (on the org.bluez name, outside the ObjectManager tree):
              AddDrink(q amount_ml) -> u record_id    Sleep()    Wake()
              DropLink()    Vanish()    SetBattery(y percent)
              State() -> s (the state file's JSON)

            OUTPUT
            One line per D-Bus call and per event on standard error. With --state-file, the \
            bottle's state (every record with its flags, unsynced_count, the sync status) is \
            rewritten atomically as JSON on every change. It runs until SIGTERM or SIGINT, then \
            exits 0; it exits 1 if its bus goes away.

            EXAMPLES
              dbus-daemon --session --print-address --fork
              aquavate-sim --bus unix:path=/tmp/bus.sock --records 40
              aquavate-sim --bus unix:path=/tmp/bus.sock --records 600 --fault mtu=185
              aquavate-sim --records 3 --fault wedge --state-file /tmp/bottle.json
              aquavate-sim --bus unix:path=/tmp/bus.sock --bottles 3 --records 20
              aquavate-sim --bus unix:path=/tmp/kitchen.sock --records 20 --shared-bottle /tmp/house
              aquavate-sim --bus unix:path=/tmp/office.sock --shared-bottle /tmp/house
            """)

    /// The fault catalogue, wrapped to 78 columns with the explanations indented.
    static var faultList: String {
        SimulatorFault.catalogue.map { entry in
            let name = entry.argument.map { "\(entry.name)=\($0)" } ?? entry.name
            var lines = ["  " + name]
            var line = "      "
            for word in entry.help.split(separator: " ") {
                if line.count + word.count + 1 > 78 && line.count > 6 {
                    lines.append(line)
                    line = "      "
                }
                line += (line.count > 6 ? " " : "") + word
            }
            lines.append(line)
            return lines.joined(separator: "\n")
        }.joined(separator: "\n")
    }

    @Option(name: .long, help: ArgumentHelp("The D-Bus address to serve on (default: the system bus).",
                                            valueName: "address"))
    var bus: String?

    @Option(name: .long, help: ArgumentHelp("Start with N unsynced drinks over the last days (deterministic).",
                                            valueName: "n"))
    var records: Int?

    @Option(name: .customLong("records-file"),
            help: ArgumentHelp("Start with the records of this JSON array of {record_id, timestamp, amount_ml, "
                               + "bottle_level_ml, type, flags}, oldest first.", valueName: "file"))
    var recordsFile: String?

    @Option(name: .long, help: ArgumentHelp("The bottle's name (default: Aquavate- and the last two bytes of its "
                                            + "Wi-Fi MAC, i.e. of the address - 2).", valueName: "name"))
    var name: String?

    @Option(name: .long, help: ArgumentHelp("Bottles in range of the adapter, 1 to 50 (see SEVERAL BOTTLES).", valueName: "n"))
    var bottles: Int = 1

    @Option(name: .customLong("shared-bottle"),
            help: ArgumentHelp("Share each bottle's store and link with the other simulators given this directory "
                               + "(see ONE BOTTLE IN SEVERAL ROOMS).", valueName: "dir"))
    var sharedBottle: String?

    @Option(name: .customLong("connect-timeout"),
            help: ArgumentHelp("Seconds a Connect waits for a bottle that does not answer (asleep, or linked in "
                               + "another room) before it fails (default 20, the kernel's LE connection time-out).",
                               valueName: "seconds"))
    var connectTimeout: Double = 20

    @Option(name: .long, help: ArgumentHelp("The signal strength this adapter hears the bottle at, dBm (default -58; "
                                            + "with --shared-bottle, each room its own).", valueName: "dbm"))
    var rssi: Int16 = -58

    @Option(name: .long, help: ArgumentHelp("The bottle's public BLE address.", valueName: "address"))
    var address: String = "F4:12:FA:00:A3:F4"

    @Option(name: .customLong("adapter-address"), help: ArgumentHelp("The adapter's address.", valueName: "address"))
    var adapterAddress: String = "00:1A:7D:DA:71:13"

    @Option(name: .long, help: ArgumentHelp("Inject a fault (see FAULTS); repeatable.", valueName: "name[=arg]"))
    var fault: [String] = []

    @Option(name: .customLong("gatt-cache"),
            help: ArgumentHelp("BlueZ's [GATT] Cache: 'always' keeps the GATT objects across a disconnect, 'no' "
                               + "removes them.", valueName: "always|no"))
    var gattCache: String = "always"

    @Option(name: .long, help: ArgumentHelp("'plugin': bluetoothd's battery plugin hides 0x180F and puts "
                                            + "org.bluez.Battery1 on the device; 'gatt': 0x180F is exported.",
                                            valueName: "plugin|gatt"))
    var battery: String = "plugin"

    @Option(name: .customLong("disconnect-delay"),
            help: ArgumentHelp("Seconds from Disconnect() to its reply (default 2, as bluetoothd; 0.15 with --fast).", valueName: "seconds"))
    var disconnectDelay: Double?

    @Option(name: .customLong("state-file"), help: ArgumentHelp("Write the bottle's state here as JSON on every change.",
                                                                valueName: "file"))
    var stateFile: String?

    @Option(name: .customLong("battery-level"), help: ArgumentHelp("Battery percent.", valueName: "percent"))
    var batteryLevel: UInt8 = 80

    @Option(name: .customLong("water"), help: ArgumentHelp("Water in the bottle at start, ml.", valueName: "ml"))
    var water: Double = 500

    @Option(name: .customLong("sleep-after"),
            help: ArgumentHelp("Fall asleep after this many seconds without BLE activity, as the firmware does with "
                               + "30 (default: never).", valueName: "seconds"))
    var sleepAfter: Double?

    @Option(name: .customLong("temporary-timeout"),
            help: ArgumentHelp("Seconds after discovery stops before an unconnected device object is removed "
                               + "(bluetoothd: 30).", valueName: "seconds"))
    var temporaryTimeout: Double = 30

    @Flag(name: .customLong("dis-nul"), help: "Send the Device Information strings with their trailing NUL (B17).")
    var disNul = false

    @Flag(name: .long, help: "Start without a calibration (Current State stays all zero).")
    var uncalibrated = false

    @Flag(name: .customLong("no-activity"),
          help: "Start with empty activity buffers: no stored wake events or backpack sessions (default: 12 and 2).")
    var noActivity = false

    @Option(name: .customLong("timezone-offset"), help: ArgumentHelp(
        "The bottle's time-zone offset in hours (−12 to 14), as set over its USB console: every timestamp it makes is shifted by it (docs/protocol.md 5.2).",
        valueName: "hours"))
    var timezoneOffset: Int8 = 0

    @Flag(name: .customLong("time-invalid"), help: "Start with a clock never set (TIME_VALID clear; no drinks recorded).")
    var timeInvalid = false

    @Flag(name: .long, help: "Cut BlueZ's delays to tens of milliseconds (connect, resolution, advertising every 100 ms, Disconnect 150 ms unless --disconnect-delay): for soak and chaos runs that drive thousands of connections.")
    var fast = false

    @Flag(name: .long, help: "Cut BlueZ's and the radio's delays to about 1 ms (advertising every 20 ms, Disconnect 1 ms unless --disconnect-delay): for benchmarks that compare the clients' own costs.")
    var instant = false

    @Flag(name: .customLong("unsync-on-disconnect"),
          help: "Mark every record unsynced again when the link goes down, so that each connection syncs the same records (a benchmark fixture; no firmware does this).")
    var unsyncOnDisconnect = false

    @Flag(name: .long, help: "Do not log D-Bus calls and events.")
    var quiet = false

    func validate() throws {
        if records != nil && recordsFile != nil { throw ValidationError("use --records or --records-file, not both") }
        if let records, !(0...600).contains(records) { throw ValidationError("--records takes 0…600 (the ring holds 600)") }
        if SimulatorConfiguration.GattCache(rawValue: gattCache) == nil {
            throw ValidationError("--gatt-cache takes 'always' or 'no', not '\(gattCache)'")
        }
        if SimulatorConfiguration.Battery(rawValue: battery) == nil {
            throw ValidationError("--battery takes 'plugin' or 'gatt', not '\(battery)'")
        }
        if (disconnectDelay ?? 0) < 0 || temporaryTimeout < 0 || connectTimeout < 0 {
            throw ValidationError("delays must not be negative")
        }
        if !(-127...20).contains(rssi) { throw ValidationError("--rssi takes -127…20 dBm") }
        if !(1...50).contains(bottles) { throw ValidationError("--bottles takes 1…50") }
        if bottles > 1 && recordsFile != nil { throw ValidationError("--records-file gives one bottle's records; use --records with --bottles") }
        if bottles > 1 && name != nil { throw ValidationError("--name names one bottle; with --bottles each is named after its address") }
        for text in fault {
            do { _ = try SimulatorFault(parsing: text) } catch { throw ValidationError(error.description) }
        }
    }

    func run() async throws {
        let signals = SignalWaiter()
        var configuration = SimulatorConfiguration()
        configuration.address = address.uppercased()
        configuration.adapterAddress = adapterAddress.uppercased()
        configuration.name = name
        configuration.faults = try fault.map { try SimulatorFault(parsing: $0) }
        configuration.gattCache = SimulatorConfiguration.GattCache(rawValue: gattCache) ?? .always
        configuration.battery = SimulatorConfiguration.Battery(rawValue: battery) ?? .plugin
        if fast { configuration = configuration.withTestTimings() }
        if instant { configuration = configuration.withInstantTimings() }
        configuration.bottle.unsyncedAgainAfterDisconnect = unsyncOnDisconnect
        if let disconnectDelay { configuration.disconnectDelay = .milliseconds(Int64(disconnectDelay * 1000)) }
        configuration.temporaryTimeout = .milliseconds(Int64(temporaryTimeout * 1000))
        configuration.stateFile = stateFile.map { URL(fileURLWithPath: $0) }
        configuration.sharedBottleDirectory = sharedBottle.map { URL(fileURLWithPath: $0, isDirectory: true) }
        configuration.connectTimeout = .milliseconds(Int64(connectTimeout * 1000))
        configuration.rssi = rssi
        configuration.bottle.batteryPercent = min(batteryLevel, 100)
        configuration.bottle.waterML = water
        configuration.bottle.calibrated = !uncalibrated
        if noActivity { (configuration.bottle.motionEvents, configuration.bottle.backpackSessions) = (0, 0) }
        configuration.bottle.timeValid = !timeInvalid
        guard (-12...14).contains(timezoneOffset) else { throw ValidationError("--timezone-offset must be -12 to 14 hours") }
        configuration.bottle.timezoneOffsetHours = timezoneOffset
        configuration.bottle.deviceInformationStyle = disNul ? .nulTerminated : .plain
        configuration.bottle.timing.activityTimeout = sleepAfter
        if let recordsFile {
            configuration.records = try RecordSource.load(from: URL(fileURLWithPath: recordsFile))
        } else if let records {
            configuration.records = RecordSource.generated(count: records, endingAt: SystemClock().now)
        }
        if !quiet { configuration.log = { StandardError.write("aquavate-sim: " + $0) } }

        let simulators: [BottleSimulator]
        do {
            var all = try (0..<bottles).map { try BottlesOnOneBus.configuration(bottle: $0, of: configuration, records: records) }
            if bottles > 1, let log = configuration.log {
                // Whose line it is: the bottles share one standard error.
                for index in all.indices {
                    let address = all[index].address
                    all[index].log = { log("[\(address)] " + $0) }
                }
            }
            simulators = try await BottleSimulator.start(bus: bus.map(BusAddress.address) ?? .system, bottles: all)
        } catch {
            StandardError.write("aquavate-sim: \(error)")
            throw ExitCode.failure
        }
        let simulator = simulators[0]
        for bottle in simulators {
            let faults = bottle.configuration.faults
            StandardError.write("aquavate-sim: \(bottle.configuration.effectiveName) (\(bottle.configuration.address)) with "
                                + "\(bottle.configuration.records.count) records at \(bottle.devicePath); faults: "
                                + (faults.isEmpty ? "none" : faults.map(\.description).joined(separator: " "))
                                + (sharedBottle.map { "; shared through \($0)" } ?? ""))
        }
        enum Ending: Sendable { case signal(Int32), busLost(String) }
        // Whichever comes first; the other waiter is simply abandoned (the signal thread blocks in
        // read(2) and cannot be cancelled, so a task group would never finish).
        let ending = await withCheckedContinuation { (continuation: CheckedContinuation<Ending, Never>) in
            let resumed = Locked(false)
            let finish: @Sendable (Ending) -> Void = { ending in
                if resumed.withLock({ done in defer { done = true }; return !done }) { continuation.resume(returning: ending) }
            }
            Task { finish(.signal(await signals.next())) }
            Task { finish(.busLost(await simulator.waitUntilDisconnected())) }
        }
        switch ending {
        case .signal(let number):
            StandardError.write("aquavate-sim: signal \(number): stopping")
            for bottle in simulators.reversed() { await bottle.stop() }
        case .busLost(let reason):
            StandardError.write("aquavate-sim: lost the bus (\(reason)); restart it with a running bus")
            for bottle in simulators.reversed() { await bottle.stop() }
            throw ExitCode.failure
        }
    }
}

/// Lines to standard error through write(2) (no shared `stderr` in Swift 6, docs/swift-linux.md P3).
enum StandardError {
    static func write(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(2, raw.baseAddress! + offset, raw.count - offset)
                if written <= 0 { return }
                offset += written
            }
        }
    }
}

/// The read and write ends of the pipe the signal handler reports through.
private let signalPipeRead = Atomic<Int32>(-1)
private let signalPipeWrite = Atomic<Int32>(-1)

/// Turns SIGTERM and SIGINT into a value an async caller can wait for: the handler only writes the
/// signal number to a pipe (async-signal-safe); a thread of its own reads it.
struct SignalWaiter: Sendable {
    static func install() {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return }
        signalPipeRead.store(fds[0], ordering: .releasing)
        signalPipeWrite.store(fds[1], ordering: .releasing)
        let handler: @convention(c) (Int32) -> Void = { signal in
            var byte = UInt8(truncatingIfNeeded: signal)
            _ = Glibc.write(signalPipeWrite.load(ordering: .relaxed), &byte, 1)
        }
        signal(SIGTERM, handler)
        signal(SIGINT, handler)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGTERM)
        sigaddset(&set, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// The next SIGTERM or SIGINT.
    func next() async -> Int32 {
        await withCheckedContinuation { (continuation: CheckedContinuation<Int32, Never>) in
            let thread = Thread {
                var byte: UInt8 = 0
                while Glibc.read(signalPipeRead.load(ordering: .acquiring), &byte, 1) < 0 && errno == EINTR {}
                continuation.resume(returning: Int32(byte))
            }
            thread.start()
        }
    }
}
