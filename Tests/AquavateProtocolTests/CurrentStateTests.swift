// Current State, docs/protocol.md 3.1, vectors TV1–TV7.

import AquavateProtocol
import Testing

@Suite("Current State (TV1–TV7)")
struct CurrentStateTests {
    @Test("TV1: normal state")
    func normalState() throws {
        let bytes = try hex("B0 E8 90 67 C2 01 C2 01 E2 04 57 07 03 00")
        let state = try CurrentState(decoding: bytes)
        #expect(state.timestamp == 1_737_550_000)
        #expect(utc(state.timestamp) == "2025-01-22T12:46:40Z")
        #expect(state.currentWeightG == 450)
        #expect(state.bottleLevelML == 450)
        #expect(state.dailyTotalML == 1250)
        #expect(state.batteryPercent == 87)
        #expect(state.flags == [.timeValid, .calibrated, .stable])
        #expect(state.flags.rawValue == 0x07)
        #expect(state.flags.names == ["time_valid", "calibrated", "stable"])
        #expect(state.unsyncedCount == 3)
        #expect(state.calibrationADC == nil)
        #expect(!state.isPlaceholder)
        #expect(state.encoded() == bytes)
    }

    @Test("TV2: not yet populated after wake")
    func placeholder() throws {
        let bytes = try hex("00 00 00 00 00 00 00 00 00 00 00 00 00 00")
        let state = try CurrentState(decoding: bytes)
        #expect(state == .placeholder)
        #expect(state.isPlaceholder)
        #expect(state.unsyncedCount == 0)
        #expect(state.flags.isEmpty && state.flags.names.isEmpty)
        #expect(state.calibrationADC == nil)
        #expect(state.encoded() == bytes)
        #expect(CurrentState.placeholder.encoded() == bytes)
    }

    @Test("TV3: calibration result, negative raw ADC")
    func calibrationNegative() throws {
        let bytes = try hex("B5 E8 90 67 C0 1D FE FF E2 04 57 12 00 00")
        let state = try CurrentState(decoding: bytes)
        #expect(state.timestamp == 1_737_550_005)
        #expect(state.flags == [.calibrated, .calResultReady])
        #expect(state.flags.names == ["calibrated", "cal_result_ready"])
        #expect(state.calibrationADC == -123_456)
        #expect(state.currentWeightG == 7616)
        #expect(state.bottleLevelML == 65534)
        #expect(state.dailyTotalML == 1250)
        #expect(state.batteryPercent == 87)
        #expect(state.unsyncedCount == 0)
        #expect(state.encoded() == bytes)
    }

    @Test("TV4: calibration result whose low half is >= 0x8000")
    func calibrationLowHalfHigh() throws {
        let bytes = try hex("B6 E8 90 67 00 80 80 00 00 00 64 13 00 00")
        let state = try CurrentState(decoding: bytes)
        #expect(state.timestamp == 1_737_550_006)
        #expect(state.flags.rawValue == 0x13)
        #expect(state.flags == [.timeValid, .calibrated, .calResultReady])
        #expect(state.currentWeightG == -32768)
        #expect(state.calibrationADC == 8_421_376)
        #expect(state.batteryPercent == 100)
        #expect(state.encoded() == bytes)
    }

    @Test("TV5: low battery, negative weight")
    func lowBattery() throws {
        let bytes = try hex("B0 E8 90 67 F4 FF 00 00 00 00 16 27 00 00")
        let state = try CurrentState(decoding: bytes)
        #expect(state.currentWeightG == -12)
        #expect(state.bottleLevelML == 0)
        #expect(state.dailyTotalML == 0)
        #expect(state.batteryPercent == 22)
        #expect(state.flags.rawValue == 0x27)
        #expect(state.flags == [.timeValid, .calibrated, .stable, .lowBattery])
        #expect(state.flags.names == ["time_valid", "calibrated", "stable", "low_battery"])
        #expect(state.calibrationADC == nil)
        #expect(state.encoded() == bytes)
    }

    @Test("TV6: all maxima")
    func maxima() throws {
        let bytes = try hex("FF FF FF FF FF 7F 3E 03 FF FF 64 3F FF FF")
        let state = try CurrentState(decoding: bytes)
        #expect(state.timestamp == 4_294_967_295)
        #expect(utc(state.timestamp) == "2106-02-07T06:28:15Z")
        #expect(state.flags.rawValue == 0x3F)
        #expect(state.flags.names == ["time_valid", "calibrated", "stable", "cal_measuring", "cal_result_ready",
                                      "low_battery"])
        #expect(state.calibrationADC == 54_427_647)
        #expect(state.dailyTotalML == 65535)
        #expect(state.batteryPercent == 100)
        #expect(state.unsyncedCount == 65535)
        #expect(state.encoded() == bytes)
    }

    @Test("TV7: 13 bytes rejected with a clear error")
    func truncated() throws {
        let bytes = try hex("B0 E8 90 67 C2 01 C2 01 E2 04 57 07 03")
        let error = #expect(throws: ProtocolError.self) { try CurrentState(decoding: bytes) }
        #expect(error == .wrongLength(structure: "Current State", expected: "exactly 14", actual: 13))
        #expect(error?.description == "Current State must be exactly 14 bytes, got 13")
    }

    @Test("TV7: 15 and more bytes rejected too", arguments: [15, 16, 20, 244])
    func tooLong(length: Int) throws {
        let bytes = try hex("B0 E8 90 67 C2 01 C2 01 E2 04 57 07 03 00") + Array(repeating: 0, count: length - 14)
        #expect(throws: ProtocolError.wrongLength(structure: "Current State", expected: "exactly 14", actual: length)) {
            try CurrentState(decoding: bytes)
        }
    }

    @Test("The overlay can be rebuilt from an ADC value (TV3, TV4)")
    func rebuildOverlay() throws {
        let tv3 = try CurrentState(decoding: hex("B5 E8 90 67 C0 1D FE FF E2 04 57 12 00 00"))
        var base = tv3
        base.flags = [.calibrated]
        base.currentWeightG = 0
        base.bottleLevelML = 0
        #expect(base.withCalibrationADC(-123_456) == tv3)
        #expect(base.withCalibrationADC(8_421_376).calibrationADC == 8_421_376)
        #expect(base.withCalibrationADC(.min).calibrationADC == .min)
    }

    @Test("Reserved flag bits survive and are named")
    func reservedBits() throws {
        let bytes = try hex("B0 E8 90 67 C2 01 C2 01 E2 04 57 C1 03 00")
        let state = try CurrentState(decoding: bytes)
        #expect(state.flags.names == ["time_valid", "reserved_0x40", "reserved_0x80"])
        #expect(state.encoded() == bytes)
    }
}
