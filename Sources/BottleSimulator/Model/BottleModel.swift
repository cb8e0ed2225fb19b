// The simulated bottle: what the firmware holds and does, characteristic by characteristic
// (docs/protocol.md sections 1–6, bugs of Appendix B included), with no I/O and an injected clock.
//
// The radio is not here. A write returns the notifications the bottle queues inside its write
// handler (they reach the client before the write response); `tick()` returns what the timers
// produce. Whether a notification reaches anyone (connected, CCCD enabled, MTU truncation) is the
// BlueZ layer's business. The model is a value: copying it gives a snapshot for assertions.
import AquavateProtocol
import Timekeeping

/// Something the bottle does on its own initiative.
package enum BottleEvent: Hashable, Sendable {
    /// The bottle notifies this value (and keeps it as the characteristic's readable value).
    case notification(Characteristic, [UInt8])
    /// The bottle went to deep sleep: the link drops without a goodbye, advertising stops.
    case fellAsleep
}

/// What a write to a characteristic did.
package struct WriteOutcome: Hashable, Sendable {
    /// Notifications queued inside the write handler, before the write response.
    package var events: [BottleEvent] = []
    /// A CAL_MEASURE_POINT blocks the write handler this long; the response waits for it, and
    /// `finishMeasurement()` must then be called (it returns what the handler sends at the end).
    package var blockingSeconds: Double?

    package init(events: [BottleEvent] = [], blockingSeconds: Double? = nil) {
        self.events = events
        self.blockingSeconds = blockingSeconds
    }
}

