// The desktop sink against python-dbusmock's `notification_daemon` template: a notification
// server nobody here wrote, on a private bus used as the session bus.

import BusTestSupport
import DBus
import Foundation
import Logging
@testable import MQTT
@testable import Sinks
import Testing
import Timekeeping

private let service = "org.freedesktop.Notifications"
private let path: DBusObjectPath = "/org/freedesktop/Notifications"

/// Starts the mock notification server on `bus` and waits until it owns its name.
private func startNotificationServer(_ bus: PrivateBus, _ client: BusConnection) async throws {
    _ = try bus.spawn("/usr/bin/python3", ["-m", "dbusmock", "--template", "notification_daemon"], logName: "notifyd")
    try await waitUntil(.seconds(30), "dbusmock to own \(service) (log: \(bus.log("notifyd")))") {
        try await client.nameOwner(service) != nil
    }
}

/// The Notify calls the mock received: (replaces_id, summary, body, actions).
private func notifyCalls(_ client: BusConnection) async throws -> [(UInt32, String, String, [String])] {
    let reply = try await client.call(destination: service, path: path, interface: "org.freedesktop.DBus.Mock", method: "GetCalls")
    let calls = reply.first?.arrayElements ?? []
    return calls.compactMap { call in
        guard let fields = call.structFields, fields.count == 3, fields[1].string == "Notify",
              let args = fields[2].arrayElements, args.count == 8 else { return nil }
        return (args[1].uint32 ?? 0, args[3].string ?? "", args[4].string ?? "", args[5].strings ?? [])
    }
}

@Suite("Desktop sink")
struct DesktopSinkTests {
    @Test("shows notifications with buttons, replaces by id, and reports a pressed button")
    func showsAndReportsActions() async throws {
        try await withPrivateBus { bus in
            let client = try await BusConnection.connect(.address(bus.address))
            try await startNotificationServer(bus, client)
            let sink = DesktopSink(bus: .address(bus.address))
            let hub = SinkHub(sinks: [sink], logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
            await hub.start()
            let ritual = SinkNotification(id: "ritual-morning-2026-11-22", kind: "ritual", title: "Morning Ritual",
                                          body: "Warm water", time: WallInstant(secondsSince1970: 1_795_300_000),
                                          actions: [SinkAction(id: "did-this", label: "Did This"), SinkAction(id: "start-ritual", label: "Start Ritual")])
            hub.deliver(ritual)
            try await waitUntil(.seconds(10), "the first Notify") { try await notifyCalls(client).count == 1 }
            let first = try await notifyCalls(client)[0]
            #expect(first.0 == 0)
            #expect(first.1 == "Morning Ritual" && first.2 == "Warm water")
            #expect(first.3 == ["did-this", "Did This", "start-ritual", "Start Ritual"])
            // The same id again replaces the notification on screen (the mock's first id is 1).
            hub.deliver(ritual)
            try await waitUntil(.seconds(10), "the second Notify") { try await notifyCalls(client).count == 2 }
            #expect(try await notifyCalls(client)[1].0 == 1)
            // The person presses "Did This".
            _ = try await client.call(destination: service, path: path, interface: "org.freedesktop.DBus.Mock", method: "EmitSignal",
                                      arguments: [.string(service), .string("ActionInvoked"), .string("us"),
                                                  .array(element: "v", [.variant(.uint32(1)), .variant(.string("did-this"))])])
            let command = try await within(.seconds(10), "the action to come back") {
                for await command in hub.commands { return command }
                throw HarnessFailure(description: "commands ended")
            }
            #expect(command == .action(notificationID: "ritual-morning-2026-11-22", actionID: "did-this"))
            #expect(hub.status().first?.delivered == 2)
            await hub.stop()
        }
    }

    @Test("ActionInvoked from anyone but the notification server is ignored")
    func actionsOnlyFromTheServer() async throws {
        try await withPrivateBus { bus in
            let client = try await BusConnection.connect(.address(bus.address))
            try await startNotificationServer(bus, client)
            let lines = Recorder<LogLine>()
            let sink = DesktopSink(bus: .address(bus.address))
            let hub = SinkHub(sinks: [sink], logger: capturingLogger(lines))
            await hub.start()
            let commands = Recorder<SinkCommand>()
            let stream = hub.commands
            Task { for await command in stream { commands.append(command) } }
            hub.deliver(SinkNotification(id: "ritual-morning-2026-11-22", kind: "ritual", title: "Morning Ritual",
                                         body: "Warm water", time: WallInstant(secondsSince1970: 1_795_300_000),
                                         actions: [SinkAction(id: "did-this", label: "Did This")]))
            try await waitUntil(.seconds(10), "the Notify") { try await notifyCalls(client).count == 1 }

            // Any other client on the session bus can send the same signal from the same path.
            let impostor = try await BusConnection.connect(.address(bus.address))
            try impostor.emitSignal(path: path, interface: service, member: "ActionInvoked",
                                    arguments: [.uint32(1), .string("did-this")])
            try await lines.wait(for: "the impostor's signal to be refused") {
                $0.contains { $0.message.contains("desktop: ignored ActionInvoked from") && $0.level == .warning }
            }
            #expect(commands.all.isEmpty)
            // The notification server's own signal still counts.
            _ = try await client.call(destination: service, path: path, interface: "org.freedesktop.DBus.Mock", method: "EmitSignal",
                                      arguments: [.string(service), .string("ActionInvoked"), .string("us"),
                                                  .array(element: "v", [.variant(.uint32(1)), .variant(.string("did-this"))])])
            #expect(try await commands.waitForCount(1, "the server's action") ==
                    [.action(notificationID: "ritual-morning-2026-11-22", actionID: "did-this")])
            await impostor.close()
            await hub.stop()
        }
    }

    @Test("with no notification server on the bus the delivery is unavailable, to be retried")
    func noServer() async throws {
        try await withPrivateBus { bus in
            let sink = DesktopSink(bus: .address(bus.address))
            await #expect(throws: SinkDeliveryError.self) {
                try await sink.deliver(SinkNotification(id: "t", kind: "test", title: "T", body: "B", time: WallInstant(secondsSince1970: 0)))
            }
            do {
                try await sink.deliver(SinkNotification(id: "t", kind: "test", title: "T", body: "B", time: WallInstant(secondsSince1970: 0)))
            } catch let error as SinkDeliveryError {
                guard case .unavailable(let reason) = error else { Issue.record("expected unavailable, got \(error)"); return }
                #expect(reason.contains("no desktop notification server"))
            }
            await sink.stop()
        }
    }

    @Test("with no session bus at all the delivery is unavailable")
    func noBus() async throws {
        let sink = DesktopSink(bus: .address("unix:path=/nonexistent/bus.sock"))
        do {
            try await sink.deliver(SinkNotification(id: "t", kind: "test", title: "T", body: "B", time: WallInstant(secondsSince1970: 0)))
            Issue.record("delivered without a bus")
        } catch let error as SinkDeliveryError {
            guard case .unavailable(let reason) = error else { Issue.record("expected unavailable, got \(error)"); return }
            #expect(reason.contains("no session bus"))
        }
    }
}
