// Connections and method calls between two connections on a private bus: replies, error replies
// with name and message, time-outs, fire-and-forget sends, cancellation, closing and losing the bus.
import BusTestSupport
@testable import DBus
import Foundation
import Testing

/// A server connection exporting `Example.path` with one method per handler kind.
func exportExample(on server: BusConnection, parked: Box<[DBusResponder]> = Box([])) throws {
    try server.export(Example.path, [ExportedInterface(Example.interface, methods: [
        ExportedMethod("Echo", input: "s", output: "s", handler: .immediate { call in [call.arguments[0]] }),
        ExportedMethod("Fail", input: "ss", output: "", handler: .immediate { call in
            throw DBusFailure(name: call.arguments[0].string!, message: call.arguments[1].string!)
        }),
        ExportedMethod("Crash", handler: .immediate { _ in throw CocoaError(.fileNoSuchFile) }),
        ExportedMethod("Later", input: "u", output: "u", handler: .task { call in
            try await Task.sleep(for: .milliseconds(Int(call.arguments[0].uint32!)))
            return [call.arguments[0]]
        }),
        ExportedMethod("Never", handler: .deferred { _, responder in parked.update { $0.append(responder) } }),
        ExportedMethod("WrongReply", output: "s", handler: .immediate { _ in [.int32(1)] }),
        ExportedMethod("Who", output: "s", handler: .immediate { call in [.string(call.sender)] }),
    ])])
}

