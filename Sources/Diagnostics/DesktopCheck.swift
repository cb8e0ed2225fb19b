// Can desktop notifications be shown? Only a warning when not: the service runs without a
// desktop session, and the journal, Home Assistant and push still reach a person.
import DBus

enum DesktopCheck {
    static let notifications = "org.freedesktop.Notifications"

    static func finding(enabled: Bool, environment: [String: String]) async -> DoctorFinding {
        let subject = "desktop"
        guard enabled else {
            return DoctorFinding(.ok, subject, "desktop notifications are off (desktop.enabled = false)")
        }
        let silence = "run the bridge inside your desktop session, or aquavate-bridge config set desktop.enabled false"
        let address: String
        do {
            address = try BusAddress.session.resolve { environment[$0] }
        } catch {
            return DoctorFinding(.warn, subject, "no session bus (normal for the service and over ssh), so no desktop notifications",
                                 fix: silence)
        }
        let connection: BusConnection
        do {
            connection = try await BusConnection.connect(.address(address))
        } catch {
            return DoctorFinding(.warn, subject, "cannot connect to the session bus \(address): \(error)", fix: silence)
        }
        defer { Task { await connection.close() } }
        do {
            if let owner = try await connection.nameOwner(notifications) {
                return DoctorFinding(.ok, subject, "a notification server is on the session bus (\(owner))")
            }
            let activatable = try await connection.call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                method: "ListActivatableNames", timeout: .seconds(5))
            if activatable.first?.strings?.contains(notifications) == true {
                return DoctorFinding(.ok, subject, "a notification server starts on demand (D-Bus activation)")
            }
        } catch {
            return DoctorFinding(.warn, subject, "the session bus did not answer: \(error)", fix: silence)
        }
        return DoctorFinding(.warn, subject, "no notification server (\(notifications)) on the session bus",
                             fix: "start your desktop's notification daemon (e.g. mako, dunst), or aquavate-bridge config set desktop.enabled false")
    }
}
