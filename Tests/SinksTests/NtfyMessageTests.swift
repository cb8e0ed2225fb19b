// An HTTP push as ntfy reads it: each kind's title, priority and tags as headers, a non-ASCII title
// as RFC 2047 words, at most three action buttons and only with an action URL, each button's body a
// command the bridge accepts, and credentials as an Authorization header.

import Foundation
import Testing
@testable import Sinks
import Timekeeping

@Suite struct NtfyMessageTests {
    @Test func headersCarryTitlePriorityAndTags() throws {
        let configuration = try HTTPPushConfiguration(url: "https://ntfy.sh/my-topic")
        let message = NtfyMessage(notification("hydration-1"), configuration: configuration)
        #expect(message.body == "Time to hydrate! You're 300ml behind pace.")
        #expect(message.headers == [
            "Title": "Hydration Reminder", "Priority": "3", "Tags": "droplet", "Content-Type": "text/plain; charset=utf-8",
        ])
    }

    @Test(arguments: [
        ("reminder", SinkPriority?.none, "3", "droplet"),
        ("reminder", .high, "4", "droplet,warning"),
        ("low_battery", nil, "4", "warning,battery"),
        ("deadline", nil, "4", "hourglass,warning"),
        ("goal_reached", nil, "3", "droplet,tada"),
        ("back_on_track", nil, "3", "droplet,thumbsup"),
        ("scheduled", nil, "3", "pill"),
        ("daily_message", nil, "3", "sunny"),
        ("ritual", nil, "3", "tea"),
        ("test", nil, "3", "test_tube"),
        ("something_new", nil, "3", "droplet"),
    ])
    func priorityAndTagsFollowTheKind(kind: String, priority: SinkPriority?, expectedPriority: String, tags: String) throws {
        let configuration = try HTTPPushConfiguration(url: "https://ntfy.sh/t")
        let item = SinkNotification(id: "x", kind: kind, title: "t", body: "b", time: WallInstant(secondsSince1970: 0), priority: priority)
        let message = NtfyMessage(item, configuration: configuration)
        #expect(message.headers["Priority"] == expectedPriority)
        #expect(message.headers["Tags"] == tags)
    }

    @Test func nonASCIITitlesAreRFC2047EncodedWords() throws {
        let configuration = try HTTPPushConfiguration(url: "https://ntfy.sh/t")
        let goal = SinkNotification(id: "hydration-goal-reached", kind: "goal_reached", title: "Goal Reached! 💧",
                                    body: "Good job! You've hit your daily hydration goal.", time: WallInstant(secondsSince1970: 0))
        let title = try #require(NtfyMessage(goal, configuration: configuration).headers["Title"])
        #expect(title == "=?UTF-8?B?" + Data("Goal Reached! 💧".utf8).base64EncodedString() + "?=")
    }

    @Test func actionsBecomeHTTPButtonsOnlyWithAnActionURL() throws {
        let ritual = SinkNotification(id: "ritual-morning-2026-11-22", kind: "ritual", title: "Good morning",
                                      body: "Your daily routine is ready.", time: WallInstant(secondsSince1970: 0),
                                      actions: [SinkAction(id: "did-this", label: "Did This"),
                                                SinkAction(id: "start-ritual", label: "Start, now")])
        let without = try HTTPPushConfiguration(url: "https://ntfy.sh/t")
        #expect(NtfyMessage(ritual, configuration: without).headers["Actions"] == nil)

        let with = try HTTPPushConfiguration(url: "https://ntfy.sh/t", actionURL: "https://ha.example.org/api/webhook/aquavate")
        #expect(NtfyMessage(ritual, configuration: with).headers["Actions"] ==
            "http, Did This, https://ha.example.org/api/webhook/aquavate, method=POST, headers.Content-Type=application/json, "
            + #"body='{"action":{"action":"did-this","id":"ritual-morning-2026-11-22"}}', clear=true; "#
            + #"http, "Start, now", https://ha.example.org/api/webhook/aquavate, method=POST, headers.Content-Type=application/json, "#
            + #"body='{"action":{"action":"start-ritual","id":"ritual-morning-2026-11-22"}}', clear=true"#)
    }

    @Test func theButtonBodyIsACommandTheBridgeAccepts() throws {
        let with = try HTTPPushConfiguration(url: "https://ntfy.sh/t", actionURL: "https://relay.example.org/x")
        let item = SinkNotification(id: "scheduled-VITD-2026-11-22", kind: "scheduled", title: "Vitamin D", body: "Time for it",
                                    time: WallInstant(secondsSince1970: 0), actions: [SinkAction(id: "done", label: "Done")])
        let header = try #require(NtfyMessage(item, configuration: with).headers["Actions"])
        let body = try #require(header.range(of: "body='").map { header[$0.upperBound...] }?.split(separator: "'").first)
        #expect(try SinkCommandParser.parse(String(body)) == .action(notificationID: "scheduled-VITD-2026-11-22", actionID: "done"))
    }

    @Test func atMostThreeButtons() throws {
        let with = try HTTPPushConfiguration(url: "https://ntfy.sh/t", actionURL: "https://relay.example.org/x")
        let item = SinkNotification(id: "n", kind: "test", title: "t", body: "b", time: WallInstant(secondsSince1970: 0),
                                    actions: (1...5).map { SinkAction(id: "a\($0)", label: "A\($0)") })
        #expect(NtfyMessage(item, configuration: with).headers["Actions"]?.components(separatedBy: "; ").count == 3)
    }

    @Test func credentialsAreSentAsAuthorization() throws {
        let configuration = try HTTPPushConfiguration(url: "https://ntfy.example.org/t", token: "tk_secret")
        #expect(NtfyMessage(notification("n"), configuration: configuration).headers["Authorization"] == "Bearer tk_secret")
    }
}
