// One connection to one bottle (docs/design.md 1, docs/protocol.md 7.2): subscribe, set the clock, decide
// from Sync Control, sync, disconnect.
//
// The sync never loses a drink: each chunk's records are COMMITTED to the history, and only then
// is exactly one ACK written (docs/design.md 1, docs/protocol.md 4.3). The bottle marks records synced only
// at the last ACK, so a crash, a dropped link or a kill at any instant leaves every unstored
// record unsynced on the bottle, to be sent again next time; the history de-duplicates.
//
// `SyncProgress` (AquavateProtocol) decides what each Drink Data value is — new chunk, echo of a
// read, stale read, truncated — exactly as replay does, so a recording of this session replays
// to the same history.

import AquavateProtocol
import BlueZ
import Logging
import Timekeeping

package final class BottleSession {
    package let link: any BottleLink
    /// The history's key for this bottle: its serial once Device Information was read, else the
    /// key it was opened with (its address, upper case, as replay of a recording).
    package private(set) var bottleID: String
    /// How the log names the bottle: its advertised name (else its key), one name for the whole
    /// session although the key changes from address to serial.
    var bottleName: String { link.name.flatMap { $0.isEmpty ? nil : $0 } ?? bottleID }
    /// Where everything the bottle says goes: in the bridge the ingest, the same one replay feeds.
    let observer: any BottleObserver
    let clock: any WallClock
    private let memory: SyncMemory
    private let timing: SessionTiming
    let recorder: SessionRecorder?
    let logger: Logger
    /// The chunk_size to ask for instead of the MTU's (tests and debugging; the iOS app asks 20,
    /// which the bottle cannot notify whole, docs/protocol.md B1).
    private let chunkSizeOverride: Int?
    /// Whether SET_TIME is written, decided by the daemon from its clock.
    private let setTime: SetTimePolicy
    /// The durable queue of commands applied after the sync (docs/design.md 3.5); nil: none.
    let commands: (any BottleCommandQueue)?
    /// Whether to fetch the activity statistics after the sync (docs/protocol.md 6.6).
    private let fetchActivity: Bool
    /// From Bottle Config at set-up: a scale the bottle would accept means it is calibrated.
    var calibrated: Bool?

    private var report: SessionReport
    private var mtu: Int?
    private var lastActivity: WallInstant = .epoch
    /// Records new to the history in the current round (counted at commit, before the ACK).
    private var roundNewRecords = 0
    /// The whole session ends by then, whatever the bottle does (`timing.sessionLimit`).
    private var sessionDeadline: MonotonicInstant

    package init(
        link: any BottleLink, observer: any BottleObserver, clock: any WallClock, memory: SyncMemory,
        timing: SessionTiming = .standard, recorder: SessionRecorder? = nil, chunkSize: Int? = nil,
        setTime: SetTimePolicy = .send, bottleID: String? = nil, commands: (any BottleCommandQueue)? = nil,
        fetchActivity: Bool = false,
        logger: Logger = Logger(label: "bottle-session")
    ) {
        self.chunkSizeOverride = chunkSize
        self.setTime = setTime
        self.commands = commands
        self.fetchActivity = fetchActivity
        self.link = link
        self.bottleID = bottleID ?? link.address.uppercased()
        self.observer = observer
        self.clock = clock
        self.sessionDeadline = clock.instant
        self.memory = memory
        self.timing = timing
        self.recorder = recorder
        self.logger = logger
        self.report = SessionReport(bottleID: bottleID ?? link.address.uppercased(), bottleName: link.name.flatMap { $0.isEmpty ? nil : $0 })
    }

    /// Runs the whole session and disconnects (`holdFor`: stay connected that long after the
    /// sync, PINGing when `keepAwake`, e.g. while someone calibrates or debugs).
    package func run(holdFor hold: Duration? = nil, keepAwake: Bool = false) async -> SessionReport {
        sessionDeadline = clock.deadline(after: timing.sessionLimit + (hold ?? .zero))
        mtu = await link.mtu()
        report.mtu = mtu
        recorder?.begin(name: link.name, address: link.address, mtu: mtu, at: clock.now)
        recorder?.connect(at: clock.now)
        var disconnectReason = "done"
        do {
            try await setUp()
            try await synchronise()
            // docs/design.md 3.5: the person's commands after the sync, so a drink is never held up.
            try await applyCommands()
            if fetchActivity { try await fetchActivityStats() }
            if let hold { try await stayConnected(for: hold, keepAwake: keepAwake) }
        } catch let failure as SessionFailure {
            report.outcome = .failed(failure.description)
            report.linkLost = failure.linkLost
            disconnectReason = failure.linkLost ? "link lost" : "error"
        } catch {
            report.outcome = .failed("\(error)")
            disconnectReason = "error"
        }
        // docs/protocol.md 7.2.9: disconnect as soon as done, so the phone can connect and the bottle sleep.
        await link.disconnect()
        recorder?.disconnect(at: clock.now, reason: disconnectReason)
        observer.disconnected(at: clock.now)
        logger.info("\(report.summary)")
        return report
    }

    // MARK: Set-up (docs/protocol.md 7.2.3-4)

    private func setUp() async throws {
        // Subscribe first: Current State, Drink Data, Battery.
        try await perform("subscribe to current-state") { try await link.startNotifications(.currentState) }
        try await perform("subscribe to drink-data") { try await link.startNotifications(.drinkData) }
        if let percent = try await optional("battery", { try await link.startBatteryReports() }) ?? nil {
            heardBattery(percent, viaRead: true)
        }
        // Who the bottle is, first: everything after is stored under its serial.
        try await readIdentity()
        let state = try await optional("read current-state", { try await read(.currentState) })
        if let state { heardState(state) }
        // SET_TIME with UTC now, on every connection (5.1; the bottle's clock can be hours off) —
        // unless this machine's clock is not to be trusted: the bottle keeps any time
        // it is given (B9). The Current State above is the bottle's own clock (7.2.3-4 order).
        let bottleTime = state.flatMap { try? CurrentState(decoding: $0) }.map { WallInstant(secondsSince1970: Double($0.timestamp)) }
        if let stamp = state.flatMap({ try? CurrentState(decoding: $0) })?.timestamp,
           let offset = BottleClockOffset(bottleTime: stamp, bridgeTime: clock.now.secondsSince1970) {
            if let problem = offset.problem { logger.warning("\(bottleName): \(problem)") }
            observer.heard(offset, at: clock.now)
        }
        if let reason = setTime.reasonToWithhold(now: clock.now, bottleTime: bottleTime) {
            logger.warning("\(bottleName): SET_TIME withheld: \(reason)")
        } else {
            try await write(.command, Command.setTime(UInt32(clamping: Int64(clock.now.secondsSince1970.rounded(.down)))).encoded())
        }
        if link.offers(.bottleConfig), let value = try await optional("read bottle-config", { try await read(.bottleConfig) }),
           let config = try? BottleConfig(decoding: value) {
            calibrated = config.isWritableScale
            if config.plausibleGoalML != nil {
                observer.heard(config, at: clock.now)
            } else {
                logger.warning("\(bottleName): the bottle's goal of \(config.dailyGoalML) ml is outside \(BottleGoal.rangeText); ignored")
            }
        }
        if link.offers(.deviceSettings), let value = try await optional("read device-settings", { try await read(.deviceSettings) }),
           let settings = try? DeviceSettings(decoding: value) {
            observer.heard(settings, at: clock.now)
        }
    }

    /// Device Information (docs/protocol.md 7.2.3): who the bottle is. Its serial is the bottle's
    /// lasting key: from here on the session stores under it.
    private func readIdentity() async throws {
        var identity = BottleIdentity()
        for field in DeviceInformationField.allCases {
            guard let value = try await optional("read \(field.rawValue)", { try await link.readDeviceInformation(field) }) ?? nil
            else { continue }
            recorder?.read(uuid: field.uuid, value, at: clock.now)
            identity.take(field, value)
        }
        guard identity != BottleIdentity() else { return }
        observer.heard(identity, at: clock.now)
        // The report keeps the address it was opened with: its lines name what a person sees.
        if let serial = identity.serial, serial != bottleID { bottleID = serial }
    }

    // MARK: Sync (docs/protocol.md 4, 7.2.5-7)

    private func synchronise() async throws {
        var unsynced = try await readUnsyncedCount()
        report.unsyncedBefore = unsynced
        guard unsynced > 0 else {
            memory.forget()
            report.outcome = .nothingToSync
            return
        }
        // docs/protocol.md B2: a count that gave an empty sync gives one again; no START loop.
        if memory.isWedged(at: unsynced) {
            report.outcome = .wedged(unsynced: unsynced)
            return
        }
        for _ in 0..<timing.maxRounds {
            let round = try await syncRound(unsynced: unsynced)
            guard round.outcome == .complete else {
                if round.outcome == .empty {
                    memory.rememberEmptySync(at: unsynced)
                    report.outcome = report.rounds.contains { $0.outcome == .complete } ? .synced : .wedged(unsynced: unsynced)
                }
                return
            }
            let after = try await readUnsyncedCount()
            report.unsyncedAfter = after
            report.outcome = .synced
            // 7.2.7: START again while records remain; every complete round marked some synced
            // (the count drops), so this cannot loop; new drinks made meanwhile come along.
            guard after > 0 else { return }
            logger.info("\(bottleName): \(after) record(s) still unsynced after a complete sync (was \(unsynced)); starting again")
            unsynced = after
        }
    }

    /// Sync Control's `count`: current even right after a wake (B6), unlike Current State.
    private func readUnsyncedCount() async throws -> Int {
        let value = try await read(.syncControl)
        guard let control = try? SyncControl(decoding: value) else {
            throw SessionFailure("Sync Control read gave \(value.count) byte(s), expected 8")
        }
        return Int(control.count)
    }

    /// One START and its chunks. Ends the round (and reports it) on completion, on a time-out,
    /// on a rejected chunk, on a failed commit, or when the link is lost — the last two rethrown.
    private func syncRound(unsynced: Int) async throws -> SyncRound {
        let start = SyncControl.start(count: min(unsynced, ChunkSizing.maxSyncCount),
                                      chunkSize: chunkSizeOverride ?? ChunkSizing.recordsPerChunk(mtu: mtu))
        var progress = SyncProgress(start: start)
        roundNewRecords = 0
        // The outcome comes from SyncProgress's one rule, the one replay uses too.
        func end() -> SyncRound {
            let outcome = progress.outcome
            let round = SyncRound(requestedCount: Int(start.count), chunkSize: Int(start.chunkSize),
                                  records: progress.acceptedRecords, chunks: progress.acceptedChunks,
                                  newRecords: roundNewRecords, outcome: outcome, endedAt: clock.now,
                                  refusal: progress.refusal)
            report.rounds.append(round)
            observer.syncEnded(outcome, records: round.records, chunks: round.chunks, refusal: round.refusal, at: round.endedAt)
            return round
        }
        do {
            try await write(.syncControl, start.encoded())
            // Progress: every pass takes one new event off the link or ends the round. The
            // chunk's time-out runs from the START or the last accepted chunk, not from the last
            // event, so a bottle that floods Current State (or anything else) cannot keep the
            // round alive; a lost link throws out of `nextEvent` (terminal, however often asked).
            var chunkDeadline = clock.now + timing.firstChunk
            while !progress.isComplete {
                // 4.6: 3 s for the first chunk (none = an empty sync), 5 s between chunks.
                let timeout = progress.hasData ? timing.betweenChunks : timing.firstChunk
                guard let event = try await nextEvent(until: chunkDeadline) else {
                    if progress.hasData {
                        report.outcome = .failed("the bottle stopped sending after chunk \(progress.expectedIndex) of \(progress.totalChunks ?? 0)")
                        return end()
                    }
                    logger.info("\(bottleName): no chunk within \(timeout) after START (count \(start.count)): an empty sync")
                    return end()
                }
                guard case .value(.drinkData, let bytes) = event else { continue }
                switch progress.receive(bytes, viaRead: false) {
                case .accept(let chunk, let skipped):
                    try await commitThenAck(chunk, skipped: skipped, progress: &progress)
                    chunkDeadline = clock.now + timing.betweenChunks
                case .rejected(let error):
                    // B1 / 4.4 rule 3: a truncated notification; the read (a long read) returns
                    // the whole chunk. Its echo comes back as a notification: SyncProgress calls
                    // it a duplicate.
                    logger.notice("\(bottleName): chunk \(progress.expectedIndex) rejected (\(error)); reading it back")
                    let readBack = try await read(.drinkData)
                    let verdict = progress.receive(readBack, viaRead: true)
                    if case .implausible(let problem) = verdict {
                        logger.error("\(bottleName): \(problem); refused and not acknowledged")
                        report.outcome = .failed("the bottle sent a chunk that cannot belong to this sync (\(problem)); nothing of it was stored")
                        return end()
                    }
                    guard case .accept(let chunk, let skipped) = verdict else {
                        report.outcome = .failed(progress.refusal ?? "chunk \(progress.expectedIndex) could not be decoded, nor read back: \(error)")
                        return end()
                    }
                    try await commitThenAck(chunk, skipped: skipped, progress: &progress)
                    chunkDeadline = clock.now + timing.betweenChunks
                case .implausible(let problem):
                    // A chunk whose structure cannot be this sync's. Not acknowledged: a real
                    // bottle keeps the records (marked only at the last ACK), and nothing of the
                    // chunk is stored. (A record that cannot be a drink does not come here: the
                    // store quarantines it and the chunk is acknowledged.)
                    logger.error("\(bottleName): \(problem); refused and not acknowledged (a firmware fault, or a device that is not the bottle)")
                    report.outcome = .failed("the bottle sent a chunk that cannot belong to this sync (\(problem)); nothing of it was stored")
                    return end()
                case .duplicate, .placeholder, .staleRead, .afterCompletion:
                    continue
                }
            }
            return end()
        } catch let failure as SessionFailure {
            _ = end()
            throw failure
        }
    }

    /// Commits the chunk's records, THEN writes exactly one ACK. A failed commit writes no ACK:
    /// the bottle keeps the records unsynced and sends them again next time.
    private func commitThenAck(_ chunk: DrinkDataChunk, skipped: Int, progress: inout SyncProgress) async throws {
        if skipped > 0 {
            logger.warning("\(bottleName): \(skipped) chunk(s) never arrived; their records come again in the next sync")
        }
        let results: [StoreResult]
        do {
            results = try observer.store(chunk.records, bottle: bottleID, at: clock.now)
        } catch {
            throw SessionFailure("could not store chunk \(chunk.chunkIndex) (\(error)); it was not acknowledged and will be sent again")
        }
        roundNewRecords += results.filter(\.isNew).count
        // The chunk's lines and reminders once its ACK is written (also when writing it fails):
        // the bottle is then already at work on the next chunk, instead of waiting for them.
        defer { observer.committed(results, bottle: bottleID) }
        try await write(.syncControl, SyncControl.ack.encoded())
        if progress.acknowledged() == .surplus {
            // Cannot happen: an ACK is written only for an accepted chunk. Kept loud because a
            // surplus ACK makes the bottle run ahead (B3).
            logger.error("\(bottleName): an ACK with no chunk waiting for it")
        }
    }

    // MARK: Staying connected

    /// Keeps the link for `duration`, handling what the bottle sends; when `keepAwake`, PINGs
    /// every `timing.keepAliveInterval` (20 s, under the 30 s activity timer, B13) — only then,
    /// because PING is the only traffic that keeps the bottle awake on purpose.
    package func stayConnected(for duration: Duration, keepAwake: Bool) async throws {
        let end = clock.now + duration
        lastActivity = clock.now
        // Progress: each pass waits for an event or for the next PING or the end; a lost link
        // throws out of `nextEvent`.
        while clock.now < end {
            var wait = end - clock.now
            if keepAwake { wait = min(wait, max(.zero, lastActivity + timing.keepAliveInterval - clock.now)) }
            if wait > .zero {
                _ = try await nextEvent(until: clock.now + wait)
            }
            if keepAwake && clock.now < end && clock.now - lastActivity >= timing.keepAliveInterval {
                try await write(.command, Command.ping.encoded())
            }
        }
    }

    // MARK: Link operations, recorded

    func read(_ characteristic: Characteristic) async throws -> [UInt8] {
        let value = try await perform("read \(characteristic.captureName)") { try await link.read(characteristic) }
        recorder?.read(characteristic, value, at: clock.now)
        if characteristic == .syncControl { lastActivity = clock.now }
        return value
    }

    func write(_ characteristic: Characteristic, _ value: [UInt8]) async throws {
        recorder?.wrote(characteristic, value, at: clock.now)
        try await perform("write \(characteristic.captureName)") { try await link.write(characteristic, value) }
        if characteristic == .syncControl || (characteristic == .command && Command.countsAsActivity(value)) {
            lastActivity = clock.now
        }
    }

    /// The next event before `deadline` (nil when it passed); Current State and battery values
    /// are handled on the way. A lost link throws, every time it is asked: an ended link answers
    /// at once, so a caller that treated `.lost` as just another event would spin (a full core
    /// and 100 MB a second when the bottle sleeps while an ACK's reply is pending).
    /// The session's own deadline (`timing.sessionLimit`) ends it here too.
    func nextEvent(until deadline: WallInstant) async throws -> LinkEvent? {
        // `deadline` is on the session's clock (tests drive it); the session's own limit is on
        // the monotonic clock, a safety net that no clock step can move.
        let limit = clock.timeLeft(until: sessionDeadline)
        guard limit > .zero else {
            throw SessionFailure("the session passed its limit of \(timing.sessionLimit); disconnecting (what was stored stays stored)")
        }
        let remaining = (deadline - clock.now).inSeconds
        guard remaining > 0 else { return nil }
        let wait = min(Duration.milliseconds(Int64((remaining * 1000).rounded(.up))), limit)
        guard let event = await link.nextEvent(within: wait) else { return nil }
        switch event {
        case .value(let characteristic, let bytes):
            recorder?.notified(characteristic, bytes, at: clock.now)
            if characteristic == .currentState { heardState(bytes) }
            if characteristic == .batteryLevel, bytes.count == 1 { heardBattery(Int(bytes[0]), viaRead: nil) }
        case .battery(let percent):
            heardBattery(percent, viaRead: false)
        case .lost(let why):
            throw SessionFailure("the link was lost: \(why)", linkLost: true)
        }
        return event
    }

    private func heardState(_ bytes: [UInt8]) {
        guard let state = try? CurrentState(decoding: bytes) else {
            logger.warning("\(bottleName): a \(bytes.count)-byte Current State is not valid (expected 14); ignored")
            return
        }
        observer.heard(state, at: clock.now)
    }

    /// `viaRead`: true for the first value (recorded as a read), false for a Battery1 change
    /// (recorded as a notification), nil when the GATT notification was already recorded.
    private func heardBattery(_ percent: Int, viaRead: Bool?) {
        let value = [UInt8(clamping: percent)]
        switch viaRead {
        case true?: recorder?.read(.batteryLevel, value, at: clock.now)
        case false?: recorder?.notified(.batteryLevel, value, at: clock.now)
        case nil: break
        }
        report.batteryPercent = percent
        observer.heardBattery(percent, at: clock.now)
    }

    /// Runs a link operation; a lost link or an error becomes a `SessionFailure`.
    func perform<T>(_ what: String, _ operation: () async throws -> T) async throws -> T {
        do {
            return try await operation()
        } catch let lost as LinkLost {
            throw SessionFailure("\(what): \(lost)", linkLost: true)
        } catch let failure as SessionFailure {
            throw failure
        } catch is CancellationError {
            throw SessionFailure("stopped during \(what): the bridge is shutting down")
        } catch {
            throw SessionFailure("\(what): \(error)")
        }
    }

    /// An operation whose failure is not fatal (logged), unless the link is lost.
    func optional<T>(_ what: String, _ operation: () async throws -> T) async throws -> T? {
        do {
            return try await perform(what, operation)
        } catch let failure as SessionFailure where !failure.linkLost {
            logger.notice("\(bottleName): \(failure)")
            return nil
        }
    }
}

/// Why a session stopped, in one line.
struct SessionFailure: Error, CustomStringConvertible {
    var description: String
    var linkLost: Bool
    init(_ description: String, linkLost: Bool = false) {
        self.description = description
        self.linkLost = linkLost
    }
}
