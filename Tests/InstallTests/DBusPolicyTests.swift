// dbus/aquavate-bridge.conf on a bus configured like the system bus (PolicyBus): a member of the
// bluetooth group may call exactly the methods the bridge calls on org.bluez and hears its signals; a user
// outside the group gets AccessDenied (docs/bluez.md F20); nothing beyond that is granted.
//
// Needs root: it creates throw-away users (unique names, deleted afterwards) and runs dbus-send,
// gdbus and the bridge as them with setpriv. CI runs the tests as root.
import BusTestSupport
import DBus
import Foundation
import ProcessSupport
import Testing

private let policyFile = repositoryFile("dbus/aquavate-bridge.conf")
private let accessDenied = "org.freedesktop.DBus.Error.AccessDenied"

private func expectAllowed(_ result: ToolResult, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(result.status == 0 && result.output.contains("method return"), "\(what) should be allowed: \(result)",
            sourceLocation: sourceLocation)
}

/// Passed the policy: whatever the fake bluetoothd answers (it does not implement every method),
/// the bus did not refuse it.
private func expectNotDenied(_ result: ToolResult, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(!result.error.contains(accessDenied), "\(what) should pass the policy: \(result)", sourceLocation: sourceLocation)
}

/// Every BlueZ method the bridge calls (Sources/BlueZ: Discovery, Connector, GATTConnection,
/// BlueZClient). The policy looks at interface and member only, so no arguments are needed: the
/// fake bluetoothd answers UnknownMethod or InvalidArgs, never AccessDenied. The policy grants
/// exactly these.
private let bridgeCalls: [(path: String, method: String, arguments: [String])] = [
    ("/org/bluez/hci0", "org.bluez.Adapter1.StartDiscovery", []),
    ("/org/bluez/hci0", "org.bluez.Adapter1.StopDiscovery", []),
    ("/org/bluez/hci0", "org.bluez.Adapter1.SetDiscoveryFilter", []),
    ("/org/bluez/hci0", "org.bluez.Adapter1.RemoveDevice", ["objpath:/org/bluez/hci0/dev_F4_12_FA_00_A3_F4"]),
    ("/org/bluez/hci0/dev_F4_12_FA_00_A3_F4", "org.bluez.Device1.Connect", []),
    ("/org/bluez/hci0/dev_F4_12_FA_00_A3_F4", "org.bluez.Device1.Disconnect", []),
    ("/org/bluez/hci0/dev_F4_12_FA_00_A3_F4/service0001/char0002", "org.bluez.GattCharacteristic1.ReadValue", []),
    ("/org/bluez/hci0/dev_F4_12_FA_00_A3_F4/service0001/char0002", "org.bluez.GattCharacteristic1.WriteValue",
     ["array:byte:1"]),
    ("/org/bluez/hci0/dev_F4_12_FA_00_A3_F4/service0001/char0002", "org.bluez.GattCharacteristic1.StartNotify", []),
    ("/org/bluez/hci0", "org.freedesktop.DBus.Properties.Get", ["string:org.bluez.Adapter1", "string:Powered"]),
    ("/", "org.freedesktop.DBus.ObjectManager.GetManagedObjects", []),
]

/// Methods of the same interfaces (and others) the bridge never calls: refused, so the bridge's
/// user can do no more on BlueZ than the bridge does (pair, power the adapter off, ...).
private let notCalled: [(path: String, method: String, arguments: [String])] = [
    ("/org/bluez/hci0/dev_F4_12_FA_00_A3_F4", "org.bluez.Device1.Pair", []),
    ("/org/bluez/hci0/dev_F4_12_FA_00_A3_F4", "org.bluez.Device1.CancelPairing", []),
    ("/org/bluez/hci0", "org.freedesktop.DBus.Properties.Set", ["string:org.bluez.Adapter1", "string:Powered", "variant:boolean:false"]),
    ("/org/bluez/hci0", "org.freedesktop.DBus.Properties.GetAll", ["string:org.bluez.Adapter1"]),
    ("/", "org.freedesktop.DBus.Introspectable.Introspect", []),
    ("/org/bluez/hci0/dev_F4_12_FA_00_A3_F4/service0001/char0002/desc0003", "org.bluez.GattDescriptor1.ReadValue", []),
    ("/org/bluez/hci0/dev_F4_12_FA_00_A3_F4/service0001/char0002", "org.bluez.GattCharacteristic1.AcquireWrite", []),
    ("/org/bluez/hci0/dev_F4_12_FA_00_A3_F4/service0001/char0002", "org.bluez.GattCharacteristic1.StopNotify", []),
]

