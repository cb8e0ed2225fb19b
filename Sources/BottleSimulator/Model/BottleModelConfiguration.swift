// What a simulated bottle starts with, and how fast its timers run.
import AquavateProtocol

extension BottleModel {
    /// The timers of docs/protocol.md 1.4, 3.1.1 and 6.5, in seconds. Tests shorten them.
    public struct Timing: Sendable, Hashable {
        /// Current State rebuild period while calibrated, upright and still (3.1.1).
        public var rebuild: Double = 5
        /// Rebuild period during BLE calibration mode.
        public var calibrationRebuild: Double = 0.5
        /// STARTED lasts this long.
        public var calibrationStarted: Double = 3
        /// How long the simulated user takes to place the bottle empty, then full.
        public var calibrationUserAction: Double = 1
        /// A raw measurement (MEASURE_EMPTY, MEASURE_FULL, CAL_MEASURE_POINT).
        public var calibrationMeasurement: Double = 5
        /// COMPLETE or ERROR is held this long before the silent return to idle.
        public var calibrationFinalHold: Double = 3
        /// The activity timer (30 s in the firmware); nil: the bottle never falls asleep by itself.
        public var activityTimeout: Double? = nil
        /// The activity timer while a drink of this wake is unsynced.
        public var activityTimeoutWithNewDrinks: Double = 240

        public init() {}
    }

    /// How the Device Information strings travel (B17).
    public enum DeviceInformationStyle: String, Sendable, Hashable, CaseIterable {
        /// The plain strings.
        case plain
        /// NimBLE-Arduino 1.4.0: `sizeof(array)` bytes, i.e. a trailing NUL, and for the firmware
        /// revision 10 bytes of stack garbage after "0.1.0\0".
        case nulTerminated = "nul"
    }

    public struct Configuration: Sendable, Hashable {
        /// The Wi-Fi station MAC: the DIS serial number and the source of the name suffix.
        public var wifiMAC: String = "F4:12:FA:00:A3:F2"
        public var manufacturer = "Aquavate"
        public var modelNumber = "Puck v1.0"
        public var firmwareRevision = "0.1.0"
        public var deviceInformationStyle: DeviceInformationStyle = .plain
        /// Water in the bottle at start, ml.
        public var waterML: Double = 500
        public var batteryPercent: UInt8 = 80
        public var goalML: UInt16 = BottleConfig.defaultGoalML
        /// The physical load cell: the empty reading and counts per gram.
        public var sensorEmptyADC: Int32 = 120_000
        public var sensorScale: Float = 412
        /// Whether a calibration exists (matching the sensor) at start.
        public var calibrated = true
        /// Whether the clock has ever been set (TIME_VALID, persisted).
        public var timeValid = true
        /// The USB-only timezone offset added to every timestamp (5.2); 0 normally.
        public var timezoneOffsetHours: Int8 = 0
        public var shakeToEmpty = false
        /// Low-battery lockout threshold; LOW_BATTERY is set below threshold + 5 (3.1).
        public var lowBatteryThreshold: UInt8 = 20
        /// Stored wake events and backpack sessions at start.
        public var motionEvents = 12
        public var backpackSessions = 2
        /// The forced Current State after a sync still reports the old unsynced_count (a fault).
        public var staleUnsyncedAfterSync = false
        /// Every record is unsynced again when the link goes down, so that each connection syncs
        /// the same records: a benchmark fixture that times many one-shot syncs in a row.
        public var unsyncedAgainAfterDisconnect = false
        public var timing = Timing()

        public init() {}

        /// The GAP name the firmware derives from the Wi-Fi MAC: `Aquavate-` + its last two bytes.
        public var deviceName: String {
            let parts = wifiMAC.split(separator: ":")
            guard parts.count == 6 else { return "Aquavate-0000" }
            return "Aquavate-" + parts[4].uppercased() + parts[5].uppercased()
        }
    }
}
