// The HTTP request of one push notification, in ntfy's publishing format
// (binwiederhier/ntfy/docs/publish.md): POST to the topic URL, the body is the message, and
//
//     Title: Hydration Reminder
//     Priority: 3                       1 (min) … 5 (max): SinkPriority's raw value
//     Tags: droplet                     emoji short codes, by kind
//     Actions: http, Did This, <actionURL>, method=POST, headers.Content-Type=application/json, body='{…}', clear=true; …
//
// Header values that are not ASCII (a 💧 in a title) are sent as RFC 2047 encoded words,
// which ntfy decodes: not every HTTP stack passes raw UTF-8 in headers.

import Foundation
import MQTT

package struct NtfyMessage: Sendable, Equatable {
    package var headers: [String: String]
    package var body: String

    /// ntfy shows at most three buttons.
    static let maximumActions = 3

    package init(_ notification: SinkNotification, configuration: HTTPPushConfiguration) {
        var headers: [String: String] = [
            "Title": Self.headerValue(notification.title),
            "Priority": String(notification.priority.rawValue),
            "Tags": Self.tags(for: notification).joined(separator: ","),
            "Content-Type": "text/plain; charset=utf-8",
        ]
        if let authorization = configuration.authorization {
            headers["Authorization"] = authorization
        }
        if let actionURL = configuration.actionURL, !notification.actions.isEmpty {
            let actions = notification.actions.prefix(Self.maximumActions).map {
                Self.httpAction($0, notificationID: notification.id, url: actionURL)
            }
            headers["Actions"] = Self.headerValue(actions.joined(separator: "; "))
        }
        self.headers = headers
        self.body = notification.body
    }

    /// Emoji short codes by kind; anything `high` or above also gets `warning`.
    static func tags(for notification: SinkNotification) -> [String] {
        typealias Kind = SinkNotification.Kind
        var tags: [String]
        switch notification.kind {
        case Kind.reminder: tags = ["droplet"]
        case Kind.backOnTrack: tags = ["droplet", "thumbsup"]
        case Kind.goalReached: tags = ["droplet", "tada"]
        case Kind.lowBattery: tags = ["warning", "battery"]
        case Kind.scheduled: tags = ["pill"]
        case Kind.dailyMessage: tags = ["sunny"]
        case Kind.deadline: tags = ["hourglass"]
        case Kind.ritual: tags = ["tea"]
        case Kind.test: tags = ["test_tube"]
        default: tags = ["droplet"]
        }
        if notification.priority >= .high && !tags.contains("warning") { tags.append("warning") }
        return tags
    }

    /// One button in ntfy's simple format. The body is JSON, so it goes in single quotes (a
    /// `'` inside it is written `\u0027` by WireJSON); a label is quoted when it holds a comma
    /// or semicolon.
    static func httpAction(_ action: SinkAction, notificationID: String, url: URL) -> String {
        let body = ActionCommand(action: .init(id: notificationID, action: action.id)).text
        return "http, \(quotedLabel(action.label)), \(url.absoluteString), method=POST, "
            + "headers.Content-Type=application/json, body='\(body)', clear=true"
    }

    /// What a button posts: the command the bridge reads as `action` (SinkCommandParser).
    struct ActionCommand: WireMessage {
        struct Tapped: Encodable {
            /// The notification's id.
            var id: String
            /// The button's action id.
            var action: String
        }

        var action: Tapped
    }

    static func quotedLabel(_ label: String) -> String {
        guard label.contains(where: { ",;'\"".contains($0) }) || label != label.trimmingWhitespace else { return label }
        if !label.contains("\"") { return "\"\(label)\"" }
        if !label.contains("'") { return "'\(label)'" }
        return "\"\(label.replacingOccurrences(of: "\"", with: "'"))\""
    }

    /// ASCII as is; anything else as `=?UTF-8?B?…?=` (RFC 2047).
    static func headerValue(_ text: String) -> String {
        let clean = text.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
        guard clean.unicodeScalars.contains(where: { !$0.isASCII || $0.value < 0x20 }) else { return clean }
        return "=?UTF-8?B?" + Data(clean.utf8).base64EncodedString() + "?="
    }
}