private func expectDenied(_ result: ToolResult, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(result.status != 0 && result.error.contains(accessDenied), "\(what) should be AccessDenied: \(result)",
            sourceLocation: sourceLocation)
}

/// Creates `users` (name → extra groups), runs `body`, deletes the users whatever happens.
private func withUsers<T>(_ users: [(String, [String])], _ body: () async throws -> T) async throws -> T {
    try requireRoot("the D-Bus policy test")
    try await SystemAccounts.ensureBluetoothGroup()
    func deleteUsers() async { for (name, _) in users { await SystemAccounts.deleteUser(name) } }
    do {
        for (name, groups) in users { try await SystemAccounts.createUser(name, groups: groups) }
        let value = try await body()
        await deleteUsers()
        return value
    } catch {
        await deleteUsers()
        throw error
    }
}

/// Starts the policy bus and the fake bluetoothd, runs `body`, stops both.
private func withPolicyBus<T>(_ body: (PolicyBus, FakeBlueZ) async throws -> T) async throws -> T {
    let bus = try await PolicyBus.start(policyFile: policyFile)
    defer { bus.stop() }
    let bluez = try await FakeBlueZ(address: bus.address)
    defer { Task { await bluez.connection.close() } }
    return try await body(bus, bluez)
}

@Suite("D-Bus policy")
struct DBusPolicyTests {
    @Test("the system bus's own default policy (without ours) denies the group: the test bus is strict")
    func withoutThePolicyTheGroupIsDenied() async throws {
        let member = SystemAccounts.uniqueName("m")
        try await withUsers([(member, ["bluetooth"])]) {
            let empty = try ScratchFolder("no-policy")
            defer { empty.remove() }
            let noPolicy = try empty.write("<busconfig/>\n", to: "empty.conf")
            let bus = try await PolicyBus.start(policyFile: noPolicy)
            defer { bus.stop() }
            let bluez = try await FakeBlueZ(address: bus.address)
            defer { Task { await bluez.connection.close() } }
            expectDenied(try await bus.send(as: member, path: "/", "org.freedesktop.DBus.Introspectable.Introspect"),
                         "Introspect without our policy")
            // Root (bluez's own policy) is allowed: the daemon and the fake answer at all.
            let root = try await runTool("/usr/bin/dbus-send", ["--system", "--print-reply", "--dest=org.bluez", "/",
                                                                "org.freedesktop.DBus.Introspectable.Introspect"],
                                         environment: bus.environment)
            expectAllowed(root, "Introspect as root")
        }
    }

    @Test("a bluetooth group member may call what the bridge calls (Adapter1, Properties.Get, GetManagedObjects); an outsider may not")
    func groupMemberAllowedOutsiderDenied() async throws {
        let member = SystemAccounts.uniqueName("m"), outsider = SystemAccounts.uniqueName("o")
        try await withUsers([(member, ["bluetooth"]), (outsider, [])]) {
            try await withPolicyBus { bus, bluez in
                #expect(!bus.log.contains("Unknown group"), "\(bus.log)")
                let adapter = FakeBlueZ.adapter.rawValue
                for user in [member, outsider] {
                    let results = [
                        ("GetManagedObjects", try await bus.send(as: user, path: "/", "org.freedesktop.DBus.ObjectManager.GetManagedObjects")),
                        ("Properties.Get", try await bus.send(as: user, path: adapter, "org.freedesktop.DBus.Properties.Get",
                                                              ["string:org.bluez.Adapter1", "string:Powered"])),
                        ("StartDiscovery", try await bus.send(as: user, path: adapter, "org.bluez.Adapter1.StartDiscovery")),
                    ]
                    for (what, result) in results {
                        if user == member { expectAllowed(result, "\(what) by a group member") }
                        else { expectDenied(result, "\(what) by a user outside the group") }
                    }
                }
                #expect(bluez.startDiscoveryCount == 1, "only the member's StartDiscovery reaches bluetoothd")
            }
        }
    }

