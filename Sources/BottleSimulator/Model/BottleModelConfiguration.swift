// What a simulated bottle starts with, and how fast its timers run.
import AquavateProtocol

extension BottleModel {
    /// The timers of docs/protocol.md 1.4, 3.1.1 and 6.5, in seconds. Tests shorten them.
    package struct Timing: Sendable, Hashable {
        /// Current State rebuild period while calibrated, upright and still (3.1.1).
        package var rebuild: Double = 5
        /// Rebuild period during BLE calibration mode.
        package var calibrationRebuild: Double = 0.5
        /// STARTED lasts this long.
        package var calibrationStarted: Double = 3
        /// How long the simulated user takes to place the bottle empty, then full.
        package var calibrationUserAction: Double = 1
        /// A raw measurement (MEASURE_EMPTY, MEASURE_FULL, CAL_MEASURE_POINT).
        package var calibrationMeasurement: Double = 5
        /// COMPLETE or ERROR is held this long before the silent return to idle.
        package var calibrationFinalHold: Double = 3
        /// The activity timer (30 s in the firmware); nil: the bottle never falls asleep by itself.
        package var activityTimeout: Double? = nil
        /// The activity timer while a drink of this wake is unsynced.
        package var activityTimeoutWithNewDrinks: Double = 240

        package init() {}
    }

    /// How the Device Information strings travel (B17).
    package enum DeviceInformationStyle: String, Sendable, Hashable, CaseIterable {
        /// The plain strings.
        case plain
        /// NimBLE-Arduino 1.4.0: `sizeof(array)` bytes, i.e. a trailing NUL, and for the firmware
        /// revision 10 bytes of stack garbage after "0.1.0\0".
        case nulTerminated = "nul"
    }

    package struct Configuration: Sendable, Hashable {
        /// The Wi-Fi station MAC: the DIS serial number and the source of the name suffix.
        package var wifiMAC: String = "F4:12:FA:00:A3:F2"
        package var manufacturer = "Aquavate"
        package var modelNumber = "Puck v1.0"
        package var firmwareRevision = "0.1.0"
        package var deviceInformationStyle: DeviceInformationStyle = .plain
        /// Water in the bottle at start, ml.
        package var waterML: Double = 500
        package var batteryPercent: UInt8 = 80
        package var goalML: UInt16 = BottleConfig.defaultGoalML
        /// The physical load cell: the empty reading and counts per gram.
        package var sensorEmptyADC: Int32 = 120_000
        package var sensorScale: Float = 412
        /// Whether a calibration exists (matching the sensor) at start.
        package var calibrated = true
        /// Whether the clock has ever been set (TIME_VALID, persisted).
        package var timeValid = true
        /// The USB-only timezone offset added to every timestamp (5.2); 0 normally.
        package var timezoneOffsetHours: Int8 = 0
        package var shakeToEmpty = false
        /// Low-battery lockout threshold; LOW_BATTERY is set below threshold + 5 (3.1).
        package var lowBatteryThreshold: UInt8 = 20
        /// Stored wake events and backpack sessions at start.
        package var motionEvents = 12
        package var backpackSessions = 2
        /// The forced Current State after a sync still reports the old unsynced_count (a fault).
        package var staleUnsyncedAfterSync = false
        /// Every record is unsynced again when the link goes down, so that each connection syncs
        /// the same records: a benchmark fixture that times many one-shot syncs in a row.
        package var unsyncedAgainAfterDisconnect = false
        package var timing = Timing()

        package init() {}

        /// The GAP name the firmware derives from the Wi-Fi MAC: `Aquavate-` + its last two bytes.
        package var deviceName: String {
            let parts = wifiMAC.split(separator: ":")
            guard parts.count == 6 else { return "Aquavate-0000" }
            return "Aquavate-" + parts[4].uppercased() + parts[5].uppercased()
        }
    }
}
