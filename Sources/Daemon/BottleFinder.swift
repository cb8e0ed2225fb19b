// Finding the adopted bottle and connecting to it: one discovery on one adapter, the first
// sighting the choice accepts (or a link an earlier run left connected, F4), then the Connector.
// The daemon's cycle and `bottle calibrate` both use it.

import AquavateProtocol
import BlueZ
import Logging
import Timekeeping

final class BottleFinder: Sendable {
    let client: BlueZClient
    let adapter: BlueZAdapter
    private let discovery: Discovery
    private let connectPolicy: ConnectPolicy
    /// Discovery is restarted after this long without an advertisement (docs/bluez.md F16).
    private let scanRefresh: Duration
    private let logger: Logger
    private let heartbeat: Heartbeat
    /// The daemon's clock: what the deadline, the rests and the discovery restarts are measured on.
    private let clock: any WallClock

    init(client: BlueZClient, adapter: BlueZAdapter, connectPolicy: ConnectPolicy, scanRefresh: Duration,
         logger: Logger, heartbeat: Heartbeat = .unobserved, clock: any WallClock = SystemClock()) {
        self.clock = clock
        self.client = client
        self.adapter = adapter
        self.discovery = Discovery(client: client, adapter: adapter)
        self.connectPolicy = connectPolicy
        self.scanRefresh = scanRefresh
        self.logger = logger
        self.heartbeat = heartbeat
    }

    /// Starts discovery and returns the first bottle `choice` accepts; discovery keeps running
    /// until `connect` (the bottle may sleep any moment, so connecting follows at once).
    /// - Throws: `NoBottleSeen` (saying `timeout`) when `deadline` passed, `CancellationError`,
    ///   the discovery's end, or BlueZ's error starting it.
    func find(choice: BottleChoice, deadline: MonotonicInstant?, timeout: Duration,
              onPhase: (String) -> Void = { _ in }) async throws -> Sighting {
        let sightings = discovery.sightings()
        defer { sightings.cancel() }
        try await discovery.start()
        heartbeat.mark("discovering on \(adapter.name)")
        logger.info("looking for the bottle on \(adapter.name)")
        onPhase("waiting for \(choice.wanted == "any" ? "a bottle" : "bottle \(choice.wanted)") to advertise on \(adapter.name)")

        // F4 (bluez/bluez#89): a bridge that was killed leaves bluetoothd holding the link, so
        // the bottle stays Connected and does not advertise: discovery would never see it.
        // Adopt such a connection first (the Connector skips Connect for a connected device).
        var found: Sighting? = client.objects.devices(on: adapter.path)
            .filter { $0.connected && BottleFilter().matches($0) }
            .map { device -> Sighting in
                var sighting = Sighting(device)
                sighting.wasConnected = true
                return sighting
            }
            .first { choice.accepts($0) }
        if let found { logger.info("\(found.name) (\(found.address)) is still connected from an earlier run; adopting the link") }
        var ignored: [Sighting] = []
        // Adopted bottles heard while they rest, with the end of their rest: one still
        // advertising then is taken (an unchanged advertisement is not heard again).
        var rested: [(sighting: Sighting, until: MonotonicInstant)] = []
        var scanStarted = clock.instant
        // Progress: each pass awaits one sighting until the next discovery restart, the end of a
        // heard bottle's rest or the deadline; cancellation and an ended discovery break out.
        while found == nil {
            let remaining = deadline.map { clock.timeLeft(until: $0) }
            if let remaining, remaining <= .zero { break }
            if let due = rested.first(where: { $0.until <= clock.instant }) {
                found = due.sighting
                break
            }
            let untilRefresh = scanRefresh - clock.elapsed(since: scanStarted)
            var wait = max(.zero, min(remaining ?? untilRefresh, untilRefresh))
            if let nextRestEnd = rested.map(\.until).min() { wait = max(.zero, min(wait, clock.timeLeft(until: nextRestEnd))) }
            heartbeat.waiting(for: wait)
            guard let sighting = await sightings.next(within: wait) else {
                if Task.isCancelled || sightings.ended != nil { break }
                if clock.elapsed(since: scanStarted) >= scanRefresh {
                    // docs/bluez.md F16: a scanner can go silent while Discovering stays true; a new
                    // discovery revives it (habluetooth restarts its scanner the same way).
                    logger.debug("no advertisement heard for \(scanRefresh); restarting discovery")
                    heartbeat.waiting(for: BridgeDaemon.watchdogPatience)
                    await discovery.stop()
                    try await discovery.start()
                    heartbeat.mark("discovery restarted on \(adapter.name)")
                    scanStarted = clock.instant
                }
                continue
            }
            heartbeat.mark("\(sighting.name) (\(sighting.address)) advertised")
            if choice.accepts(sighting) {
                found = sighting
            } else if let until = choice.restEnd(sighting.address) {
                // An adopted bottle, left alone after its session until then.
                rested.removeAll { $0.sighting.address == sighting.address }
                rested.append((sighting, until))
            } else if !ignored.contains(where: { $0.address == sighting.address }) {
                ignored.append(sighting)
                let why = choice.isForgotten(sighting.address) ? "forgotten (bottle forget)" : "not the adopted bottle \(choice.wanted)"
                logger.info("ignoring \(sighting.name) (\(sighting.address)): \(why); --adopt takes it")
            }
        }
        guard let sighting = found else {
            let discovery = self.discovery
            await Task { await discovery.stop() }.value  // even when cancelled
            try Task.checkCancellation()
            if let ended = sightings.ended { throw ended }
            throw NoBottleSeen(timeout: timeout, wanted: ignored.isEmpty ? nil : choice.wanted,
                               ignored: ignored.map { "\($0.name) (\($0.address))" })
        }
        return sighting
    }

    /// Stops the discovery `find` left running when no connection follows (the household's
    /// claim went to another bridge): the next `find` starts its own.
    func stopDiscovery() async {
        await discovery.stop()
    }

    /// Connects to the bottle `find` returned, stopping discovery meanwhile; the connection
    /// offers `required` (docs/bluez.md F7).
    func connect(_ sighting: Sighting, requiring required: [Characteristic]) async throws -> GATTConnection {
        async let stopped: Void = discovery.stop()
        heartbeat.waiting(for: connectPolicy.safetyTimeout + BridgeDaemon.watchdogPatience)
        do {
            let connection = try await Connector(client: client, policy: connectPolicy, logger: logger)
                .connect(sighting.device, requiring: required.map(\.uuid))
            await stopped
            heartbeat.mark("connected to \(sighting.address)")
            return connection
        } catch {
            await stopped
            throw error
        }
    }
}
