// Signals between connections: match rules (sender, path, path_namespace, interface, member,
// arg0), delivery of a signal that a method emits before replying, unsubscribing, NameAcquired,
// well-known senders, and round trips of every type through the bus.
import BusTestSupport
import DBus
import Foundation
import Locking
import Testing

@Suite struct SignalTests {
    @Test func rulesSelectTheirSignals() async throws {
        try await withPrivateBus { bus in
            let emitter = try await connect(bus)
            let listener = try await connect(bus)
            let byMember = try await listener.subscribe(MatchRule(interface: "org.example.A", member: "Ping"))
            let byPath = try await listener.subscribe(MatchRule(path: "/one"))
            let byNamespace = try await listener.subscribe(MatchRule(pathNamespace: "/tree"))
            let byArg0 = try await listener.subscribe(MatchRule(interface: "org.example.A", arguments: [0: "wanted"]))
            let bySender = try await listener.subscribe(MatchRule(sender: emitter.uniqueName, member: "Pong"))
            let byOtherSender = try await listener.subscribe(MatchRule(sender: listener.uniqueName, member: "Pong"))

            try emitter.emitSignal(path: "/one", interface: "org.example.A", member: "Ping", arguments: [.string("x")])
            try emitter.emitSignal(path: "/tree/leaf", interface: "org.example.A", member: "Other", arguments: [.string("wanted")])
            try emitter.emitSignal(path: "/treehouse", interface: "org.example.B", member: "Pong", arguments: [])
            // A marker that every rule except byPath/byNamespace/byArg0 may see last.
            try emitter.emitSignal(path: "/tree", interface: "org.example.A", member: "Ping", arguments: [.string("end")])

            let s1 = try await byMember.next(within: .seconds(5))
            #expect(s1.path == "/one" && s1.arguments == [.string("x")] && s1.sender == emitter.uniqueName)
            #expect(try await byMember.next(within: .seconds(5)).arguments == [.string("end")])

            #expect(try await byPath.next(within: .seconds(5)).member == "Ping")

            #expect(try await byNamespace.next(within: .seconds(5)).path == "/tree/leaf")
            #expect(try await byNamespace.next(within: .seconds(5)).path == "/tree")  // not /treehouse

            #expect(try await byArg0.next(within: .seconds(5)).member == "Other")

            #expect(try await bySender.next(within: .seconds(5)).path == "/treehouse")
            await #expect(throws: DBusSignalWaitTimedOut.self) {
                _ = try await byOtherSender.next(within: .milliseconds(300))
            }
            // byPath got nothing after its one signal, byArg0 nothing but "Other".
            await #expect(throws: DBusSignalWaitTimedOut.self) { _ = try await byPath.next(within: .milliseconds(200)) }
            await #expect(throws: DBusSignalWaitTimedOut.self) { _ = try await byArg0.next(within: .milliseconds(200)) }
            await listener.close()
            await emitter.close()
        }
    }

    /// BlueZ emits PropertiesChanged before it replies; a client that subscribed first must see it.
    @Test func aSignalEmittedBeforeTheReplyIsReceived() async throws {
        try await withPrivateBus { bus in
            let server = try await connect(bus)
            let client = try await connect(bus)
            try server.export("/dev", [ExportedInterface("org.example.Device", methods: [
                ExportedMethod("Disconnect", handler: .task { _ in
                    try server.emitSignal(path: "/dev", interface: "org.example.Device", member: "Changed",
                                          arguments: [.string("ServicesResolved=false")])
                    try await Task.sleep(for: .milliseconds(50))
                    try server.emitSignal(path: "/dev", interface: "org.example.Device", member: "Changed",
                                          arguments: [.string("Connected=false")])
                    return []
                }),
                ExportedMethod("Poke", handler: .immediate { _ in
                    try server.emitSignal(path: "/dev", interface: "org.example.Device", member: "Changed",
                                          arguments: [.string("poked")])
                    return []
                }),
            ])])
            for _ in 0..<20 {
                let changes = try await client.subscribe(MatchRule(sender: server.uniqueName, member: "Changed"))
                _ = try await client.call(destination: server.uniqueName, path: "/dev", interface: "org.example.Device",
                                          method: "Poke")
                // Already there when the reply came: no waiting.
                #expect(changes.nextIfAvailable()?.arguments == [.string("poked")])
                await changes.cancel()
            }
            let changes = try await client.subscribe(MatchRule(sender: server.uniqueName, member: "Changed"))
            _ = try await client.call(destination: server.uniqueName, path: "/dev", interface: "org.example.Device",
                                      method: "Disconnect")
            #expect(changes.nextIfAvailable()?.arguments == [.string("ServicesResolved=false")])
            #expect(changes.nextIfAvailable()?.arguments == [.string("Connected=false")])
            await client.close()
            await server.close()
        }
    }

    @Test func unicastSignalsReachOnlyTheirDestination() async throws {
        try await withPrivateBus { bus in
            let emitter = try await connect(bus)
            let target = try await connect(bus)
            let bystander = try await connect(bus)
            let rule = MatchRule(interface: "org.example.Direct", member: "Note")
            let atTarget = try await target.subscribe(rule)
            let atBystander = try await bystander.subscribe(rule)
            try emitter.emitSignal(path: "/", interface: "org.example.Direct", member: "Note",
                                   arguments: [.string("for you")], destination: target.uniqueName)
            try emitter.emitSignal(path: "/", interface: "org.example.Direct", member: "Note", arguments: [.string("all")])
            let direct = try await atTarget.next(within: .seconds(5))
            #expect(direct.arguments == [.string("for you")])
            #expect(direct.destination == target.uniqueName)
            #expect(try await atTarget.next(within: .seconds(5)).arguments == [.string("all")])
            #expect(try await atBystander.next(within: .seconds(5)).arguments == [.string("all")])
            #expect(atBystander.nextIfAvailable() == nil)
            for connection in [emitter, target, bystander] { await connection.close() }
        }
    }

    @Test func cancellingRemovesTheMatchFromTheBus() async throws {
        try await withPrivateBus { bus in
            let emitter = try await connect(bus)
            let listener = try await connect(bus)
            let rule = MatchRule(interface: "org.example.Gone", member: "Tick")
            let subscription = try await listener.subscribe(rule)
            try emitter.emitSignal(path: "/", interface: "org.example.Gone", member: "Tick")
            _ = try await subscription.next(within: .seconds(5))
            await subscription.cancel()
            #expect(await subscription.next() == nil)
            // The bus no longer has the rule: removing it again is refused.
            let failure = await #expect(throws: DBusFailure.self) {
                _ = try await listener.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                            interface: "org.freedesktop.DBus", method: "RemoveMatch",
                                            arguments: [.string(rule.text)])
            }
            #expect(failure?.name == "org.freedesktop.DBus.Error.MatchRuleNotFound")
            await listener.close()
            await emitter.close()
        }
    }

    @Test func aCancelledWaitKeepsTheSubscription() async throws {
        try await withPrivateBus { bus in
            let emitter = try await connect(bus)
            let listener = try await connect(bus)
            let subscription = try await listener.subscribe(MatchRule(member: "Later"))
            await #expect(throws: DBusSignalWaitTimedOut.self) { _ = try await subscription.next(within: .milliseconds(100)) }
            try emitter.emitSignal(path: "/", interface: "org.example.X", member: "Later")
            #expect(try await subscription.next(within: .seconds(5)).member == "Later")
            await listener.close()
            await emitter.close()
        }
    }

    /// A wait with a predicate drops what does not match, times out when its time is up however
    /// many other signals keep coming, and a cancelled wait throws CancellationError and leaves
    /// the subscription usable.
    @Test func aFilteredWaitSkipsTimesOutAndCanBeCancelled() async throws {
        try await withPrivateBus { bus in
            let emitter = try await connect(bus)
            let listener = try await connect(bus)
            let subscription = try await listener.subscribe(MatchRule(interface: "org.example.F"))
            for index in 0..<3 {
                try emitter.emitSignal(path: "/", interface: "org.example.F", member: "Noise", arguments: [.int32(Int32(index))])
            }
            try emitter.emitSignal(path: "/", interface: "org.example.F", member: "Wanted")
            #expect(try await subscription.next(within: .seconds(5)) { $0.member == "Wanted" }.member == "Wanted")

            // Noise keeps coming faster than the time-out: the wait still ends on time.
            let flood = Task {
                while !Task.isCancelled {
                    try emitter.emitSignal(path: "/", interface: "org.example.F", member: "Noise")
                    try await Task.sleep(for: .milliseconds(1))
                }
            }
            let started = ContinuousClock.now
            await #expect(throws: DBusSignalWaitTimedOut.self) {
                _ = try await subscription.next(within: .milliseconds(200)) { $0.member == "Wanted" }
            }
            #expect(ContinuousClock.now - started < .seconds(5))
            flood.cancel()
            _ = await flood.result

            let waiting = Task { try await subscription.next(within: .seconds(60)) { $0.member == "Never" } }
            waiting.cancel()
            await #expect(throws: CancellationError.self) { _ = try await waiting.value }
            try emitter.emitSignal(path: "/", interface: "org.example.F", member: "Wanted")
            #expect(try await subscription.next(within: .seconds(5)) { $0.member == "Wanted" }.member == "Wanted")
            await listener.close()
            await emitter.close()
        }
    }

    @Test func nameAcquiredOnlyWhenAskedFor() async throws {
        try await withPrivateBus { bus in
            let connection = try await connect(bus)
            let everything = try await connection.subscribe(MatchRule(sender: "org.freedesktop.DBus"))
            let acquired = try await connection.subscribe(MatchRule(sender: "org.freedesktop.DBus", member: "NameAcquired"))
            #expect(try await connection.requestName("org.example.Named") == .primaryOwner)
            let signal = try await acquired.next(within: .seconds(5))
            #expect(signal.arguments == [.string("org.example.Named")])
            #expect(signal.destination == connection.uniqueName)
            // The catch-all rule sees NameOwnerChanged, but not the unicast NameAcquired.
            let seen = try await everything.next(within: .seconds(5))
            #expect(seen.member == "NameOwnerChanged")
            await #expect(throws: DBusSignalWaitTimedOut.self) {
                _ = try await everything.next(within: .milliseconds(300)) { $0.member == "NameAcquired" }
            }
            await connection.close()
        }
    }

    @Test func wellKnownSenderFollowsItsOwner() async throws {
        try await withPrivateBus { bus in
            let first = try await connect(bus)
            let second = try await connect(bus)
            let listener = try await connect(bus)
            #expect(try await first.requestName("org.example.Service") == .primaryOwner)
            let fromService = try await listener.subscribe(MatchRule(sender: "org.example.Service", member: "Hello"))
            try second.emitSignal(path: "/", interface: "org.example.S", member: "Hello", arguments: [.string("not owner")])
            try first.emitSignal(path: "/", interface: "org.example.S", member: "Hello", arguments: [.string("owner 1")])
            #expect(try await fromService.next(within: .seconds(5)).arguments == [.string("owner 1")])

            // The name moves to the second connection.
            #expect(try await first.releaseName("org.example.Service") == .released)
            #expect(try await second.requestName("org.example.Service") == .primaryOwner)
            try await waitUntil(.seconds(5), "the name to move") {
                try await listener.nameOwner("org.example.Service") == second.uniqueName
            }
            try first.emitSignal(path: "/", interface: "org.example.S", member: "Hello", arguments: [.string("old owner")])
            try second.emitSignal(path: "/", interface: "org.example.S", member: "Hello", arguments: [.string("owner 2")])
            #expect(try await fromService.next(within: .seconds(5)).arguments == [.string("owner 2")])
            for connection in [listener, first, second] { await connection.close() }
        }
    }

    @Test func everyTypeTravelsThroughTheBus() async throws {
        try await withPrivateBus { bus in
            let emitter = try await connect(bus)
            let listener = try await connect(bus)
            let subscription = try await listener.subscribe(MatchRule(member: "Everything"))
            try emitter.emitSignal(path: "/", interface: "org.example.Types", member: "Everything", arguments: everyTypeSamples)
            #expect(try await subscription.next(within: .seconds(5)).arguments == everyTypeSamples)
            await listener.close()
            await emitter.close()
        }
    }

    @Test func fileDescriptorsPass() async throws {
        try await withPrivateBus { bus in
            let emitter = try await connect(bus)
            let listener = try await connect(bus)
            let subscription = try await listener.subscribe(MatchRule(member: "Fd"))
            var ends: [Int32] = [0, 0]
            #expect(pipe(&ends) == 0)
            try emitter.emitSignal(path: "/", interface: "org.example.Types", member: "Fd", arguments: [.unixFD(ends[0])])
            let received = try #require(try await subscription.next(within: .seconds(5)).arguments.first?.unixFD)
            #expect(received != ends[0])
            var byte: UInt8 = 0x5A
            #expect(write(ends[1], &byte, 1) == 1)
            var got: UInt8 = 0
            #expect(read(received, &got, 1) == 1)
            #expect(got == 0x5A)
            for fd in ends + [received] { close(fd) }
            await listener.close()
            await emitter.close()
        }
    }
}

