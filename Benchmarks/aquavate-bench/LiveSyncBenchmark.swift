// The live path against the simulated bottle, in this process, on a private dbus-daemon: the
// bridge's daemon (discovery, connect state machine, session, history on disk) syncs 600 records.
//
// Both figures are taken on the simulator's side, from the time its log lines are written, so
// one clock measures what the bridge adds:
//   * connect latency: the device object appearing (InterfacesAdded) → the Device1.Connect call;
//   * per chunk: a Drink Data notification sent → the ACK's WriteValue call arriving, i.e. the
//     D-Bus trip to the bridge (through dbus-daemon), decoding, committing the chunk's records to
//     SQLite, encoding the ACK and its trip back. Twice: with the history on disk as the daemon
//     keeps it (WAL, synchronous=FULL: the commit waits for fsync, whose cost is the storage's),
//     and with the history in memory (what the bridge itself costs).
//   * the session's own share per chunk, on the bridge's clock: the chunk handed to the session →
//     its ACK write issued (decode, SyncProgress, the commit, encoding), through a link wrapper.
//
//   aquavate-bench live [--runs N]

import AquavateProtocol
import BlueZ
import BottleSession
import BottleSimulator
import DBus
import Daemon
import Foundation
import History
import Logging
import Settings
import Synchronization
import Timekeeping

enum LiveSyncBenchmark {
    static func run(_ options: [String]) async {
        let runs = options.firstIndex(of: "--runs").flatMap { options.dropFirst($0 + 1).first }.flatMap(Int.init) ?? 5
        print("live: \(runs) run(s) each of a 600-record sync (36 chunks) against the simulator on a private bus")
        for onDisk in [true, false] {
            var connectLatencies: [Double] = [], chunkOverheads: [Double] = [], syncTimes: [Double] = []
            for _ in 0..<runs {
                do {
                    let run = try await oneSync(historyOnDisk: onDisk)
                    connectLatencies.append(contentsOf: run.connect)
                    chunkOverheads.append(contentsOf: run.chunks)
                    syncTimes.append(run.sync)
                } catch {
                    print("live: a run failed: \(error)")
                }
            }
            let where_ = onDisk ? "history on disk, synchronous=FULL" : "history in memory"
            print("live (\(where_)): connect latency (device appears → Device1.Connect): \(summary(connectLatencies))")
            print("live (\(where_)): per chunk (notification sent → ACK write arrives): \(summary(chunkOverheads))")
            print("live (\(where_)): sync (first chunk → last ACK): median \(format(median(syncTimes)))")
            var sessionShares: [Double] = []
            for _ in 0..<runs {
                do { sessionShares += try await sessionShare(historyOnDisk: onDisk) } catch { print("live: a run failed: \(error)") }
            }
            print("live (\(where_)): the session's share per chunk (chunk received → ACK issued): \(summary(sessionShares))")
        }
    }

    /// The session alone, as the daemon runs it (discovery, connect, `BottleSession`), its link
    /// wrapped to time each chunk → ACK on the bridge's side.
    private static func sessionShare(historyOnDisk: Bool) async throws -> [Double] {
        try await withSimulatedBottle(historyOnDisk: historyOnDisk) { bus, history in
            let client = try await BlueZClient.connect(bus: bus)
            defer { Task { await client.close() } }
            let discovery = Discovery(client: client, adapter: try client.chooseAdapter(named: nil))
            let sightings = discovery.sightings()
            try await discovery.start()
            let sighting = await sightings.next(within: .seconds(10))
            sightings.cancel()
            await discovery.stop()
            guard let sighting else { throw BenchmarkFailure("the simulated bottle was not seen") }
            let connection = try await Connector(client: client, logger: silent)
                .connect(sighting.device, requiring: BlueZBottleLink.requiredCharacteristics.map(\.uuid))
            let link = TimedLink(BlueZBottleLink(connection))
            let report = await BottleSession(link: link, observer: history.drinks, clock: SystemClock(), memory: SyncMemory(),
                                             logger: silent).run()
            guard report.outcome.isSuccess, try history.drinks.drinkCount() == 600 else {
                throw BenchmarkFailure("the session did not sync the 600 records: \(report.summary)")
            }
            return link.samples
        }
    }

