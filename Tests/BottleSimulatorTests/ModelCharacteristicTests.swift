// Every characteristic of the model against docs/protocol.md 2–6: the ring, Current State (periodic
// and forced notifications), commands, Bottle Config, Device Settings, Activity Stats,
// calibration, battery and Device Information.
import BusTestSupport
import AquavateProtocol
@testable import BottleSimulator
import Foundation
import Testing
import Timekeeping

@Suite struct ModelRingTests {
    @Test func unsyncedCountIncludesDeletedButTheSyncSetDoesNot() {
        var ring = DrinkRing()
        for index in 0..<4 { ring.append(timestamp: UInt32(100 + index), amountML: 50, bottleLevelML: 300, typeRaw: 0) }
        ring.markDeleted(recordID: 2)
        ring.markFirstUnsynced(1)
        #expect(ring.unsyncedCount == 3)
        #expect(ring.syncSet.map(\.recordID) == [3, 4])
        let found = ring.markDeleted(recordID: 99)
        #expect(!found)
    }

    @Test func theRingHoldsSixHundredAndOverwritesTheOldest() {
        var ring = DrinkRing()
        for index in 0..<605 { ring.append(timestamp: UInt32(index), amountML: 40, bottleLevelML: 100, typeRaw: 0) }
        #expect(ring.records.count == 600)
        #expect(ring.records.first?.recordID == 6)
        #expect(ring.records.last?.recordID == 605)
        #expect(ring.nextRecordID == 606)
    }

    @Test func clearHistoryRestartsIdsAtOne() {
        var (bottle, _) = makeBottle(records: 10)
        _ = bottle.command(.clearHistory)
        #expect(bottle.records.isEmpty)
        #expect(bottle.unsyncedCount == 0)
        #expect(bottle.drink(amountML: 80).record?.recordID == 1)
    }

