// Device Settings, Activity Stats, Calibration State, Device Information: vectors TV27–TV30, B17.

import AquavateProtocol
import Testing

@Suite("Device Settings (TV27)")
struct DeviceSettingsTests {
    @Test("TV27: shake-to-empty on and off")
    func onOff() throws {
        let on = try hex("01 00 00 00")
        let off = try hex("00 00 00 00")
        #expect(try DeviceSettings(decoding: on).shakeToEmptyEnabled)
        #expect(try !DeviceSettings(decoding: off).shakeToEmptyEnabled)
        #expect(DeviceSettings(shakeToEmpty: true).encoded() == on)
        #expect(DeviceSettings(shakeToEmpty: false).encoded() == off)
    }

    @Test("TV27: lengths 3 and 5 are rejected", arguments: [3, 5])
    func wrongLength(length: Int) {
        #expect(throws: ProtocolError.wrongLength(structure: "Device Settings", expected: "exactly 4", actual: length)) {
            try DeviceSettings(decoding: Array(repeating: 1, count: length))
        }
    }

    @Test("Reserved bytes are echoed")
    func reserved() throws {
        let bytes = try hex("03 7F 34 12")
        let settings = try DeviceSettings(decoding: bytes)
        #expect(settings.shakeToEmptyEnabled)
        #expect(settings.flags == 3 && settings.reserved1 == 0x7F && settings.reserved2 == 0x1234)
        #expect(settings.encoded() == bytes)
    }
}

@Suite("Activity Stats (TV28, TV29)")
struct ActivityStatsTests {
    @Test("TV28: the summary")
    func summary() throws {
        let bytes = try hex("17 02 00 01 00 00 00 00 00 00 00 00")
        let summary = try ActivitySummary(decoding: bytes)
        #expect(summary.motionEventCount == 23)
        #expect(summary.backpackSessionCount == 2)
        #expect(!summary.inBackpackMode)
        #expect(summary.clockValid)
        #expect(!summary.hasOpenSession)
        #expect(summary.currentSessionStart == 0)
        #expect(summary.currentTimerWakes == 0)
        #expect(summary.motionChunkCount == 3)
        #expect(summary.backpackChunkCount == 1)
        #expect(summary.encoded() == bytes)
    }

    @Test("TV28: the one-event motion chunk of the same length")
    func motionChunk() throws {
        let bytes = try hex("02 03 01 00 A0 C1 90 67 2D 00 00 80")
        let chunk = try MotionEventChunk(decoding: bytes)
        #expect(chunk.chunkIndex == 2)
        #expect(chunk.totalChunks == 3)
        #expect(chunk.isLast)
        #expect(chunk.events.count == 1)
        let event = chunk.events[0]
        #expect(utc(event.timestamp) == "2025-01-22T10:00:00Z")
        #expect(event.durationSec == 45)
        #expect(event.wakeReason == .motion)
        #expect(event.sleepType == .normal)
        #expect(event.drinkTaken)
        #expect(chunk.encoded() == bytes)
        // Not self-describing (B16): the motion chunk is also a valid summary, and a summary whose
        // in_backpack_mode byte is 1 is also a valid one-event motion chunk.
        #expect(throws: Never.self) { try ActivitySummary(decoding: bytes) }
        #expect(throws: Never.self) { try MotionEventChunk(decoding: hex("17 02 01 01 C0 9E 8E 67 03 00 00 00")) }
    }

    @Test("Motion-event sleep types and wake reasons")
    func motionFields() {
        let event = MotionEvent(timestamp: 1, durationSec: 2, wakeReason: WakeReason(rawValue: 2), sleepTypeRaw: 0x7F)
        #expect(event.wakeReason == .powerOn)
        #expect(event.sleepType == .stillAwake && !event.drinkTaken)
        #expect(MotionEvent(timestamp: 0, durationSec: 0, wakeReason: .timer, sleepTypeRaw: 0x81).sleepType == .extended)
        #expect(WakeReason(rawValue: 9) == .unknown(9))
        #expect(SleepType(rawValue: 5).rawValue == 5)
    }