package struct BottleModel: Sendable {
    package let configuration: Configuration
    /// Where the bottle gets the time: injected, never the system's own, so tests step through
    /// a day of drinks, a 5 s rebuild or a calibration without waiting.
    private let clock: any WallClock

    // MARK: Persistent (flash, NVS, RTC memory)

    package private(set) var ring: DrinkRing
    package private(set) var timeValid: Bool
    package private(set) var goalML: UInt16
    /// The calibration saved in NVS.
    package private(set) var storedCalibration: LoadCellCalibration?
    package private(set) var shakeToEmpty: Bool
    var activity: ActivityLog

    // MARK: RAM (lost at every sleep)

    package private(set) var isAwake = true
    package private(set) var sync = SyncEngine()
    /// The calibration the weight calculation uses.
    package private(set) var runningCalibration: LoadCellCalibration?
    /// The cached Current State snapshot (the readable value).
    package private(set) var currentState = CurrentState.placeholder
    /// The previous rebuild, which the next one is compared with (3.1.2).
    private var lastRebuild = CurrentState.placeholder
    /// `daily_total_ml` as last recomputed (at wake, drink, delete, reset; B10).
    package private(set) var dailyTotalML: UInt16 = 0
    package private(set) var batteryCharacteristic: UInt8 = 0
    package private(set) var drinkDataValue: [UInt8] = DrinkDataChunk.placeholder.encoded()
    package private(set) var activityStatsValue: [UInt8] = Array(repeating: 0, count: 12)
    package private(set) var calibrationStateValue: [UInt8] = Array(repeating: 0, count: 12)
    package private(set) var bottleConfigValue: [UInt8] = BottleConfig.uncalibratedBootValue.encoded()
    private var settingsEcho: (UInt8, UInt16) = (0, 0)
    /// TARE_NOW commands acted on (tests check that a tare is applied at most once).
    package private(set) var tares = 0
    /// BLE calibration mode: no sleep, 0.5 s rebuilds, until CAL_SET_DATA or disconnect (B12).
    package private(set) var bleCalibrationMode = false
    private var calibrationRun: CalibrationRun?
    private var measuring = false
    private var measurementResult: Int32?
    private var nextRebuild: Double
    private var lastActivity: Double
    private var unsyncedAtWake: Int

    // MARK: The world

    /// Physical water in the bottle, ml (what the load cell weighs).
    package private(set) var waterML: Double
    package private(set) var batteryPercent: UInt8
    /// Seconds added to the clock by SET_TIME (system clock = clock + offset).
    private var clockOffset: Double = 0
    /// Bumped by every change worth persisting (the state file is rewritten when it moves).
    package private(set) var revision = 0

    package init(configuration: Configuration = Configuration(), records: [DrinkRecord] = [], clock: any WallClock) {
        self.configuration = configuration
        self.clock = clock
        ring = DrinkRing(records: records)
        timeValid = configuration.timeValid
        goalML = configuration.goalML
        shakeToEmpty = configuration.shakeToEmpty
        waterML = configuration.waterML
        batteryPercent = configuration.batteryPercent
        storedCalibration = configuration.calibrated
            ? LoadCellCalibration(emptyADC: configuration.sensorEmptyADC, scale: configuration.sensorScale) : nil
        runningCalibration = storedCalibration
        let now = clock.now.secondsSince1970
        nextRebuild = now + configuration.timing.rebuild
        lastActivity = now
        unsyncedAtWake = 0
        activity = ActivityLog()
        activity = ActivityLog.sample(motion: configuration.motionEvents, backpack: configuration.backpackSessions,
                                      now: bottleTime)
        unsyncedAtWake = ring.unsyncedCount
        dailyTotalML = ring.total(since: dayStart)
        // The bottle has been awake a moment: its first rebuild is done.
        _ = rebuildCurrentState()
    }

    // MARK: - Time

    /// The bottle's clock: system time plus the USB timezone offset (5.2), whole seconds.
    package var bottleTime: UInt32 {
        let seconds = (clock.now.secondsSince1970 + clockOffset).rounded(.down) + Double(configuration.timezoneOffsetHours) * 3600
        return UInt32(clamping: Int64(max(0, min(seconds, Double(UInt32.max)))))
    }

    /// 00:00 of the bottle's day (5.3).
    package var dayStart: UInt32 { bottleTime - bottleTime % 86_400 }

    // MARK: - Derived values

    package var unsyncedCount: Int { ring.unsyncedCount }
    package var records: [DrinkRecord] { ring.records }
    package var calibrationPhase: CalibrationPhase { calibrationRun?.phase ?? .idle }

    /// The load cell's raw reading now.
    package var rawADC: Int32 {
        Int32(clamping: Int64((Double(configuration.sensorEmptyADC) + waterML * Double(configuration.sensorScale)).rounded(.down)))
    }

    /// What the running calibration makes of the reading, in grams (0 when uncalibrated).
    package var measuredGrams: Double { runningCalibration?.grams(raw: rawADC) ?? 0 }

    // MARK: - Reads

    /// The value a read returns, with the read's side effects (Sync Control refreshes its count and
    /// counts as activity; Bottle Config and Device Settings reload from flash).
    package mutating func read(_ characteristic: Characteristic) -> [UInt8] {
        switch characteristic {
        case .syncControl:
            touchActivity()
            return sync.readValue(unsyncedCount: ring.unsyncedCount).encoded()
        case .bottleConfig:
            if let calibration = storedCalibration, calibration.isAcceptedAtWake {
                let tare = Int32(firmwareTruncating: Float(calibration.emptyADC) / calibration.scale)
                bottleConfigValue = BottleConfig(scaleFactor: calibration.scale, tareWeightGrams: tare,
                                                 bottleCapacityML: BottleConfig.fixedCapacityML, dailyGoalML: goalML).encoded()
            }
            return bottleConfigValue
        default:
            return value(of: characteristic)
        }
    }

    /// The current value without side effects.
    package func value(of characteristic: Characteristic) -> [UInt8] {
        switch characteristic {
        case .currentState: return currentState.encoded()
        case .bottleConfig: return bottleConfigValue
        case .syncControl: return sync.readValue(unsyncedCount: ring.unsyncedCount).encoded()
        case .drinkData: return drinkDataValue
        case .command: return []
        case .deviceSettings:
            return DeviceSettings(flags: shakeToEmpty ? 1 : 0, reserved1: settingsEcho.0, reserved2: settingsEcho.1).encoded()
        case .activityStats: return activityStatsValue
        case .calibrationState: return calibrationStateValue
        case .batteryLevel: return [batteryCharacteristic]
        }
    }

    /// A Device Information string as the bottle sends it (2.1, B17).
    package func deviceInformation(_ item: DeviceInformationItem) -> [UInt8] {
        let text: String
        switch item {
        case .manufacturer: text = configuration.manufacturer
        case .modelNumber: text = configuration.modelNumber
        case .firmwareRevision: text = configuration.firmwareRevision
        case .serialNumber: text = configuration.wifiMAC.uppercased()
        }
        var bytes = Array(text.utf8)
        if configuration.deviceInformationStyle == .nulTerminated {
            bytes.append(0)
            if item == .firmwareRevision {
                bytes += [0xA5, 0x5A, 0x3F, 0xFB, 0x00, 0x00, 0x8C, 0x12, 0x01, 0x00]  // uninitialised stack
            }
        }
        return bytes
    }

    // MARK: - Writes

    package mutating func write(_ characteristic: Characteristic, _ bytes: [UInt8]) -> WriteOutcome {
        revision += 1
        switch characteristic {
        case .syncControl:
            touchActivity()
            return WriteOutcome(events: applySync(bytes))
        case .command:
            return writeCommand(bytes)
        case .bottleConfig:
            writeBottleConfig(bytes)
            return WriteOutcome()
        case .deviceSettings:
            guard bytes.count == DeviceSettings.byteCount, let settings = try? DeviceSettings(decoding: bytes) else {
                return WriteOutcome()
            }
            touchActivity()
            shakeToEmpty = settings.shakeToEmptyEnabled
            settingsEcho = (settings.reserved1, settings.reserved2)
            return WriteOutcome()
        default:
            return WriteOutcome()  // not writable on the bottle
        }
    }

    private mutating func applySync(_ bytes: [UInt8]) -> [BottleEvent] {
        switch sync.write(bytes, syncSet: ring.syncSet) {
        case nil:
            return []
        case .sendChunk(let chunk):
            drinkDataValue = chunk.encoded()
            return [.notification(.drinkData, drinkDataValue)]
        case .complete(let markCount):
            let before = ring.unsyncedCount
            ring.markFirstUnsynced(markCount)
            return [forcedCurrentState(unsynced: configuration.staleUnsyncedAfterSync ? before : ring.unsyncedCount)]
        }
    }

    /// 3.2: exactly 12 bytes; a scale outside [100, 800] rejects the whole write. The raw bytes
    /// become the readable value in any case (an uncalibrated bottle never refreshes it).
    private mutating func writeBottleConfig(_ bytes: [UInt8]) {
        bottleConfigValue = bytes
        guard let config = try? BottleConfig(decoding: bytes), config.isWritableScale else { return }
        goalML = UInt16(BottleGoal.clamped(Int(config.dailyGoalML)))
        if storedCalibration != nil, let points = config.calibrationAfterWrite {
            storedCalibration = LoadCellCalibration(emptyADC: points.emptyADC, scale: config.scaleFactor)
        }
    }

    private mutating func writeCommand(_ bytes: [UInt8]) -> WriteOutcome {
        if Command.countsAsActivity(bytes) { touchActivity() }
        guard let command = Command.parse(bytes) else { return WriteOutcome() }
        switch command {
        case .setTime(let seconds):
            clockOffset = Double(seconds) - clock.now.secondsSince1970
            timeValid = true
            return WriteOutcome()
        case .setDailyTotal, .ping:
            return WriteOutcome()
        case .calSetData(let empty, _, let scale):
            guard command.isAcceptedByBottle else { return WriteOutcome() }
            storedCalibration = LoadCellCalibration(emptyADC: empty, scale: scale)
            bleCalibrationMode = false
            measurementResult = nil
            return WriteOutcome(events: [forcedCurrentState()])
        case .deleteDrinkRecord(let recordID):
            ring.markDeleted(recordID: recordID)
            dailyTotalML = ring.total(since: dayStart)
            return WriteOutcome(events: [forcedCurrentState()])
        case .tareNow:
            guard var calibration = runningCalibration else { return WriteOutcome() }
            tares += 1
            calibration.emptyADC = rawADC
            runningCalibration = calibration
            storedCalibration = calibration
            return WriteOutcome()
        case .calMeasurePoint:
            enterCalibrationMode()
            measuring = true
            // The "measuring started" notification still carries the old flags (B10).
            return WriteOutcome(events: [forcedCurrentState()], blockingSeconds: configuration.timing.calibrationMeasurement)
        case .resetDaily:
            ring.markDeleted(since: dayStart)
            dailyTotalML = ring.total(since: dayStart)
            return WriteOutcome()
        case .clearHistory:
            ring.clear()
            return WriteOutcome()
        case .startCalibration:
            guard calibrationRun == nil else { return WriteOutcome() }
            enterCalibrationMode()
            calibrationRun = CalibrationRun(phase: .triggered, phaseEnds: clock.now.secondsSince1970)
            return WriteOutcome(events: [calibrationState(.triggered)])
        case .cancelCalibration:
            guard calibrationRun != nil else { return WriteOutcome() }
            calibrationRun = nil
            return WriteOutcome(events: [calibrationState(.idle)])
        case .getActivitySummary:
            activityStatsValue = activity.summary(clockValid: timeValid).encoded()
            return WriteOutcome(events: [.notification(.activityStats, activityStatsValue)])
        case .getMotionChunk(let index):
            guard let chunk = activity.motionChunk(Int(index)) else { return WriteOutcome() }
            activityStatsValue = chunk.encoded()
            return WriteOutcome(events: [.notification(.activityStats, activityStatsValue)])
        case .getBackpackChunk(let index):
            guard let chunk = activity.backpackChunk(Int(index)) else { return WriteOutcome() }
            activityStatsValue = chunk.encoded()
            return WriteOutcome(events: [.notification(.activityStats, activityStatsValue)])
        }
    }

    /// Ends a CAL_MEASURE_POINT: the raw result becomes available (shown from the next rebuild on)
    /// and the handler sends its closing forced notification, still with the cached flags.
    package mutating func finishMeasurement() -> [BottleEvent] {
        revision += 1
        measuring = false
        measurementResult = rawADC
        return [forcedCurrentState()]
    }

    // MARK: - The world acting on the bottle

    /// The user drinks `amountML`: recorded as the firmware would (a drop of at least 30 ml, only
    /// with a valid clock and a calibration), then the snapshot is rebuilt at once. A bottle with
    /// too little water is refilled to 830 ml first (refills create no record). Returns the record
    /// (nil when the bottle would not record this) and the rebuild's notifications.
    package mutating func drink(amountML: Int) -> (record: DrinkRecord?, events: [BottleEvent]) {
        revision += 1
        // Picking the bottle up is a motion wake.
        if !isAwake { wake() }
        let amount = Double(max(0, min(amountML, Int(BottleConfig.fixedCapacityML))))
        if waterML < amount { waterML = Double(BottleConfig.fixedCapacityML) }
        waterML -= amount
        touchActivity()
        guard timeValid, runningCalibration != nil, amountML >= 30 else {
            return (nil, rebuildCurrentState())
        }
        let level = Int16(clamping: Int(measuredGrams.rounded(.towardZero)))
        let record = ring.append(timestamp: bottleTime, amountML: Int16(clamping: amountML), bottleLevelML: level,
                                 typeRaw: amountML >= 100 ? 1 : 0)
        activity.drinkThisWake = true
        dailyTotalML = ring.total(since: dayStart)
        return (record, rebuildCurrentState())
    }

    package mutating func setBattery(_ percent: UInt8) {
        revision += 1
        batteryPercent = min(percent, 100)
    }

    /// The ring as another room's simulator left it (one bottle heard in several rooms, see
    /// `SharedBottle`): its records and flags replace these; the daily total follows them.
    package mutating func adoptSharedRing(_ shared: DrinkRing) {
        guard shared != ring else { return }
        revision += 1
        ring = shared
        dailyTotalML = ring.total(since: dayStart)
    }

    /// The link went down (any cause): BLE calibration mode ends; the sync state does not (B4).
    package mutating func linkDropped() {
        revision += 1
        bleCalibrationMode = false
        if configuration.unsyncedAgainAfterDisconnect { ring.markAllUnsynced() }
    }

    /// Deep sleep: RAM is lost (sync state, snapshots, characteristic values).
    package mutating func sleep() {
        guard isAwake else { return }
        revision += 1
        activity.endWake(at: bottleTime)
        isAwake = false
        sync.reset()
        calibrationRun = nil
        bleCalibrationMode = false
        measuring = false
        measurementResult = nil
        currentState = .placeholder
        lastRebuild = .placeholder
        batteryCharacteristic = 0
        drinkDataValue = DrinkDataChunk.placeholder.encoded()
        activityStatsValue = Array(repeating: 0, count: 12)
        calibrationStateValue = Array(repeating: 0, count: 12)
        bottleConfigValue = BottleConfig.uncalibratedBootValue.encoded()
        settingsEcho = (0, 0)
    }

    /// A motion wake: the saved calibration is loaded (if the firmware accepts it), the daily total
    /// recomputed; Current State stays all zero until the first rebuild.
    package mutating func wake() {
        guard !isAwake else { return }
        revision += 1
        isAwake = true
        runningCalibration = storedCalibration.flatMap { $0.isAcceptedAtWake ? $0 : nil }
        dailyTotalML = ring.total(since: dayStart)
        let now = clock.now.secondsSince1970
        nextRebuild = now + configuration.timing.rebuild
        lastActivity = now
        unsyncedAtWake = ring.unsyncedCount
        activity.beginWake(at: bottleTime, reason: .motion)
    }

    // MARK: - Timers

    /// Runs whatever is due: the Current State rebuild, calibration steps, the activity timer.
    package mutating func tick() -> [BottleEvent] {
        guard isAwake else { return [] }
        let now = clock.now.secondsSince1970
        var events: [BottleEvent] = []
        if var run = calibrationRun, now >= run.phaseEnds {
            revision += 1
            events += advanceCalibration(&run, now: now)
        }
        if now >= nextRebuild {
            events += rebuildCurrentState()
        }
        if let timeout = activityTimeout, !bleCalibrationMode, now - lastActivity >= timeout {
            sleep()
            events.append(.fellAsleep)
        }
        return events
    }

    /// When `tick()` next has something to do (clock seconds).
    package var nextDeadline: Double? {
        guard isAwake else { return nil }
        var deadline = nextRebuild
        if let run = calibrationRun { deadline = min(deadline, run.phaseEnds) }
        if let timeout = activityTimeout, !bleCalibrationMode { deadline = min(deadline, lastActivity + timeout) }
        return deadline
    }

    private var activityTimeout: Double? {
        guard let base = configuration.timing.activityTimeout else { return nil }
        return ring.unsyncedCount > unsyncedAtWake ? max(base, configuration.timing.activityTimeoutWithNewDrinks) : base
    }

    /// BLE calibration mode: rebuilds every 0.5 s from now on.
    private mutating func enterCalibrationMode() {
        bleCalibrationMode = true
        nextRebuild = min(nextRebuild, clock.now.secondsSince1970 + configuration.timing.calibrationRebuild)
    }

    private mutating func touchActivity() {
        lastActivity = clock.now.secondsSince1970
    }

    private mutating func advanceCalibration(_ run: inout CalibrationRun, now: Double) -> [BottleEvent] {
        guard let (phase, duration) = CalibrationRun.next(after: run.phase, timing: configuration.timing) else {
            calibrationRun = nil  // COMPLETE/ERROR held long enough: back to idle, silently
            return []
        }
        run.phase = phase
        run.phaseEnds = now + duration
        var event = calibrationState(phase)
        switch phase {
        case .measureFull:
            run.measuredEmpty = configuration.sensorEmptyADC
        case .complete:
            let calibration = LoadCellCalibration(emptyADC: run.measuredEmpty, scale: configuration.sensorScale)
            storedCalibration = calibration
            runningCalibration = calibration
            event = calibrationState(.complete, empty: calibration.emptyADC, full: calibration.fullADC)
        default:
            break
        }
        calibrationRun = run
        return [event]
    }

    private mutating func calibrationState(_ phase: CalibrationPhase, empty: Int32 = 0, full: Int32 = 0) -> BottleEvent {
        calibrationStateValue = CalibrationState(phase: phase, flags: phase == .error ? 1 : 0, emptyADC: empty,
                                                 fullADC: full).encoded()
        return .notification(.calibrationState, calibrationStateValue)
    }

    // MARK: - Current State

    /// The periodic rebuild (3.1.1) and its notification rule (3.1.2); also refreshes Battery Level
    /// (notified only when it changes, 2.1).
    private mutating func rebuildCurrentState() -> [BottleEvent] {
        let now = clock.now.secondsSince1970
        let calibrating = bleCalibrationMode || calibrationRun != nil
        nextRebuild = now + (calibrating ? configuration.timing.calibrationRebuild : configuration.timing.rebuild)
        guard isAwake, calibrating || runningCalibration != nil else { return [] }
        revision += 1
        var events: [BottleEvent] = []
        if batteryCharacteristic != batteryPercent {
            batteryCharacteristic = batteryPercent
            events.append(.notification(.batteryLevel, [batteryCharacteristic]))
        }
        let grams = measuredGrams
        var flags: CurrentStateFlags = [.stable]
        if timeValid { flags.insert(.timeValid) }
        if runningCalibration != nil { flags.insert(.calibrated) }
        if measuring { flags.insert(.calMeasuring) }
        if batteryPercent < configuration.lowBatteryThreshold &+ 5 { flags.insert(.lowBattery) }
        var snapshot = CurrentState(
            timestamp: bottleTime, currentWeightG: Int16(clamping: Int(grams.rounded(.towardZero))),
            bottleLevelML: UInt16(clamping: Int(min(max(grams, 0), Double(BottleConfig.fixedCapacityML)))),
            dailyTotalML: dailyTotalML, batteryPercent: batteryPercent, flags: flags,
            unsyncedCount: UInt16(clamping: ring.unsyncedCount))
        if let result = measurementResult { snapshot = snapshot.withCalibrationADC(result) }
        let previous = lastRebuild
        lastRebuild = snapshot
        currentState = snapshot
        if Self.isNotable(snapshot, comparedWith: previous) {
            events.append(.notification(.currentState, snapshot.encoded()))
        }
        return events
    }

    /// 3.1.2: daily total changed, level moved by 10 or more, or STABLE, a calibration bit or
    /// LOW_BATTERY changed. Timestamp, battery and unsynced_count alone do not count.
    static func isNotable(_ new: CurrentState, comparedWith old: CurrentState) -> Bool {
        let watched: CurrentStateFlags = [.stable, .calMeasuring, .calResultReady, .lowBattery]
        return new.dailyTotalML != old.dailyTotalML
            || abs(Int(new.bottleLevelML) - Int(old.bottleLevelML)) >= 10
            || new.flags.intersection(watched) != old.flags.intersection(watched)
    }

    /// A forced notification: the cached snapshot with only `unsynced_count` refreshed (3.1.2).
    private mutating func forcedCurrentState(unsynced: Int? = nil) -> BottleEvent {
        currentState.unsyncedCount = UInt16(clamping: unsynced ?? ring.unsyncedCount)
        return .notification(.currentState, currentState.encoded())
    }

    // MARK: - Set-up helpers (faults, tests)

    /// Replaces a record's flag byte (e.g. the wedge fault's deleted-unsynced record).
    package mutating func setFlags(_ flags: UInt8, recordID: UInt32) {
        revision += 1
        ring.setFlags(flags, recordID: recordID)
    }
}

/// The four Device Information strings (2.1).
package enum DeviceInformationItem: String, Sendable, Hashable, CaseIterable {
    case manufacturer
    case modelNumber
    case firmwareRevision
    case serialNumber

    /// The characteristic UUID (0x2A29, 0x2A24, 0x2A26, 0x2A25).
    package var uuid: String {
        switch self {
        case .manufacturer: return "00002a29-0000-1000-8000-00805f9b34fb"
        case .modelNumber: return "00002a24-0000-1000-8000-00805f9b34fb"
        case .firmwareRevision: return "00002a26-0000-1000-8000-00805f9b34fb"
        case .serialNumber: return "00002a25-0000-1000-8000-00805f9b34fb"
        }
    }
}
