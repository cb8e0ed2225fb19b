// One device as a connect attempt sees it: the cache at the start plus every change after, in
// order. Keeping our own view (instead of reading the shared cache) is what lets the state
// machine tell "Connected went false after it was true" from "the cache has not caught up yet".

import DBus

struct DeviceView {
    let path: DBusObjectPath
    private(set) var exists: Bool
    private(set) var connected: Bool
    private(set) var servicesResolved: Bool
    /// `Connected=true` was seen (at the start or since): a later false is a real drop.
    private(set) var sawConnected: Bool
    private(set) var serviceLost = false

    init(path: DBusObjectPath, initial: BlueZObjects) {
        self.path = path
        let device = initial.device(path)
        exists = device != nil
        connected = device?.connected ?? false
        servicesResolved = device?.servicesResolved ?? false
        sawConnected = connected
    }

    /// Applies a change; returns true when it concerned this device.
    @discardableResult
    mutating func apply(_ change: BlueZChange) -> Bool {
        switch change {
        case .interfacesAdded(let added, let interfaces) where added == path:
            if let properties = interfaces[BlueZNames.deviceInterface] {
                exists = true
                update(properties)
            }
            return true
        case .interfacesRemoved(let removed, let names) where removed == path:
            // docs/bluez.md 7.3: the object can vanish with no Connected=false before it.
            if names.contains(BlueZNames.deviceInterface) {
                exists = false
                connected = false
                servicesResolved = false
            }
            return true
        case .propertiesChanged(let changed, BlueZNames.deviceInterface, let properties, let invalidated) where changed == path:
            update(properties)
            if invalidated.contains("ServicesResolved") { servicesResolved = false }
            return true
        case .serviceLost:
            serviceLost = true
            exists = false
            connected = false
            servicesResolved = false
            return true
        default:
            return false
        }
    }

    private mutating func update(_ properties: [String: DBusValue]) {
        if let value = properties["Connected"]?.bool {
            connected = value
            if value { sawConnected = true }
        }
        if let value = properties["ServicesResolved"]?.bool { servicesResolved = value }
    }

    /// Forgets that Connected was seen (a new attempt begins).
    mutating func beginAttempt() {
        sawConnected = connected
    }
}