    @Test("Motion chunks: more than 10 events or a length mismatch are rejected")
    func motionRejects() throws {
        var eleven: [UInt8] = [0, 1, 11, 0]
        eleven += Array(repeating: 0, count: 88)
        #expect(throws: ProtocolError.tooManyEntries(structure: "Motion-event chunk", declared: 11, maximum: 10)) {
            try MotionEventChunk(decoding: eleven)
        }
        let tv28 = try hex("02 03 01 00 A0 C1 90 67 2D 00 00 80")
        for length in [11, 13] {
            let bytes = length < tv28.count ? Array(tv28.prefix(length)) : tv28 + [0]
            #expect(throws: ProtocolError.entryCountMismatch(structure: "Motion-event chunk", declaredEntries: 1,
                                                             expectedBytes: 12, actualBytes: length)) {
                try MotionEventChunk(decoding: bytes)
            }
        }
        #expect(throws: ProtocolError.wrongLength(structure: "Motion-event chunk", expected: "at least 4", actual: 3)) {
            try MotionEventChunk(decoding: [0, 1, 0])
        }
        let ten = try MotionEventChunk(decoding: [0, 1, 10, 0] + Array(repeating: 0x11, count: 80))
        #expect(ten.events.count == 10)
    }

    @Test("TV29: a backpack chunk with one session, and the empty store")
    func backpackChunk() throws {
        let bytes = try hex("00 01 01 00 C0 9E 8E 67 5C 1C 00 00 03 00 00 00")
        let chunk = try BackpackSessionChunk(decoding: bytes)
        #expect(chunk.chunkIndex == 0 && chunk.totalChunks == 1 && chunk.isLast)
        #expect(chunk.sessions.count == 1)
        let session = chunk.sessions[0]
        #expect(utc(session.startTimestamp) == "2025-01-20T19:06:40Z")
        #expect(session.durationSec == 7260)
        #expect(session.timerWakeCount == 3)
        #expect(session.exitReason == .motion)
        #expect(chunk.encoded() == bytes)

        let empty = try hex("00 01 00 00")
        let emptyChunk = try BackpackSessionChunk(decoding: empty)
        #expect(emptyChunk.sessions.isEmpty && emptyChunk.totalChunks == 1)
        #expect(emptyChunk.encoded() == empty)
    }

    @Test("Backpack chunks: more than 5 sessions or a length mismatch are rejected")
    func backpackRejects() throws {
        #expect(throws: ProtocolError.tooManyEntries(structure: "Backpack-session chunk", declared: 6, maximum: 5)) {
            try BackpackSessionChunk(decoding: [0, 1, 6, 0] + Array(repeating: 0, count: 72))
        }
        let tv29 = try hex("00 01 01 00 C0 9E 8E 67 5C 1C 00 00 03 00 00 00")
        #expect(throws: ProtocolError.entryCountMismatch(structure: "Backpack-session chunk", declaredEntries: 1,
                                                         expectedBytes: 16, actualBytes: 15)) {
            try BackpackSessionChunk(decoding: Array(tv29.prefix(15)))
        }
        #expect(throws: ProtocolError.entryCountMismatch(structure: "Backpack-session chunk", declaredEntries: 1,
                                                         expectedBytes: 16, actualBytes: 17)) {
            try BackpackSessionChunk(decoding: tv29 + [0])
        }
        #expect(BackpackExitReason(rawValue: 1) == .stillActive)
        #expect(BackpackExitReason(rawValue: 2) == .powerCycle)
        #expect(BackpackExitReason(rawValue: 3) == .unknown(3))
    }

    @Test("Summary wrong lengths are rejected", arguments: [11, 13])
    func summaryWrongLength(length: Int) {
        #expect(throws: ProtocolError.wrongLength(structure: "Activity Summary", expected: "exactly 12", actual: length)) {
            try ActivitySummary(decoding: Array(repeating: 0, count: length))
        }
    }
}

