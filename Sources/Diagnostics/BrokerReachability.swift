// Is the MQTT broker of `mqtt.url` reachable? A TCP connect with a short time-out: enough to tell
// "Home Assistant's broker is down / the host name is wrong / a firewall drops it" from "fine".
// Credentials and TLS are checked when the bridge connects (`aquavate-bridge notify test`).
import Foundation
import Glibc
import Settings

package enum BrokerReachability {
    package static func finding(url: String?, timeout: Duration) -> DoctorFinding {
        let subject = "mqtt"
        guard let url else {
            return DoctorFinding(.ok, subject, "not configured (mqtt.url unset), so nothing is published to Home Assistant")
        }
        guard let components = URLComponents(string: url), let host = components.host, !host.isEmpty else {
            return DoctorFinding(.fail, subject, "mqtt.url \(Redaction.url(url)) has no host",
                                 fix: "aquavate-bridge config set mqtt.url mqtt://HOST:1883")
        }
        let port = components.port ?? (components.scheme?.lowercased() == "mqtts" ? 8883 : 1883)
        switch connect(host: host, port: port, timeout: timeout) {
        case nil:
            return DoctorFinding(.ok, subject, "broker \(host):\(port) accepts TCP connections")
        case let problem?:
            return DoctorFinding(
                .fail, subject, "cannot reach the broker \(host):\(port): \(problem)",
                fix: "start the broker (Home Assistant: the Mosquitto broker add-on) or correct mqtt.url "
                    + "(aquavate-bridge config set mqtt.url mqtt://HOST:1883)")
        }
    }

    /// Nil when a TCP connection to `host:port` opened within `timeout`, else why not.
    static func connect(host: String, port: Int, timeout: Duration) -> String? {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let resolved = getaddrinfo(host, String(port), &hints, &list)
        guard resolved == 0, let first = list else {
            return "cannot resolve \(host) (\(String(cString: gai_strerror(resolved))))"
        }
        defer { freeaddrinfo(first) }
        var problem = "no address"
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let address = entry {
            entry = address.pointee.ai_next
            if let failure = connect(address.pointee, timeout: timeout) {
                problem = failure
            } else {
                return nil
            }
        }
        return problem
    }

    private static func connect(_ address: addrinfo, timeout: Duration) -> String? {
        let descriptor = socket(address.ai_family, address.ai_socktype | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue),
                                address.ai_protocol)
        guard descriptor >= 0 else { return String(cString: strerror(errno)) }
        defer { close(descriptor) }
        if Glibc.connect(descriptor, address.ai_addr, address.ai_addrlen) == 0 { return nil }
        guard errno == EINPROGRESS else { return String(cString: strerror(errno)) }
        var waiting = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        let milliseconds = Int32(clamping: timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        let ready = poll(&waiting, 1, milliseconds)
        if ready == 0 { return "no answer within \(timeout)" }
        if ready < 0 { return String(cString: strerror(errno)) }
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length)
        return error == 0 ? nil : String(cString: strerror(error))
    }
}
