// The load cell and the bottle-driven calibration (docs/protocol.md 3.9, 6.5 A).
//
// Two calibrations exist, as in the firmware: the one the running weight calculation uses (RAM)
// and the one saved in NVS. Bottle Config writes and CAL_SET_DATA change only NVS, so their effect
// shows at the next wake (B7, B8); TARE and the on-bottle calibration change both.
import AquavateProtocol

/// A load-cell calibration: the empty-bottle reading and counts per gram.
package struct LoadCellCalibration: Sendable, Hashable, Codable {
    package var emptyADC: Int32
    package var scale: Float

    package init(emptyADC: Int32, scale: Float) {
        self.emptyADC = emptyADC
        self.scale = scale
    }

    /// The full-bottle reading: empty + trunc(830 × scale).
    package var fullADC: Int32 {
        emptyADC &+ Int32(firmwareTruncating: Float(BottleConfig.fixedCapacityML) * scale)
    }

    /// What the firmware accepts when it loads a calibration at wake: scale within 100…800 (B7).
    package var isAcceptedAtWake: Bool { BottleConfig.writableScaleRange.contains(scale) }

    /// Grams above empty for a raw reading, truncated toward zero.
    func grams(raw: Int32) -> Double {
        guard scale > 0 else { return 0 }
        return (Double(raw) - Double(emptyADC)) / Double(scale)
    }
}

/// The bottle-driven calibration run started by START_CALIBRATION (0x20): a timed walk through
/// TRIGGERED, STARTED, WAIT_EMPTY, MEASURE_EMPTY, WAIT_FULL, MEASURE_FULL and COMPLETE, with the
/// simulated user placing the bottle empty and then full after `userAction` seconds each.
struct CalibrationRun: Sendable, Hashable {
    var phase: CalibrationPhase
    /// When the current phase ends (clock seconds).
    var phaseEnds: Double
    var measuredEmpty: Int32 = 0

    /// The phase after `phase` and how long it lasts; nil after COMPLETE's silent return to idle.
    static func next(after phase: CalibrationPhase, timing: BottleModel.Timing) -> (CalibrationPhase, Double)? {
        switch phase {
        case .triggered: return (.started, timing.calibrationStarted)
        case .started: return (.waitEmpty, timing.calibrationUserAction)
        case .waitEmpty: return (.measureEmpty, timing.calibrationMeasurement)
        case .measureEmpty: return (.waitFull, timing.calibrationUserAction)
        case .waitFull: return (.measureFull, timing.calibrationMeasurement)
        case .measureFull: return (.complete, timing.calibrationFinalHold)
        default: return nil
        }
    }
}
