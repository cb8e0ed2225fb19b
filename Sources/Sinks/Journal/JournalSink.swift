// The sink that is always on: one log line per notification, which under systemd lands in the
// journal (docs/design.md 3.2). It cannot fail, so it never retries.
//
//     notification id=hydration-3 kind=reminder title="Hydration Reminder" body="Time to hydrate! …"

import Logging

package struct JournalSink: NotificationSink {
    package let name = "journal"
    /// A log line is for the administrator, not a notification anyone sees.
    package var reachesAPerson: Bool { false }
    private let logger: Logger

    package init(logger: Logger) {
        self.logger = logger
    }

    package func deliver(_ notification: SinkNotification) async throws {
        logger.notice("\(Self.line(for: notification))")
    }

    /// The line as logged; title and body are quoted so that the line splits unambiguously.
    package static func line(for notification: SinkNotification) -> String {
        var line = "notification id=\(notification.id) kind=\(notification.kind) "
            + "title=\(quoted(notification.title)) body=\(quoted(notification.body))"
        if !notification.actions.isEmpty {
            line += " actions=" + notification.actions.map(\.id).joined(separator: ",")
        }
        return line
    }

    static func quoted(_ text: String) -> String {
        var out = "\""
        for character in text {
            switch character {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            default: out.append(character)
            }
        }
        return out + "\""
    }
}
