// The journal sink: each notification is one quoted line at notice level (id, kind, title, body,
// actions), and a hub with only the journal reaches nobody (reminders that need a person wait).

import BusTestSupport
import Logging
import Testing
@testable import Sinks
import Timekeeping

@Suite struct JournalSinkTests {
    @Test func eachNotificationIsOneQuotedLine() async throws {
        let lines = Recorder<LogLine>()
        let sink = JournalSink(logger: capturingLogger(lines))
        try await sink.deliver(SinkNotification(
            id: "ritual-morning-2026-11-22", kind: "ritual", title: "Your \"Low Flame\" body thrives with warmth",
            body: "Drink a glass of warm water (10 sec)\nthen stretch", time: WallInstant(secondsSince1970: 1_763_712_000),
            actions: [SinkAction(id: "did-this", label: "Did This"), SinkAction(id: "start-ritual", label: "Start Ritual")]))
        #expect(lines.all.map(\.message) == [
            #"notification id=ritual-morning-2026-11-22 kind=ritual title="Your \"Low Flame\" body thrives with warmth" "#
                + #"body="Drink a glass of warm water (10 sec)\nthen stretch" actions=did-this,start-ritual"#,
        ])
        #expect(lines.all.first?.level == .notice)
    }

    @Test func withoutActionsTheLineEndsAtTheBody() {
        #expect(JournalSink.line(for: notification("hydration-1"))
            == #"notification id=hydration-1 kind=reminder title="Hydration Reminder" body="Time to hydrate! You're 300ml behind pace.""#)
    }

    @Test func aHubWithOnlyTheJournalReachesNobody() throws {
        let journal = JournalSink(logger: capturingLogger(Recorder()))
        #expect(!SinkHub(sinks: [journal], logger: capturingLogger(Recorder())).reachesAPerson)
        let push = HTTPPushSink(configuration: try HTTPPushConfiguration(url: "https://ntfy.sh/t"))
        #expect(SinkHub(sinks: [journal, push], logger: capturingLogger(Recorder())).reachesAPerson)
    }
}
