// The HTTP push sink against a local HTTP server: what it sends, and what it does with answers.

import BusTestSupport
import Foundation
import Logging
@testable import MQTT
@testable import Sinks
import Testing
import Timekeeping

@Suite struct HTTPPushSinkTests {
    let ritual = SinkNotification(
        id: "ritual-morning-2026-11-22", kind: "ritual", title: "Goal Reached! 💧", body: "Drink a glass of warm water (10 sec)",
        time: WallInstant(secondsSince1970: 1_763_712_000), actions: [SinkAction(id: "did-this", label: "Did This"), SinkAction(id: "start-ritual", label: "Start Ritual")])

    @Test func postsTheBodyWithNtfyHeaders() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let configuration = try HTTPPushConfiguration(url: "http://tk_secret@127.0.0.1:\(server.port)/my-topic",
                                                      actionURL: "https://ha.example.org/api/webhook/aquavate")
        let sink = HTTPPushSink(configuration: configuration)
        try await sink.deliver(ritual)

        let request = try #require(server.requests.all.first)
        #expect(server.requests.all.count == 1)
        #expect(request.method == "POST")
        #expect(request.path == "/my-topic")
        #expect(request.bodyText == "Drink a glass of warm water (10 sec)")
        let expected = NtfyMessage(ritual, configuration: configuration).headers
        #expect(request.headers["title"] == "=?UTF-8?B?" + Data("Goal Reached! 💧".utf8).base64EncodedString() + "?=")
        #expect(request.headers["priority"] == "3")
        #expect(request.headers["tags"] == "tea")
        #expect(request.headers["authorization"] == "Bearer tk_secret")
        #expect(request.headers["actions"] == expected["Actions"])
        #expect(request.headers["actions"]?.hasPrefix("http, Did This, https://ha.example.org/api/webhook/aquavate, method=POST") == true)
        #expect(request.headers["content-type"] == "text/plain; charset=utf-8")
        await sink.stop()
    }

    @Test(arguments: [500, 502, 503, 429])
    func serverErrorsAreRetryable(status: Int) async throws {
        let server = try TestHTTPServer(statuses: [status])
        defer { server.stop() }
        let sink = HTTPPushSink(configuration: try HTTPPushConfiguration(url: "\(server.url)/t"))
        let error = await #expect(throws: SinkDeliveryError.self) { try await sink.deliver(notification("n")) }
        guard case let .unavailable(reason)? = error else {
            Issue.record("expected unavailable, got \(String(describing: error))")
            return
        }
        #expect(reason.hasPrefix("push server 127.0.0.1 answered \(status)"))
        await sink.stop()
    }

    @Test(arguments: [(401, "push.token"), (403, "access rights"), (404, "check push.url"), (400, "ntfy-compatible")])
    func clientErrorsAreRejectedWithWhatToCheck(status: Int, advice: String) async throws {
        let server = try TestHTTPServer(statuses: [status])
        defer { server.stop() }
        let sink = HTTPPushSink(configuration: try HTTPPushConfiguration(url: "\(server.url)/t"))
        let error = await #expect(throws: SinkDeliveryError.self) { try await sink.deliver(notification("n")) }
        guard case let .rejected(reason)? = error else {
            Issue.record("expected rejected, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("answered \(status)") && reason.contains(advice))
        #expect(!reason.contains("\n"))
        await sink.stop()
    }

    @Test func aServerThatNeverAnswersTimesOut() async throws {
        let server = try TestHTTPServer(silent: true)
        defer { server.stop() }
        let sink = HTTPPushSink(configuration: try HTTPPushConfiguration(url: "\(server.url)/t", timeout: .milliseconds(400)))
        let start = ContinuousClock.now
        await #expect(throws: SinkDeliveryError.unavailable("push server 127.0.0.1 did not answer: timed out")) {
            try await sink.deliver(notification("n"))
        }
        // The 0.4 s asked for is rounded up to a whole second (see HTTPPushConfiguration): a
        // bound below, not a timing assertion — it proves the request waited instead of failing at once.
        #expect(ContinuousClock.now - start >= .milliseconds(900))
        #expect(server.requests.all.count == 1)
        await sink.stop()
    }

    @Test func stopEndsARequestInFlight() async throws {
        // libcurl blocks its own thread (CurlTransport); stop() must still end the wait, or the
        // hub's worker could not finish. With a 30 s time-out, only the cancellation says "cancelled".
        let server = try TestHTTPServer(silent: true)
        defer { server.stop() }
        let sink = HTTPPushSink(configuration: try HTTPPushConfiguration(url: "\(server.url)/t", timeout: .seconds(30)))
        let delivery = Task { try await sink.deliver(notification("n")) }
        try await server.requests.waitForCount(1)
        await sink.stop()
        await #expect(throws: SinkDeliveryError.unavailable("push server 127.0.0.1 did not answer: cancelled")) {
            try await delivery.value
        }
        // And later deliveries end at once.
        await #expect(throws: SinkDeliveryError.unavailable("push server 127.0.0.1 did not answer: cancelled")) {
            try await sink.deliver(notification("m"))
        }
    }

    @Test func a500ThenA200IsRetriedAndDeliveredOnce() async throws {
        let server = try TestHTTPServer(statuses: [500, 200])
        defer { server.stop() }
        let requested = Recorder<Double>()
        let clock = ManualClock(onSleep: { requested.append($0) })
        let lines = Recorder<LogLine>()
        let sink = HTTPPushSink(configuration: try HTTPPushConfiguration(url: "\(server.url)/t"))
        let hub = SinkHub(sinks: [sink], clock: clock, logger: capturingLogger(lines))
        await hub.start()
        hub.deliver(notification("hydration-1"))

        let backOff = try await requested.waitForCount(1)
        #expect(backOff == [1])
        clock.advance(by: .seconds(1))
        try await lines.wait(for: "the recovery") { $0.contains { $0.message.contains("sink push: delivering again") } }
        #expect(server.requests.all.count == 2)
        #expect(server.requests.all.map(\.bodyText) == Array(repeating: "Time to hydrate! You're 300ml behind pace.", count: 2))
        #expect(lines.matching("sink push: cannot deliver notification id=hydration-1 kind=reminder: push server 127.0.0.1 answered 500",
                               minimum: .warning).count == 1)
        #expect(requested.all == [1])
        await hub.stop()
    }

    @Test func a404IsLoggedAndDroppedAndTheNextOneStillGoes() async throws {
        let server = try TestHTTPServer(statuses: [404, 200])
        defer { server.stop() }
        let requested = Recorder<Double>()
        let clock = ManualClock(onSleep: { requested.append($0) })
        let lines = Recorder<LogLine>()
        let hub = SinkHub(sinks: [HTTPPushSink(configuration: try HTTPPushConfiguration(url: "\(server.url)/t"))],
                          clock: clock, logger: capturingLogger(lines))
        await hub.start()
        hub.deliver(notification("first"))
        hub.deliver(notification("second"))
        try await server.requests.waitForCount(2)
        try await lines.wait(for: "the drop") { $0.contains { $0.message.contains("dropped notification id=first") } }
        #expect(lines.matching("sink push: dropped notification id=first kind=reminder: push server 127.0.0.1 answered 404",
                               minimum: .error).first?.message.contains("check push.url") == true)
        #expect(requested.all.isEmpty)
        await hub.stop()
    }

    @Test func aServerThatIsDownIsLoggedOnceRetriedAndNeverHoldsUpTheOtherSinks() async throws {
        let deadPort = try freeTCPPort()
        let requested = Recorder<Double>()
        let clock = ManualClock(onSleep: { requested.append($0) })
        let lines = Recorder<LogLine>()
        let push = HTTPPushSink(configuration: try HTTPPushConfiguration(url: "http://127.0.0.1:\(deadPort)/t"))
        let working = RecordingSink()
        let hub = SinkHub(sinks: [push, working], clock: clock, logger: capturingLogger(lines))
        await hub.start()
        for index in 0..<5 { hub.deliver(notification("n\(index)")) }

        try await working.notifications.waitForCount(5, "deliveries to the working sink")
        for attempt in 1...4 {
            let requested = try await requested.waitForCount(attempt, "back-off sleeps")
            clock.advance(by: .seconds(requested[attempt - 1]))
        }
        try await requested.waitForCount(5)
        #expect(requested.all == [1, 2, 4, 8, 16])
        let failures = lines.matching("sink push: cannot deliver", minimum: .warning)
        #expect(failures.count == 1)
        #expect(failures.first?.message.contains("push server 127.0.0.1 did not answer: connection refused") == true)
        #expect(lines.matching("sink push: attempt").count == 4)  // the retries, at debug level
        #expect(hub.status().first { $0.sink == "push" }?.waiting == 4)
        await hub.stop()
    }
}
