// Finding bottles: discovery filtered on the Aquavate service UUID, then the name check
// `Aquavate-` (docs/protocol.md 1.2, 7.2.1), and noticing when a known device advertises again.

import AquavateProtocol
import DBus
import Locking
import Timekeeping

/// Which devices are bottles.
package struct BottleFilter: Sendable, Equatable {
    package var serviceUUID: String
    package var namePrefix: String

    package init(serviceUUID: String = AquavateUUID.service, namePrefix: String = "Aquavate-") {
        self.serviceUUID = serviceUUID.lowercased()
        self.namePrefix = namePrefix
    }

    /// The name must start with `Aquavate-`; the advertised UUIDs, when BlueZ has them, must
    /// include the Aquavate service (a device whose scan response was merged before its
    /// advertisement may not list them yet).
    package func matches(_ device: BlueZDevice) -> Bool {
        guard let name = device.name ?? device.alias, name.hasPrefix(namePrefix) else { return false }
        return device.uuids.isEmpty || device.uuids.contains(serviceUUID)
    }
}

/// A bottle seen advertising.
package struct Sighting: Sendable, Equatable {
    package var device: DBusObjectPath
    package var address: String
    package var name: String
    package var rssi: Int?
    /// Found already connected (a link left by an earlier run, F4), not advertising.
    package var wasConnected = false

    package init(_ device: BlueZDevice) {
        self.device = device.path
        self.address = device.address
        self.name = device.displayName ?? device.address
        self.rssi = device.rssi
    }
}

/// One discovery on one adapter.
package final class Discovery: Sendable {
    package let client: BlueZClient
    package let adapter: BlueZAdapter
    package let filter: BottleFilter

    package init(client: BlueZClient, adapter: BlueZAdapter, filter: BottleFilter = BottleFilter()) {
        self.client = client
        self.adapter = adapter
        self.filter = filter
    }

    /// `SetDiscoveryFilter {UUIDs, Transport "le", DuplicateData false}`, then `StartDiscovery`
    /// (bleak `manager.py:415-528`).
    /// - Throws: `AdapterPoweredOff` when BlueZ says NotReady (F14), else the BlueZ error.
    package func start() async throws {
        let discoveryFilter: DBusValue = .variantDictionary([
            "UUIDs": .strings([filter.serviceUUID]),
            "Transport": .string("le"),
            "DuplicateData": .bool(false),
        ])
        do {
            _ = try await client.call(adapter.path, BlueZNames.adapterInterface, "SetDiscoveryFilter", [discoveryFilter])
            _ = try await client.call(adapter.path, BlueZNames.adapterInterface, "StartDiscovery")
        } catch let failure as DBusFailure where failure.name == BlueZNames.Error.notReady {
            throw AdapterPoweredOff(name: adapter.name)
        } catch let failure as DBusFailure where failure.meansObjectGone {
            throw AdapterNotFound(name: adapter.name, available: client.objects.adapters.map(\.name))
        }
    }

    /// `StopDiscovery`, then the filter reset to `{}`. BlueZ answers NotReady when the adapter
    /// went down meanwhile, and Failed when no discovery of ours runs; both mean "stopped"
    /// (docs/bluez.md F17: bleak ignores NotReady), so nothing here throws.
    package func stop() async {
        do {
            _ = try await client.call(adapter.path, BlueZNames.adapterInterface, "StopDiscovery", timeout: .seconds(5))
        } catch {
            // F17: NotReady (and "No discovery started") — already stopped.
        }
        _ = try? await client.call(
            adapter.path, BlueZNames.adapterInterface, "SetDiscoveryFilter", [.variantDictionary([:])], timeout: .seconds(5))
    }

    /// Sightings of bottles from now on. Create it BEFORE `start()` so nothing is missed.
    package func sightings() -> Sightings {
        Sightings(watch: client.watch(), client: client, adapter: adapter.path, filter: filter)
    }
}