@Suite("Calibration State (TV30)")
struct CalibrationStateTests {
    @Test("TV30: COMPLETE with both points")
    func complete() throws {
        let bytes = try hex("09 00 A0 86 01 00 8C 95 06 00 00 00")
        let state = try CalibrationState(decoding: bytes)
        #expect(state.phase == .complete && state.phase.isFinal)
        #expect(!state.hasError)
        #expect(state.emptyADC == 100_000)
        #expect(state.fullADC == 431_500)
        let points = try #require(state.completedPoints)
        #expect(abs(points.scale - 399.4) < 0.01)
        #expect(points.scale == Float(331_500) / 830)
        #expect(state.encoded() == bytes)
    }

    @Test("TV30: ERROR with its flag")
    func error() throws {
        let bytes = try hex("0A 01 00 00 00 00 00 00 00 00 00 00")
        let state = try CalibrationState(decoding: bytes)
        #expect(state.phase == .error)
        #expect(state.hasError)
        #expect(state.completedPoints == nil)
        #expect(state.encoded() == bytes)
    }

    @Test("TV30: any length other than 12 is rejected", arguments: [0, 1, 11, 13, 20])
    func wrongLength(length: Int) {
        #expect(throws: ProtocolError.wrongLength(structure: "Calibration State", expected: "exactly 12", actual: length)) {
            try CalibrationState(decoding: Array(repeating: 9, count: length))
        }
    }

    @Test("Phases 0…10 have names; other values are kept raw")
    func phases() {
        let expected: [CalibrationPhase] = [.idle, .triggered, .started, .waitEmpty, .measureEmpty, .confirmEmpty,
                                            .waitFull, .measureFull, .confirmFull, .complete, .error]
        for (raw, phase) in expected.enumerated() {
            #expect(CalibrationPhase(rawValue: UInt8(raw)) == phase)
            #expect(phase.rawValue == UInt8(raw))
        }
        #expect(CalibrationPhase(rawValue: 11) == .unknown(11))
        #expect(CalibrationPhase(rawValue: 255).rawValue == 255)
    }
}

@Suite("Device Information (B17)")
struct DeviceInformationTests {
    @Test("Strings are cut at the first NUL")
    func cleanString() {
        let firmware: [UInt8] = Array("0.1.0".utf8) + [0] + [0xDE, 0xAD, 0xBE, 0xEF, 0, 0x41, 0x42, 0x43, 0x44, 0x45]
        #expect(firmware.count == 16)
        #expect(DeviceInformation.cleanString(firmware) == "0.1.0")
        #expect(DeviceInformation.cleanString(Array("Aquavate".utf8) + [0]) == "Aquavate")
        #expect(DeviceInformation.cleanString(Array("Puck v1.0".utf8)) == "Puck v1.0")
        #expect(DeviceInformation.cleanString([]) == "")
        #expect(DeviceInformation.cleanString([0, 0x41]) == "")
        #expect(DeviceInformation.cleanString([0x41, 0xFF, 0x42]) == "A\u{FFFD}B")
    }

    @Test("Bottle names")
    func names() {
        #expect(DeviceInformation.isBottleName("Aquavate-A3F2"))
        #expect(DeviceInformation.isCanonicalBottleName("Aquavate-A3F2"))
        #expect(DeviceInformation.isBottleName("Aquavate-xyz"))
        #expect(!DeviceInformation.isCanonicalBottleName("Aquavate-a3f2"))
        #expect(!DeviceInformation.isCanonicalBottleName("Aquavate-A3F21"))
        #expect(!DeviceInformation.isBottleName("SomeHeadphones"))
    }
}
