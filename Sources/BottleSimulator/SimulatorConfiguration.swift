// Everything a simulator run is set up with: the bottle, the BlueZ configuration it sits behind,
// BlueZ's timings, and the faults.
import AquavateProtocol
import Foundation
import Timekeeping

package struct SimulatorConfiguration: Sendable {
    /// BlueZ's `[GATT] Cache` setting.
    package enum GattCache: String, Sendable, CaseIterable {
        /// `Cache = always` (the default): GATT objects survive a disconnect; only
        /// ServicesResolved goes false and MTU disappears; notify sessions are re-armed.
        case always
        /// `Cache = no`: the GATT objects are removed at every disconnect.
        case no
    }

    /// Who owns the Battery service (0x180F).
    package enum Battery: String, Sendable, CaseIterable {
        /// bluetoothd's battery plugin (5.48–5.79): 0x180F hidden, `org.bluez.Battery1` on the device.
        case plugin
        /// 0x180F exported as an ordinary GATT service.
        case gatt
    }

    /// The bottle's public BLE address (the device path is built from it).
    package var address = "F4:12:FA:00:A3:F4"
    /// The GAP name; nil: `Aquavate-` + the last two bytes of the Wi-Fi MAC.
    package var name: String?
    /// The Wi-Fi station MAC (DIS serial number); nil: the BLE address − 2, as on an ESP32.
    package var wifiMAC: String?
    package var adapterAddress = "00:1A:7D:DA:71:13"
    package var adapterName = "aquavate-hub"
    /// The bottle: water, battery, calibration, timers (its `wifiMAC` is set from the above).
    package var bottle = BottleModel.Configuration()
    /// Drinks in the ring at start, oldest first.
    package var records: [DrinkRecord] = []
    package var faults: [SimulatorFault] = []
    package var gattCache: GattCache = .always
    package var battery: Battery = .plugin

    // BlueZ and radio timings.
    /// From a client's Disconnect() to its reply (BlueZ's DISCONNECT_TIMER, docs/bluez.md 7.8).
    package var disconnectDelay: Duration = .seconds(2)
    /// From Connect() to Connected=true (LE connection set-up).
    package var connectDelay: Duration = .milliseconds(100)
    /// From Connected=true to ServicesResolved=true (MTU exchange and discovery, or the cache).
    package var resolveDelay: Duration = .milliseconds(100)
    /// How long a Connect waits for a sleeping bottle before it fails.
    package var connectTimeout: Duration = .seconds(20)
    /// The bottle's advertising interval (1000 ms, docs/protocol.md 1.2).
    package var advertisingInterval: Duration = .seconds(1)
    /// When the first advertisement is heard after discovery starts.
    package var firstAdvertisementDelay: Duration = .milliseconds(50)
    /// Whether that first advertisement comes exactly then, not at the simulator's next 20 ms tick.
    package var firstAdvertisementOnTime = false
    /// BlueZ drops an unconnected (temporary) device this long after discovery stops.
    package var temporaryTimeout: Duration = .seconds(30)
    /// With `early-resolved`, how long after ServicesResolved the GATT objects appear.
    package var earlyResolvedLag: Duration = .milliseconds(200)
    /// How long the adapter stays off in a `power-cycle-at` fault.
    package var powerCycleOffTime: Duration = .seconds(1)
    package var rssi: Int16 = -58
    /// When set, the bottle is one physical bottle shared with the other simulators given the same
    /// directory (its ring and its single link; see `SharedBottle`).
    package var sharedBottleDirectory: URL?
    /// When set, the bottle's state is written here as JSON on every change.
    package var stateFile: URL?
    /// One line per D-Bus call and per event (the CLI writes them to standard error).
    package var log: (@Sendable (String) -> Void)?

    package init() {}

    /// A bottle holding `records` deterministic unsynced drinks that end just before `now`
    /// (see `RecordSource.generated`), with `faults`.
    package init(records: Int, faults: [SimulatorFault] = [], now: WallInstant = SystemClock().now) {
        self.records = RecordSource.generated(count: records, endingAt: now)
        self.faults = faults
    }

    /// The same configuration with BlueZ's delays cut to a few tens of milliseconds (Disconnect
    /// 150 ms, connection 20 ms, advertising every 100 ms), for tests that drive many connections.
    /// The bottle's own timers (5 s rebuilds) are unchanged.
    package func withTestTimings() -> SimulatorConfiguration {
        var copy = self
        copy.disconnectDelay = .milliseconds(150)
        copy.connectDelay = .milliseconds(20)
        copy.resolveDelay = .milliseconds(20)
        copy.advertisingInterval = .milliseconds(100)
        copy.firstAdvertisementDelay = .milliseconds(10)
        copy.earlyResolvedLag = .milliseconds(150)
        copy.powerCycleOffTime = .milliseconds(200)
        return copy
    }

    /// The same configuration with BlueZ's and the radio's delays cut to about a millisecond
    /// (advertising every 20 ms), so that a benchmark of one-shot syncs compares the clients' own
    /// costs rather than the radio's pacing.
    package func withInstantTimings() -> SimulatorConfiguration {
        var copy = withTestTimings()
        copy.disconnectDelay = .milliseconds(1)
        copy.connectDelay = .milliseconds(1)
        copy.resolveDelay = .milliseconds(1)
        copy.advertisingInterval = .milliseconds(20)
        copy.firstAdvertisementDelay = .milliseconds(1)
        copy.firstAdvertisementOnTime = true
        return copy
    }

    /// The Wi-Fi MAC in use.
    package var effectiveWifiMAC: String { wifiMAC ?? Self.wifiMAC(fromBLE: address) }

    /// The GAP name in use.
    package var effectiveName: String {
        if let name { return name }
        var bottle = self.bottle
        bottle.wifiMAC = effectiveWifiMAC
        return bottle.deviceName
    }

    /// ESP32: BLE address = base MAC + 2, Wi-Fi station MAC = base MAC (docs/protocol.md 1.1).
    static func wifiMAC(fromBLE address: String) -> String {
        let bytes = address.split(separator: ":").compactMap { UInt8($0, radix: 16) }
        guard bytes.count == 6 else { return address }
        var value = bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        value = (value &- 2) & 0xFFFF_FFFF_FFFF
        return (0..<6).reversed().map { shift in
            let byte = UInt8((value >> (8 * UInt64(shift))) & 0xFF)
            let hex = String(byte, radix: 16, uppercase: true)
            return hex.count == 1 ? "0" + hex : hex
        }.joined(separator: ":")
    }

    /// The ring the bottle starts with: `records`, with the odd records of the `odd-record`
    /// faults and those the chaos injector draws mixed among them (`OddRecord.mix`).
    package var ringRecords: [DrinkRecord] {
        var kinds: [OddRecord] = faults.compactMap { fault in
            if case .oddRecord(let kind) = fault { return kind }
            return nil
        }
        for case .chaos(let seed) in faults { kinds += ChaosPlanner.oddRecords(seed: seed) }
        return OddRecord.mix(kinds, into: records)
    }

    /// The model's configuration with the identity and the bottle faults applied.
    var bottleConfiguration: BottleModel.Configuration {
        var bottle = self.bottle
        bottle.wifiMAC = effectiveWifiMAC
        if faults.contains(.unchangedUnsynced) { bottle.staleUnsyncedAfterSync = true }
        return bottle
    }

    /// Throws unless the addresses are `XX:XX:XX:XX:XX:XX`.
    func validate() throws {
        for (what, text) in [("bottle address", address), ("adapter address", adapterAddress)] {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 6, parts.allSatisfy({ $0.count == 2 && UInt8($0, radix: 16) != nil }) else {
                throw SimulatorConfigurationInvalid(reason: "\(what) \"\(text)\" is not of the form F4:12:FA:00:A3:F4")
            }
        }
    }
}

/// A configuration the simulator cannot run with.
package struct SimulatorConfigurationInvalid: Error, CustomStringConvertible {
    package var reason: String
    package var description: String { "invalid simulator configuration: \(reason)" }
}