    @Test func aRecordsFileLoadsInOrderAndBadFilesSayWhere() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("records-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let good = folder.appendingPathComponent("good.json")
        try Data(#"[{"record_id": 3, "timestamp": 100, "amount_ml": 50, "bottle_level_ml": -2, "type": 0, "flags": 4}]"#.utf8)
            .write(to: good)
        let records = try RecordSource.load(from: good)
        #expect(records == [DrinkRecord(recordID: 3, timestamp: 100, amountML: 50, bottleLevelML: -2, typeRaw: 0, flagsRaw: 4)])
        #expect(DrinkRing(records: records).nextRecordID == 4)
        let bad = folder.appendingPathComponent("bad.json")
        try Data(#"[{"record_id": 3}]"#.utf8).write(to: bad)
        let error = #expect(throws: RecordsFileUnreadable.self) { try RecordSource.load(from: bad) }
        #expect(error?.description.contains("record 0 has no \"timestamp\"") == true)
        #expect(throws: RecordsFileUnreadable.self) { try RecordSource.load(from: folder.appendingPathComponent("none.json")) }
    }

    @Test func generatedRecordsAreDeterministicUnsyncedAndInThePast() {
        let a = RecordSource.generated(count: 40, endingAt: WallInstant(secondsSince1970: 1_763_712_000))
        let b = RecordSource.generated(count: 40, endingAt: WallInstant(secondsSince1970: 1_763_712_000))
        #expect(a == b)
        #expect(a.count == 40)
        #expect(a.map(\.recordID) == Array(1...40))
        #expect(a.allSatisfy { $0.flagsRaw == 0 && $0.amountML >= 30 && $0.timestamp < 1_763_712_000 })
        #expect(zip(a, a.dropFirst()).allSatisfy { $0.timestamp < $1.timestamp })
        #expect(a.allSatisfy { ($0.typeRaw == 1) == ($0.amountML >= 100) })
    }
}

@Suite struct ModelCurrentStateTests {
    @Test func aRebuildNotifiesOnlyWhenSomethingWatchedChanged() throws {
        var (bottle, clock) = makeBottle()
        let start = try CurrentState(decoding: bottle.read(.currentState))
        #expect(!start.isPlaceholder)
        #expect(start.flags == [.timeValid, .calibrated, .stable])
        #expect(start.bottleLevelML == 500)

        clock.advance(by: .seconds(5))
        #expect(bottle.tick().states.isEmpty)  // timestamp moved, nothing watched changed
        #expect(try CurrentState(decoding: bottle.read(.currentState)).timestamp == start.timestamp + 5)

        // The battery alone never causes a Current State notification.
        bottle.setBattery(60)
        clock.advance(by: .seconds(5))
        let batteryOnly = bottle.tick()
        #expect(batteryOnly.states.isEmpty)
        #expect(batteryOnly.notified(.batteryLevel) == [[60]])

        // A drink changes the daily total: notified at once.
        let drink = bottle.drink(amountML: 150)
        #expect(drink.events.states.map(\.dailyTotalML).count == 1)
        #expect(drink.events.states[0].unsyncedCount == 1)
        #expect(drink.events.states[0].bottleLevelML == 350)

        // Low battery flips LOW_BATTERY at the next rebuild (below 25 %).
        bottle.setBattery(24)
        clock.advance(by: .seconds(5))
        #expect(bottle.tick().states.map { $0.flags.contains(.lowBattery) } == [true])
    }

    @Test func tooSmallALevelChangeIsNotNotified() {
        var (bottle, clock) = makeBottle()
        // A 20 ml sip is below the 30 ml drink threshold: no record, level moves 20 (≥ 10) → notified.
        let sip = bottle.drink(amountML: 20)
        #expect(sip.record == nil)
        #expect(sip.events.states.count == 1)
        let tiny = bottle.drink(amountML: 5)
        #expect(tiny.events.states.isEmpty)
        clock.advance(by: .seconds(5))
        #expect(bottle.tick().states.isEmpty)
    }

    @Test func deleteAlwaysSendsAForcedNotificationWithTheCachedSnapshot() throws {
        var (bottle, clock) = makeBottle()
        let drink = bottle.drink(amountML: 200)
        let id = try #require(drink.record?.recordID)
        let total = drink.events.states[0].dailyTotalML

        let forced = bottle.command(.deleteDrinkRecord(id))
        #expect(forced.states.count == 1)
        #expect(forced.states[0].dailyTotalML == total)  // stale total (B6)
        #expect(forced.states[0].unsyncedCount == 1)  // a deleted record still counts
        #expect(bottle.flagsByID[id] == 0x04)
        // The next rebuild notices the new total.
        clock.advance(by: .seconds(5))
        #expect(bottle.tick().states.map(\.dailyTotalML) == [total - 200])
        // An unknown id is acknowledged the same way.
        #expect(bottle.command(.deleteDrinkRecord(4242)).states.count == 1)
    }

    @Test func setTimeSetsTheClockAndTimeValidShowsAtTheNextRebuild() throws {
        var (bottle, clock) = makeBottle { $0.timeValid = false }
        #expect(bottle.drink(amountML: 100).record == nil)  // no drinks without a valid clock
        #expect(try !CurrentState(decoding: bottle.read(.currentState)).flags.contains(.timeValid))

        #expect(bottle.write(.command, [0x10, 0x00, 0x00, 0x00]).events.isEmpty)  // 4-byte 0x10 ignored
        #expect(!bottle.timeValid)
        #expect(bottle.command(.setTime(2_000_000_000)).isEmpty)
        #expect(bottle.timeValid)
        #expect(bottle.bottleTime == 2_000_000_000)
        #expect(try !CurrentState(decoding: bottle.read(.currentState)).flags.contains(.timeValid))
        clock.advance(by: .seconds(5))
        _ = bottle.tick()
        let state = try CurrentState(decoding: bottle.read(.currentState))
        #expect(state.flags.contains(.timeValid))
        #expect(state.timestamp == 2_000_000_005)
        #expect(bottle.drink(amountML: 100).record?.timestamp == 2_000_000_005)
    }

    @Test func resetDailySoftDeletesTodaysDrinks() {
        var (bottle, clock) = makeBottle()
        _ = bottle.drink(amountML: 100)
        _ = bottle.drink(amountML: 120)
        #expect(bottle.dailyTotalML == 220)
        #expect(bottle.command(.resetDaily).isEmpty)
        #expect(bottle.dailyTotalML == 0)
        #expect(bottle.records.allSatisfy { $0.isDeleted })
        #expect(bottle.unsyncedCount == 2)
        clock.advance(by: .seconds(5))
        #expect(bottle.tick().states.map(\.dailyTotalML) == [0])
    }

    @Test func afterAWakeCurrentStateIsZeroUntilTheFirstRebuild() throws {
        var (bottle, clock) = makeBottle(records: 3)
        bottle.sleep()
        #expect(bottle.tick().isEmpty)
        bottle.wake()
        #expect(bottle.read(.currentState) == Array(repeating: 0, count: 14))
        #expect(bottle.read(.batteryLevel) == [0])
        #expect(bottle.readSyncControl().count == 3)  // Sync Control is current right after wake (B6)
        clock.advance(by: .seconds(5))
        let first = bottle.tick()
        #expect(first.states.map(\.unsyncedCount) == [3])
        #expect(first.notified(.batteryLevel) == [[80]])
    }

    @Test func theActivityTimerPutsTheBottleToSleepUnlessPinged() {
        var (bottle, clock) = makeBottle { $0.timing.activityTimeout = 30 }
        clock.advance(by: .seconds(20))
        _ = bottle.tick()
        _ = bottle.command(.ping)
        clock.advance(by: .seconds(20))
        #expect(!bottle.tick().contains(.fellAsleep))
        // SET_TIME is not activity.
        _ = bottle.command(.setTime(UInt32(clock.now.secondsSince1970)))
        clock.advance(by: .seconds(11))
        #expect(bottle.tick().contains(.fellAsleep))
        #expect(!bottle.isAwake)
    }
}

@Suite struct ModelCommandAndConfigTests {
    @Test func bottleConfigReadReflectsTheCalibrationAndGoal() throws {
        var (bottle, _) = makeBottle()
        let config = try BottleConfig(decoding: bottle.read(.bottleConfig))
        #expect(config.scaleFactor == 412)
        #expect(config.tareWeightGrams == Int32(Float(120_000) / 412))
        #expect(config.bottleCapacityML == 830)
        #expect(config.dailyGoalML == 2500)

        // A goal change echoing scale and tare, with a bogus capacity: goal stored, capacity ignored.
        var write = config
        write.dailyGoalML = 3000
        write.bottleCapacityML = 500
        #expect(bottle.write(.bottleConfig, write.encoded()).events.isEmpty)
        #expect(try BottleConfig(decoding: bottle.read(.bottleConfig)).dailyGoalML == 3000)
        #expect(try BottleConfig(decoding: bottle.read(.bottleConfig)).bottleCapacityML == 830)

        // Clamped to 1000…4000.
        write.dailyGoalML = 9000
        _ = bottle.write(.bottleConfig, write.encoded())
        #expect(bottle.goalML == 4000)
    }

    @Test func aScaleOutsideTheRangeRejectsTheWholeWrite() throws {
        var (bottle, _) = makeBottle()
        for scale: Float in [99.9, 800.1, 1.0, .nan] {
            let bad = BottleConfig(scaleFactor: scale, tareWeightGrams: 0, bottleCapacityML: 830, dailyGoalML: 1500)
            _ = bottle.write(.bottleConfig, bad.encoded())
            #expect(bottle.goalML == 2500, "scale \(scale)")
        }
        // 11 or 13 bytes are ignored.
        _ = bottle.write(.bottleConfig, Array(BottleConfig(scaleFactor: 400, tareWeightGrams: 0, bottleCapacityML: 830,
                                                           dailyGoalML: 1500).encoded().prefix(11)))
        #expect(bottle.goalML == 2500)
    }

    @Test func anUncalibratedBottleShowsTheBootValueThenTheLastRawWrite() throws {
        var (bottle, _) = makeBottle { $0.calibrated = false }
        #expect(bottle.read(.bottleConfig) == Hex.parse("00 00 80 3F 00 00 00 00 3E 03 C4 09"))
        let rejected = BottleConfig(scaleFactor: 1.0, tareWeightGrams: 0, bottleCapacityML: 830, dailyGoalML: 1200)
        _ = bottle.write(.bottleConfig, rejected.encoded())
        #expect(bottle.read(.bottleConfig) == rejected.encoded())
        #expect(bottle.goalML == 2500)
        let dummy = BottleConfig(scaleFactor: 400, tareWeightGrams: 0, bottleCapacityML: 830, dailyGoalML: 1200)
        _ = bottle.write(.bottleConfig, dummy.encoded())
        #expect(bottle.goalML == 1200)
        #expect(bottle.storedCalibration == nil)  // no calibration to rewrite
    }

    @Test func aConfigWriteRewritesTheSavedCalibrationOnly() throws {
        var (bottle, _) = makeBottle()
        let write = BottleConfig(scaleFactor: 400, tareWeightGrams: 250, bottleCapacityML: 830, dailyGoalML: 2500)
        _ = bottle.write(.bottleConfig, write.encoded())
        #expect(bottle.storedCalibration == LoadCellCalibration(emptyADC: 100_000, scale: 400))
        #expect(bottle.runningCalibration == LoadCellCalibration(emptyADC: 120_000, scale: 412))  // until next wake
        bottle.sleep()
        bottle.wake()
        #expect(bottle.runningCalibration == LoadCellCalibration(emptyADC: 100_000, scale: 400))
    }

    @Test func deviceSettingsPersistBitZeroAndEchoTheRest() throws {
        var (bottle, _) = makeBottle()
        #expect(bottle.read(.deviceSettings) == [0, 0, 0, 0])
        _ = bottle.write(.deviceSettings, [0x03, 0x07, 0x34, 0x12])
        #expect(bottle.read(.deviceSettings) == [0x01, 0x07, 0x34, 0x12])
        _ = bottle.write(.deviceSettings, [0x00, 0x00, 0x00])  // 3 bytes: ignored
        #expect(bottle.shakeToEmpty)
        bottle.sleep()
        bottle.wake()
        #expect(bottle.read(.deviceSettings) == [0x01, 0, 0, 0])
    }

    @Test func activityRequestsAnswerOnActivityStats() throws {
        var (bottle, _) = makeBottle { $0.motionEvents = 12; $0.backpackSessions = 2 }
        let summary = try ActivitySummary(decoding: #require(bottle.command(.getActivitySummary).notified(.activityStats).first))
        #expect(summary.motionEventCount == 12)
        #expect(summary.backpackSessionCount == 2)
        #expect(summary.clockValid)
        let chunk0 = try MotionEventChunk(decoding: #require(bottle.command(.getMotionChunk(0)).notified(.activityStats).first))
        #expect(chunk0.totalChunks == 2)
        #expect(chunk0.events.count == 10)
        let chunk1 = try MotionEventChunk(decoding: #require(bottle.command(.getMotionChunk(1)).notified(.activityStats).first))
        #expect(chunk1.events.count == 2)
        #expect(chunk1.events.last?.sleepType == .stillAwake)
        #expect(bottle.command(.getMotionChunk(2)).isEmpty)  // no such chunk: no answer at all
        let backpack = try BackpackSessionChunk(decoding: #require(bottle.command(.getBackpackChunk(0)).notified(.activityStats).first))
        #expect(backpack.sessions.count == 2)
        #expect(bottle.command(.getBackpackChunk(1)).isEmpty)
        #expect(bottle.read(.activityStats) == backpack.encoded())
    }

    @Test func withNoSessionsBackpackChunkZeroIsABareHeader() {
        var (bottle, _) = makeBottle { $0.backpackSessions = 0 }
        #expect(bottle.command(.getBackpackChunk(0)).notified(.activityStats) == [[0x00, 0x01, 0x00, 0x00]])
    }

    @Test func bottleDrivenCalibrationWalksItsStates() throws {
        var (bottle, clock) = makeBottle { $0.calibrated = false }
        var phases: [UInt8] = bottle.command(.startCalibration).notified(.calibrationState).map { $0[0] }
        #expect(bottle.command(.startCalibration).isEmpty)  // already calibrating: ignored
        var complete: CalibrationState?
        for _ in 0..<200 {
            clock.advance(by: .seconds(0.5))
            for value in bottle.tick().notified(.calibrationState) {
                phases.append(value[0])
                let state = try CalibrationState(decoding: value)
                if state.phase == .complete { complete = state }
                if state.phase == .waitFull { #expect(state.emptyADC == 0) }
            }
        }
        #expect(phases == [1, 2, 3, 4, 6, 7, 9])
        let result = try #require(complete)
        #expect(result.emptyADC == 120_000)
        #expect(result.fullADC == 120_000 + Int32(830 * 412))
        #expect(bottle.runningCalibration != nil)
        #expect(bottle.calibrationPhase == .idle)  // back to idle silently
        #expect(bottle.bleCalibrationMode)  // until the link drops (B12)
        bottle.linkDropped()
        #expect(!bottle.bleCalibrationMode)
    }

    @Test func cancelCalibrationNotifiesIdleOnlyWhenActive() {
        var (bottle, _) = makeBottle()
        #expect(bottle.command(.cancelCalibration).isEmpty)
        _ = bottle.command(.startCalibration)
        #expect(bottle.command(.cancelCalibration).notified(.calibrationState) == [Array(repeating: 0, count: 12)])
    }

    @Test func calMeasurePointBlocksThenShowsTheRawReading() throws {
        var (bottle, clock) = makeBottle()
        let outcome = bottle.write(.command, Command.calMeasurePoint(0).encoded())
        #expect(outcome.blockingSeconds == 5)
        #expect(outcome.events.states.count == 1)
        #expect(!outcome.events.states[0].flags.contains(.calMeasuring))  // B10: old flags
        clock.advance(by: .seconds(0.5))
        _ = bottle.tick()
        #expect(try CurrentState(decoding: bottle.read(.currentState)).flags.contains(.calMeasuring))
        let end = bottle.finishMeasurement()
        #expect(end.states.count == 1)
        clock.advance(by: .seconds(0.5))
        _ = bottle.tick()
        let state = try CurrentState(decoding: bottle.read(.currentState))
        #expect(state.calibrationADC == bottle.rawADC)
        // CAL_SET_DATA with full <= empty is ignored; a good one ends calibration mode.
        #expect(bottle.command(.calSetData(emptyADC: 10, fullADC: 5, scale: 1)).isEmpty)
        #expect(bottle.bleCalibrationMode)
        #expect(bottle.command(.calSetData(emptyADC: 100_000, fullADC: 432_000, scale: 400)).states.count == 1)
        #expect(!bottle.bleCalibrationMode)
    }

    @Test func deviceInformationStrings() {
        let (plain, _) = makeBottle()
        #expect(plain.deviceInformation(.manufacturer) == Array("Aquavate".utf8))
        #expect(plain.deviceInformation(.modelNumber) == Array("Puck v1.0".utf8))
        #expect(plain.deviceInformation(.firmwareRevision) == Array("0.1.0".utf8))
        #expect(plain.deviceInformation(.serialNumber) == Array("F4:12:FA:00:A3:F2".utf8))
        #expect(plain.configuration.deviceName == "Aquavate-A3F2")
        let (nul, _) = makeBottle { $0.deviceInformationStyle = .nulTerminated }
        #expect(nul.deviceInformation(.manufacturer) == Array("Aquavate".utf8) + [0])
        #expect(nul.deviceInformation(.firmwareRevision).count == 16)
        #expect(DeviceInformation.cleanString(nul.deviceInformation(.firmwareRevision)) == "0.1.0")
    }

    @Test func tareMakesTheCurrentContentZero() throws {
        var (bottle, clock) = makeBottle()
        _ = bottle.command(.tareNow)
        clock.advance(by: .seconds(5))
        let states = bottle.tick().states
        #expect(states.map(\.bottleLevelML) == [0])
    }
}