@Suite struct ConnectionAndCallTests {
    @Test func connectsWithUniqueNamesAndCloses() async throws {
        try await withPrivateBus { bus in
            let a = try await connect(bus)
            let b = try await connect(bus)
            #expect(a.uniqueName.hasPrefix(":"))
            #expect(a.uniqueName != b.uniqueName)
            #expect(a.isConnected)
            // The bus knows both.
            #expect(try await a.nameOwner(b.uniqueName) == b.uniqueName)
            await b.close()
            #expect(!b.isConnected)
            try await a.waitUntilNameVanishes(b.uniqueName)
            await #expect(throws: DBusDisconnected.self) {
                _ = try await b.call(destination: a.uniqueName, path: "/", interface: nil, method: "X")
            }
            await a.close()
        }
    }

    @Test func callReturnsTheReplyAndSeesTheSender() async throws {
        try await withPrivateBus { bus in
            let server = try await connect(bus)
            let client = try await connect(bus)
            try exportExample(on: server)
            let reply = try await client.call(
                destination: server.uniqueName, path: Example.path, interface: Example.interface, method: "Echo",
                arguments: [.string("hello")])
            #expect(reply == [.string("hello")])
            let who = try await client.call(
                destination: server.uniqueName, path: Example.path, interface: Example.interface, method: "Who")
            #expect(who == [.string(client.uniqueName)])
            // Without an interface the method is found by name.
            let echoed = try await client.call(
                destination: server.uniqueName, path: Example.path, interface: nil, method: "Echo",
                arguments: [.string("x")])
            #expect(echoed == [.string("x")])
            await client.close()
            await server.close()
        }
    }

    @Test func errorRepliesCarryNameAndMessage() async throws {
        try await withPrivateBus { bus in
            let server = try await connect(bus)
            let client = try await connect(bus)
            try exportExample(on: server)
            func call(_ method: String, _ args: [DBusValue] = [], path: DBusObjectPath = Example.path,
                      interface: String? = Example.interface) async throws -> [DBusValue] {
                try await client.call(destination: server.uniqueName, path: path, interface: interface,
                                      method: method, arguments: args)
            }
            let failure = await #expect(throws: DBusFailure.self) {
                try await call("Fail", [.string("org.bluez.Error.Failed"), .string("le-connection-abort-by-local")])
            }
            #expect(failure == DBusFailure(name: "org.bluez.Error.Failed", message: "le-connection-abort-by-local"))

            // An error name D-Bus does not allow becomes Failed, keeping the name in the message.
            let badName = await #expect(throws: DBusFailure.self) {
                try await call("Fail", [.string("not an error name"), .string("why")])
            }
            #expect(badName == DBusFailure(name: DBusFailure.failedName, message: "not an error name: why"))

            let other = await #expect(throws: DBusFailure.self) { try await call("Crash") }
            #expect(other?.name == DBusFailure.failedName)

            let wrongArgs = await #expect(throws: DBusFailure.self) { try await call("Echo", [.int32(1)]) }
            #expect(wrongArgs?.name == DBusFailure.invalidArgsName)

            let wrongReply = await #expect(throws: DBusFailure.self) { try await call("WrongReply") }
            #expect(wrongReply?.name == DBusFailure.failedName)

            let unknownMethod = await #expect(throws: DBusFailure.self) { try await call("Nope") }
            #expect(unknownMethod?.name == DBusFailure.unknownMethodName)

            let unknownInterface = await #expect(throws: DBusFailure.self) {
                try await call("Echo", [.string("x")], interface: "org.example.Other")
            }
            #expect(unknownInterface?.name == DBusFailure.unknownInterfaceName)

            let unknownObject = await #expect(throws: DBusFailure.self) {
                try await call("Echo", [.string("x")], path: "/nowhere")
            }
            #expect(unknownObject?.name == DBusFailure.unknownObjectName)

            let noService = await #expect(throws: DBusFailure.self) {
                _ = try await client.call(destination: "org.example.Nobody", path: "/", interface: nil, method: "X")
            }
            #expect(noService?.name == DBusFailure.serviceUnknownName)
            await client.close()
            await server.close()
        }
    }

    @Test func callsFromTasksSendThemselvesAndAllGetTheirReplies() async throws {
        try await withPrivateBus { bus in
            let server = try await connect(bus)
            let client = try await connect(bus)
            try exportExample(on: server)
            let before = client.core.directCallCount
            // Many at once (fewer than the bus's 128 pending replies a connection): some find the
            // owner busy or jobs queued and go through it, the rest send from their own thread;
            // each reply reaches its own caller.
            let replies = try await withThrowingTaskGroup(of: (Int, [DBusValue]).self) { group in
                for index in 0..<100 {
                    group.addTask {
                        (index, try await client.call(
                            destination: server.uniqueName, path: Example.path, interface: Example.interface,
                            method: "Echo", arguments: [.string("call \(index)")]))
                    }
                }
                return try await group.reduce(into: [Int: [DBusValue]]()) { $0[$1.0] = $1.1 }
            }
            #expect(replies.count == 100)
            #expect(replies.allSatisfy { $0.value == [.string("call \($0.key)")] })
            // One at a time, with nothing queued: the owner sleeps, so the caller sends.
            let quiet = client.core.directCallCount
            for _ in 0..<3 {
                _ = try await client.call(
                    destination: server.uniqueName, path: Example.path, interface: Example.interface, method: "Who")
            }
            #expect(client.core.directCallCount > before)
            #expect(client.core.directCallCount >= quiet + 1)
            await client.close()
            await server.close()
        }
    }

    @Test func aCallTooLargeForTheSocketSentByItsCallerStillLeavesWhole() async throws {
        try await withPrivateBus { bus in
            let server = try await connect(bus)
            let client = try await connect(bus)
            try exportExample(on: server)
            // 8 MiB cannot be written at once to a Unix socket (its buffer is a few hundred KiB):
            // the caller's own write leaves the rest queued for the owner thread, which sleeps on
            // descriptors chosen before the call. libdbus's wake-up-main function (WatchLoop)
            // wakes it as the message is queued, so it sends the rest at once rather than at the
            // call's time-out.
            let large = String(repeating: "x", count: 8 << 20)
            let quiet = client.core.directCallCount
            let reply = try await client.call(
                destination: server.uniqueName, path: Example.path, interface: Example.interface,
                method: "Echo", arguments: [.string(large)], timeout: .seconds(20))
            #expect(reply.first?.string?.count == large.count)
            #expect(client.core.directCallCount == quiet + 1)
            await client.close()
            await server.close()
        }
    }

    @Test func aCallWithoutReplyTimesOut() async throws {
        try await withPrivateBus { bus in
            let server = try await connect(bus)
            let client = try await connect(bus)
            let parked = Box<[DBusResponder]>([])
            try exportExample(on: server, parked: parked)
            let started = ContinuousClock.now
            let timedOut = await #expect(throws: DBusCallTimedOut.self) {
                _ = try await client.call(
                    destination: server.uniqueName, path: Example.path, interface: Example.interface,
                    method: "Never", timeout: .milliseconds(300))
            }
            #expect(timedOut?.member == "Never")
            #expect(timedOut?.timeout == .milliseconds(300))
            #expect(ContinuousClock.now - started < .seconds(10))
            #expect(parked.value.count == 1)
            // The connection still works afterwards.
            let reply = try await client.call(
                destination: server.uniqueName, path: Example.path, interface: Example.interface, method: "Echo",
                arguments: [.string("still here")])
            #expect(reply == [.string("still here")])
            await client.close()
            await server.close()
        }
    }

    @Test func slowTaskHandlersDoNotBlockOtherCalls() async throws {
        try await withPrivateBus { bus in
            let server = try await connect(bus)
            let client = try await connect(bus)
            try exportExample(on: server)
            async let slow = client.call(
                destination: server.uniqueName, path: Example.path, interface: Example.interface, method: "Later",
                arguments: [.uint32(1500)])
            // Answered while "Later" is still sleeping.
            let quick = try await within(.seconds(1), "a quick reply during a slow call") {
                try await client.call(
                    destination: server.uniqueName, path: Example.path, interface: Example.interface,
                    method: "Echo", arguments: [.string("quick")])
            }
            #expect(quick == [.string("quick")])
            #expect(try await slow == [.uint32(1500)])
            await client.close()
            await server.close()
        }
    }

    @Test func aCancelledCallEndsAtOnce() async throws {
        try await withPrivateBus { bus in
            let server = try await connect(bus)
            let client = try await connect(bus)
            try exportExample(on: server)
            let task = Task {
                try await client.call(
                    destination: server.uniqueName, path: Example.path, interface: Example.interface, method: "Never",
                    timeout: .seconds(60))
            }
            try await waitUntil(.seconds(5), "the call to reach the server") {
                // The server answers Echo only after it has taken Never from the queue.
                try await client.call(
                    destination: server.uniqueName, path: Example.path, interface: Example.interface,
                    method: "Echo", arguments: [.string("x")]) == [.string("x")]
            }
            task.cancel()
            let result = try await within(.seconds(5), "the cancelled call to end") { await task.result }
            #expect(throws: CancellationError.self) { try result.get() }
            await client.close()
            await server.close()
        }
    }

    @Test func fireAndForgetSendReachesTheServer() async throws {
        try await withPrivateBus { bus in
            let server = try await connect(bus)
            let client = try await connect(bus)
            let received = Box<[String]>([])
            try server.export("/sink", [ExportedInterface("org.example.Sink", methods: [
                ExportedMethod("Put", input: "s", output: "s", handler: .immediate { call in
                    received.update { $0.append(call.arguments[0].string!) }
                    return [.string("ignored")]
                }),
            ])])
            try client.send(destination: server.uniqueName, path: "/sink", interface: "org.example.Sink", method: "Put",
                            arguments: [.string("one")])
            try client.send(destination: server.uniqueName, path: "/sink", interface: "org.example.Sink", method: "Put",
                            arguments: [.string("two")])
            try await waitUntil(.seconds(5), "both sends to arrive") { received.value == ["one", "two"] }
            #expect(throws: DBusInvalidName.self) {
                try client.send(destination: "bad name", path: "/", interface: nil, method: "X")
            }
            await client.close()
            await server.close()
        }
    }

    @Test func losingTheBusFailsPendingCallsAndEndsStreams() async throws {
        let bus = try await PrivateBus.start()
        defer { bus.stop() }
        let server = try await connect(bus)
        let client = try await connect(bus)
        try exportExample(on: server)
        let signals = try await client.subscribe(MatchRule(interface: "org.example.Nothing"))
        let pending = Task {
            try await client.call(
                destination: server.uniqueName, path: Example.path, interface: Example.interface, method: "Never",
                timeout: .seconds(60))
        }
        try await waitUntil(.seconds(5), "the server to be reachable") {
            (try? await client.nameOwner(server.uniqueName)) == server.uniqueName
        }
        bus.stop()  // SIGKILL the daemon
        let reason = try await within(.seconds(10), "the client to notice") { await client.waitUntilDisconnected() }
        #expect(reason.contains("bus"))
        #expect(!client.isConnected)
        let result = try await within(.seconds(10), "the pending call to fail") { await pending.result }
        #expect(throws: DBusDisconnected.self) { try result.get() }
        let end = try await within(.seconds(5), "the signal stream to end") { await signals.next() }
        #expect(end == nil)
        // The process is still alive (no exit-on-disconnect) and further use fails cleanly.
        await #expect(throws: DBusDisconnected.self) { _ = try await client.nameOwner("org.example.X") }
        #expect(throws: DBusDisconnected.self) { try client.emitSignal(path: "/", interface: "a.b", member: "C") }
    }
}
