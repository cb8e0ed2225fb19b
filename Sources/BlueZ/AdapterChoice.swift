// Which adapter to use: the one named with `--adapter hciN`, else the first powered adapter that
// can be an LE central (bleak `manager.py:395-413`).

extension BlueZObjects {
    /// The adapter to use.
    /// - Parameter name: `hciN`, or nil for the first powered LE-central adapter.
    /// - Throws: `NoBluetoothAdapter`, `AdapterNotFound`, `AdapterPoweredOff` (docs/bluez.md F14: the
    ///   one place that checks power; the message says how to turn it on), `AdapterNotCentral`.
    package func chooseAdapter(named name: String?) throws -> BlueZAdapter {
        let all = adapters
        guard !all.isEmpty else { throw NoBluetoothAdapter() }
        if let name {
            guard let adapter = all.first(where: { $0.name == name || $0.path.rawValue == name }) else {
                throw AdapterNotFound(name: name, available: all.map(\.name))
            }
            guard adapter.canBeCentral else { throw AdapterNotCentral(name: adapter.name) }
            guard adapter.powered else { throw AdapterPoweredOff(name: adapter.name) }
            return adapter
        }
        let centrals = all.filter(\.canBeCentral)
        guard let first = centrals.first else { throw AdapterNotCentral(name: all[0].name) }
        guard let powered = centrals.first(where: \.powered) else { throw AdapterPoweredOff(name: first.name) }
        return powered
    }
}

extension BlueZClient {
    /// `BlueZObjects.chooseAdapter(named:)` on the cache as it is now.
    package func chooseAdapter(named name: String?) throws -> BlueZAdapter {
        try objects.chooseAdapter(named: name)
    }

    /// Waits (at most `timeout`) until the adapter is powered again (docs/bluez.md F14: an adapter
    /// turned off and on again must not need a restart of the bridge).
    package func waitUntilPowered(_ adapter: BlueZAdapter, timeout: Duration) async throws {
        _ = try await waitUntil("adapter \(adapter.name) to be powered on", timeout: timeout) { objects -> Bool? in
            objects.adapter(adapter.path)?.powered == true ? true : nil
        }
    }
}