/// `subscribe(_:onOwnerThread:)`: each matching signal handed to the closure as it is routed, in
/// order, before a reply that came after it is delivered; nothing buffered; dropping the
/// subscription ends it.
@Suite struct OwnerThreadSignalTests {
    /// What the handler was given (from the owner thread), read by the test.
    final class Seen: Sendable {
        private let items = Locked<[String]>([])
        func add(_ item: String) { items.withLock { $0.append(item) } }
        var all: [String] { items.withLock { $0 } }
    }

    @Test func signalsReachTheHandlerInOrderAndBeforeALaterReply() async throws {
        try await withPrivateBus { bus in
            let server = try await connect(bus)
            let client = try await connect(bus)
            let seen = Seen()
            try server.export("/dev", [ExportedInterface("org.example.Device", methods: [
                ExportedMethod("Touch", handler: .immediate { _ in
                    for n in 1...3 {
                        try server.emitSignal(path: "/dev", interface: "org.example.Device", member: "Changed",
                                              arguments: [.string("n=\(n)")])
                    }
                    return []
                }),
            ])])
            var subscription: SignalSubscription? = try await client.subscribe(
                MatchRule(sender: server.uniqueName, interface: "org.example.Device")) { signal in
                seen.add(signal.arguments.first?.string ?? "?")
            }
            _ = try await client.call(destination: server.uniqueName, path: "/dev", interface: "org.example.Device",
                                      method: "Touch", timeout: .seconds(5))
            // Emitted before the reply: handed over before the call returned.
            #expect(seen.all == ["n=1", "n=2", "n=3"])
            #expect(subscription?.nextIfAvailable() == nil, "a handler's signals are not buffered")
            subscription = nil
            _ = try await client.call(destination: server.uniqueName, path: "/dev", interface: "org.example.Device",
                                      method: "Touch", timeout: .seconds(5))
            // A round trip to the bus after the drop: its RemoveMatch went before this call.
            _ = try await client.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                      interface: "org.freedesktop.DBus", method: "GetId", timeout: .seconds(5))
            #expect(seen.all == ["n=1", "n=2", "n=3"], "dropped: no more signals")
            await client.close()
            await server.close()
        }
    }
}