    @Test("exactly the bridge's methods pass the policy: Pair, Properties.Set, Introspect and the rest are refused")
    func exactlyTheBridgesMethods() async throws {
        let member = SystemAccounts.uniqueName("m")
        try await withUsers([(member, ["bluetooth"])]) {
            try await withPolicyBus { bus, _ in
                for call in bridgeCalls {
                    expectNotDenied(try await bus.send(as: member, path: call.path, call.method, call.arguments), call.method)
                }
                for call in notCalled {
                    expectDenied(try await bus.send(as: member, path: call.path, call.method, call.arguments), call.method)
                }
            }
        }
    }

    @Test("nothing else is granted: no other BlueZ interface, no other destination, no name to own")
    func nothingElseGranted() async throws {
        let member = SystemAccounts.uniqueName("m")
        try await withUsers([(member, ["bluetooth"])]) {
            try await withPolicyBus { bus, bluez in
                expectDenied(try await bus.send(as: member, path: "/org/bluez", "org.bluez.AgentManager1.RegisterAgent",
                                                ["objpath:/agent", "string:NoInputNoOutput"]), "AgentManager1")
                #expect(bluez.registerAgentCount == 0)
                // Another service on the bus, owned by root: still denied by the default policy.
                let other = try await BusConnection.connect(.address(bus.address))
                defer { Task { await other.close() } }
                #expect(try await other.requestName("org.example.Other") == .primaryOwner)
                expectDenied(try await bus.send(as: member, destination: "org.example.Other", path: "/",
                                                "org.freedesktop.DBus.Introspectable.Introspect"), "another destination")
                // Owning org.bluez (impersonating bluetoothd) stays denied.
                let own = try await bus.send(as: member, destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                             "org.freedesktop.DBus.RequestName", ["string:org.bluez", "uint32:4"])
                expectDenied(own, "RequestName org.bluez")
            }
        }
    }

    @Test("a group member receives org.bluez's PropertiesChanged signals (gdbus monitor as that user)")
    func groupMemberReceivesSignals() async throws {
        let member = SystemAccounts.uniqueName("m")
        try await withUsers([(member, ["bluetooth"])]) {
            try await withPolicyBus { bus, bluez in
                let log = bus.folder.file("monitor.log")
                _ = FileManager.default.createFile(atPath: log, contents: nil)
                let output = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
                let monitor = try ChildProcess.spawn(
                    "/usr/bin/setpriv", SystemAccounts.asUser(member) + ["/usr/bin/gdbus", "monitor", "--system", "--dest", "org.bluez"],
                    environment: bus.environment, output: output, error: output)
                defer { monitor.killNow() }
                // The monitor subscribes on its own schedule: announce until it has heard one.
                let announcements = CallCounter()
                try await waitUntil(.seconds(20), "gdbus monitor to print a PropertiesChanged from org.bluez") {
                    try bluez.announcePowered(announcements.increment() % 2 == 0)
                    let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                    return text.contains("/org/bluez/hci0: org.freedesktop.DBus.Properties.PropertiesChanged ('org.bluez.Adapter1'")
                }
            }
        }
    }

