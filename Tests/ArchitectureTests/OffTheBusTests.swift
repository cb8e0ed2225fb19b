// The web and the modules it stands on reach no Bluetooth, D-Bus or systemd module, even through
// another module: checked on the map's closure, which `LayeringTests` holds the imports to and
// `ManifestTests` Package.swift.

import Testing

@Suite struct OffTheBusTests {
    @Test func theWebAndWhatItStandsOnReachNoBusModule() {
        #expect(ModuleMap.offTheBus.contains("Web"))
        for module in ModuleMap.offTheBus.sorted() {
            #expect(ModuleMap.allowed[module] != nil, "\(module) is not on the module map")
            let reached = ModuleMap.reachable(from: module).intersection(ModuleMap.bluetoothDBusSystemd)
            #expect(reached.isEmpty, "\(module) reaches \(reached.sorted()) through the module map")
        }
    }

    /// The closure is checked on a planted map: a module two steps above D-Bus reaches it.
    @Test func aModuleReachesWhatItsImportsReach() {
        let map: [String: Set<String>] = ["Web": ["Bridge", "History"], "Bridge": ["Sinks"], "Sinks": ["DBus"], "DBus": ["CDBus"]]
        #expect(ModuleMap.reachable(from: "Web", in: map) == ["Bridge", "History", "Sinks", "DBus", "CDBus"])
        #expect(ModuleMap.reachable(from: "History", in: map).isEmpty)
    }
}