/// Bottles as they advertise: a device object that appears, or a known device whose `RSSI`
/// (or name) BlueZ sets again — BlueZ reports a known device only through a property change,
/// and drops `RSSI` when discovery stops, so a new discovery notices it (docs/bluez.md 7.5).
package final class Sightings: Sendable {
    private let watch: ChangeWatch
    private let client: BlueZClient
    private let adapter: DBusObjectPath
    private let filter: BottleFilter
    private let pending: EventQueue<Sighting>

    init(watch: ChangeWatch, client: BlueZClient, adapter: DBusObjectPath, filter: BottleFilter) {
        self.watch = watch
        self.client = client
        self.adapter = adapter
        self.filter = filter
        self.pending = EventQueue(timer: client.clock)
        // Devices already advertising (RSSI present means discovery sees them now).
        for device in watch.initial.devices(on: adapter) where device.rssi != nil && filter.matches(device) {
            pending.push(Sighting(device))
        }
    }

    /// Why no more sightings can come (nil while discovery can still see bottles).
    package var ended: DiscoveryEnded? { endReason.withLock { $0 } }
    private let endReason = Locked<DiscoveryEnded?>(nil)

    /// The next sighting, waiting at most `timeout` (nil: no limit); nil when time ran out, the
    /// task was cancelled, or discovery ended (`ended` says why).
    package func next(within timeout: Duration?) async -> Sighting? {
        if let ready = pending.nextIfAvailable() { return ready }
        let deadline = timeout.map { client.clock.deadline(after: $0) }
        // Progress: each pass awaits one change; an ended watch, the deadline or the end of
        // discovery returns.
        while ended == nil {
            let remaining = deadline.map { client.clock.timeLeft(until: $0) }
            if let remaining, remaining <= .zero { return nil }
            guard case .element(let change) = await watch.changes.next(within: remaining) else { return nil }
            if let sighting = sighting(for: change) { return sighting }
            if let end = end(for: change) { endReason.withLock { $0 = end } }
        }
        return nil
    }

    /// Discovery stops for good when bluetoothd leaves or the adapter goes away or off.
    private func end(for change: BlueZChange) -> DiscoveryEnded? {
        switch change {
        case .serviceLost:
            return .serviceLost
        case .interfacesRemoved(let path, let names) where path == adapter && names.contains(BlueZNames.adapterInterface):
            return .adapterRemoved
        case .propertiesChanged(let path, BlueZNames.adapterInterface, let changed, _) where path == adapter:
            return changed["Powered"]?.bool == false ? .adapterPoweredOff : nil
        default:
            return nil
        }
    }

    /// Stops watching.
    package func cancel() {
        watch.cancel()
    }

    private func sighting(for change: BlueZChange) -> Sighting? {
        let path: DBusObjectPath
        switch change {
        case .interfacesAdded(let added, let interfaces) where interfaces[BlueZNames.deviceInterface] != nil:
            path = added
        case .propertiesChanged(let changedPath, BlueZNames.deviceInterface, let changed, _)
        where changed["RSSI"] != nil || changed["Name"] != nil || changed["UUIDs"] != nil:
            path = changedPath
        default:
            return nil
        }
        guard adapter.isAncestor(of: path), let device = client.objects.device(path),
              device.rssi != nil, filter.matches(device) else { return nil }
        return Sighting(device)
    }
}

/// Why a discovery can see no more bottles.
package enum DiscoveryEnded: Sendable, Equatable, Error, CustomStringConvertible {
    case serviceLost
    case adapterRemoved
    case adapterPoweredOff

    package var description: String {
        switch self {
        case .serviceLost: "bluetoothd left the bus during discovery; waiting for it to come back"
        case .adapterRemoved: "the Bluetooth adapter was removed during discovery"
        case .adapterPoweredOff: "the Bluetooth adapter was powered off during discovery"
        }
    }
}