    /// One daemon run (`--once`) against a fresh simulator; the timings of its log.
    private static func oneSync(historyOnDisk: Bool) async throws -> (connect: [Double], chunks: [Double], sync: Double) {
        let lines = Mutex<[(Double, String)]>([])
        let log: @Sendable (String) -> Void = { line in
            let now = Measure.now()
            lines.withLock { $0.append((now, line)) }
        }
        return try await withSimulatedBottle(historyOnDisk: historyOnDisk, log: log) { bus, history in
            var options = DaemonOptions()
            options.bus = bus
            options.once = true
            options.onceTimeout = .seconds(60)
            options.adoptAny = true
            let desk = ReminderDesk(history: history, configuration: Configuration(), logger: silent)
            let daemon = BridgeDaemon(options: options, history: history, desk: desk, clock: SystemClock(), logger: silent)
            try await daemon.run()
            guard case .succeeded = daemon.outcome, try history.drinks.drinkCount() == 600 else {
                throw BenchmarkFailure("the daemon did not sync the 600 records: \(daemon.outcome)")
            }
            return analyse(lines.withLock { $0 })
        }
    }

    /// A private bus with a simulated bottle holding 600 records, and a history (on disk in a
    /// temporary folder, or in memory) for `body`; everything is stopped afterwards.
    private static func withSimulatedBottle<T>(
        historyOnDisk: Bool, log: (@Sendable (String) -> Void)? = nil,
        _ body: (BusAddress, DrinkHistory) async throws -> T
    ) async throws -> T {
        let bus = try await PrivateDBusDaemon.start()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("aquavate-live-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = SimulatorConfiguration(records: 600).withTestTimings()
        configuration.log = log
        let simulator: BottleSimulator
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            simulator = try await BottleSimulator.start(bus: .address(bus.address), configuration: configuration)
        } catch {
            await bus.stop()
            throw error
        }
        let result: Result<T, any Error>
        do {
            let history = try DrinkHistory(path: historyOnDisk ? folder.appendingPathComponent("history.sqlite").path : nil)
            result = .success(try await body(.address(bus.address), history))
        } catch {
            result = .failure(error)
        }
        await simulator.stop()
        await bus.stop()
        return try result.get()
    }

    private static let silent = Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() }

    /// Pairs each device appearance with the next Connect call, and each Drink Data notification
    /// with the next WriteValue (the session writes nothing else before its ACK).
    private static func analyse(_ lines: [(Double, String)]) -> (connect: [Double], chunks: [Double], sync: Double) {
        var connect: [Double] = [], chunks: [Double] = []
        var appeared: Double?, notified: Double?, firstChunk: Double?, lastACK: Double?
        for (time, line) in lines {
            if line.hasPrefix("event: advertisement from") { appeared = time }
            if line.hasPrefix("call "), line.contains("org.bluez.Device1.Connect("), let start = appeared {
                connect.append(time - start)
                appeared = nil
            }
            if line.hasPrefix("event: drink-data notified") {
                notified = time
                firstChunk = firstChunk ?? time
            }
            if line.hasPrefix("call "), line.contains("GattCharacteristic1.WriteValue("), let start = notified {
                chunks.append(time - start)
                notified = nil
                lastACK = time
            }
        }
        return (connect, chunks, (lastACK ?? 0) - (firstChunk ?? 0))
    }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }

    private static func summary(_ values: [Double]) -> String {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return "no samples" }
        let p95 = sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.95))]
        return "median \(format(median(sorted))), p95 \(format(p95)), max \(format(sorted.last!)) (\(sorted.count) samples)"
    }

    private static func format(_ seconds: Double) -> String {
        String(format: "%.2f ms", seconds * 1000)
    }
}

/// A link that times, on the bridge's clock, each Drink Data value handed to the session until the
/// session's next Sync Control write (its ACK).
private final class TimedLink: BottleLink {
    let inner: any BottleLink
    private let marks = Mutex<(chunkAt: Double?, samples: [Double])>((nil, []))

    init(_ inner: any BottleLink) { self.inner = inner }

    var samples: [Double] { marks.withLock { $0.samples } }
    var address: String { inner.address }
    var name: String? { inner.name }
    func mtu() async -> Int? { await inner.mtu() }
    func offers(_ characteristic: Characteristic) -> Bool { inner.offers(characteristic) }
    func read(_ characteristic: Characteristic) async throws -> [UInt8] { try await inner.read(characteristic) }
    func startNotifications(_ characteristic: Characteristic) async throws { try await inner.startNotifications(characteristic) }
    func startBatteryReports() async throws -> Int? { try await inner.startBatteryReports() }
    func disconnect() async { await inner.disconnect() }

    func write(_ characteristic: Characteristic, _ value: [UInt8]) async throws {
        if characteristic == .syncControl {
            let now = Measure.now()
            marks.withLock { marks in
                if let start = marks.chunkAt { marks.samples.append(now - start) }
                marks.chunkAt = nil
            }
        }
        try await inner.write(characteristic, value)
    }

    func nextEvent(within timeout: Duration) async -> LinkEvent? {
        let event = await inner.nextEvent(within: timeout)
        if case .value(.drinkData, _) = event {
            let now = Measure.now()
            marks.withLock { $0.chunkAt = now }
        }
        return event
    }
}

struct BenchmarkFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