    @Test("a policy read before its user existed denies that user until the bus reloads, which postinst's own command does")
    func postinstReloadAdmitsAUserMadeAfterThePolicyWasRead() async throws {
        try requireRoot("the D-Bus policy test")
        // The package's order: dpkg unpacks the policy (dbus-daemon reads it, the user unknown),
        // then postinst makes the user. A fresh name stands for aquavate, which may exist here.
        let late = SystemAccounts.uniqueName("l")
        let scratch = try ScratchFolder("late-user")
        defer { scratch.remove() }
        let policy = try scratch.write(try String(contentsOfFile: policyFile, encoding: .utf8)
            .replacingOccurrences(of: "user=\"aquavate\"", with: "user=\"\(late)\""), to: "aquavate-bridge.conf")
        // postinst's reload, as written there (continuation lines joined).
        let postinst = try String(contentsOfFile: repositoryFile("packaging/debian/postinst"), encoding: .utf8)
            .replacingOccurrences(of: "\\\n", with: " ")
        let reload = try #require(postinst.split(separator: "\n").first { $0.contains("ReloadConfig") }?
            .trimmingCharacters(in: .whitespaces).replacingOccurrences(of: " || true", with: ""))
        let bus = try await PolicyBus.start(policyFile: policy)
        defer { bus.stop() }
        let bluez = try await FakeBlueZ(address: bus.address)
        defer { Task { await bluez.connection.close() } }
        try await withUsers([(late, [])]) {
            expectDenied(try await bus.send(as: late, path: "/", "org.freedesktop.DBus.ObjectManager.GetManagedObjects"),
                         "GetManagedObjects by a user made after the policy was read")
            let reloaded = try await runTool("/bin/sh", ["-c", reload], environment: bus.environment)
            #expect(reloaded.status == 0, "\(reload): \(reloaded)")
            expectAllowed(try await bus.send(as: late, path: "/", "org.freedesktop.DBus.ObjectManager.GetManagedObjects"),
                          "GetManagedObjects by that user after postinst's reload")
        }
    }

    @Test("the service's user aquavate is allowed by name, even outside the bluetooth group")
    func serviceUserAllowedByName() async throws {
        try requireRoot("the D-Bus policy test")
        let created = !SystemAccounts.userExists("aquavate")
        try await withUsers(created ? [("aquavate", [])] : []) {
            try await withPolicyBus { bus, _ in
                expectAllowed(try await bus.send(as: "aquavate", path: "/", "org.freedesktop.DBus.ObjectManager.GetManagedObjects"),
                              "GetManagedObjects by aquavate")
                expectDenied(try await bus.send(as: "aquavate", path: "/org/bluez/hci0/dev_F4_12_FA_00_A3_F4", "org.bluez.Device1.Pair"),
                             "Pair by aquavate")
                expectDenied(try await bus.send(as: "aquavate", path: "/org/bluez", "org.bluez.AgentManager1.RegisterAgent",
                                                ["objpath:/agent", "string:NoInputNoOutput"]), "AgentManager1 by aquavate")
            }
        }
    }

    @Test("doctor, run as each user, says whether this user may call org.bluez and names the fix")
    func doctorNamesThePermission() async throws {
        let member = SystemAccounts.uniqueName("m"), outsider = SystemAccounts.uniqueName("o")
        try await withUsers([(member, ["bluetooth"]), (outsider, [])]) {
            try await withPolicyBus { bus, bluez in
                // A database only root may write: the doctor must say so for an ordinary user.
                let database = try bus.folder.write("", to: "root-only.sqlite")
                chmod(database, 0o644)
                let allowed = try await bus.run(as: member, [bridgeBinary, "doctor", "--db", database, "--timeout", "10"])
                #expect(allowed.status == 1, "\(allowed)")
                #expect(allowed.lines.contains("ok    D-Bus permission: user \(member) may call org.bluez"), "\(allowed)")
                #expect(allowed.lines.contains("ok    adapter: hci0 (00:AA:01:02:03:04)"), "\(allowed)")
                #expect(allowed.lines.contains("ok    powered: hci0 is powered on"), "\(allowed)")
                #expect(allowed.output.contains("FAIL  database: user \(member) cannot write \(database): Permission denied"),
                        "\(allowed)")

                let denied = try await bus.run(as: outsider, [bridgeBinary, "doctor", "--db", database, "--timeout", "10"])
                #expect(denied.status == 1, "\(denied)")
                #expect(denied.lines.contains("ok    bluetoothd: org.bluez is on the system bus (owner \(bluez.connection.uniqueName))"), "\(denied)")
                #expect(denied.output.contains("FAIL  D-Bus permission: user \(outsider) may not call org.bluez (AccessDenied); "
                    + "fix: sudo usermod -aG bluetooth \(outsider), then log out and in again"), "\(denied)")
            }
        }
    }
}
