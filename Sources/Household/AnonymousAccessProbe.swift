// `doctor`'s look at what a client without a login may do on the broker of `mqtt.url`. The
// household key keeps a stranger's household messages from being believed, but only the broker
// keeps strangers from publishing them (and from pressing Home Assistant's controls on a command
// topic): on a broker with `allow_anonymous true` and no ACL, anyone on the network may. The probe
// connects without user or password and publishes one message on a household topic and on a
// command topic that nobody uses (`<prefix>/household/doctor/<probe>`, `<prefix>/doctor<probe>/command`:
// no bridge subscribes to either, so no count moves), subscribed to both: a message that comes back
// was written by an anonymous client. (A broker that lets anonymous clients write but not read those
// topics cannot be told from one that refuses both: MQTT 3.1.1 acknowledges a refused publish too.)

import Foundation
import Locking
import Logging
import MQTT
import Timekeeping

package enum AnonymousAccessProbe {
    package enum Finding: Sendable, Equatable {
        /// The broker refused an anonymous connection (or was not reached).
        case refused
        /// Anonymous clients connect, but none of the probe's messages came back.
        case connects
        /// Anonymous clients write these kinds of topic (`household`, `command`).
        case writes([String])
    }

    package static func probe(url: String, topicPrefix: String = "aquavate", caFile: String? = nil, clock: any WallClock = SystemClock(),
                             timeout: Duration, listen: Duration = .milliseconds(1500)) async -> Finding {
        guard let configured = try? MQTTBrokerURL(parsing: url) else { return .refused }
        let anonymous = MQTTBrokerURL(host: configured.host, port: configured.port, usesTLS: configured.usesTLS)
        let probe = "\(UInt32.random(in: 0...UInt32.max))"
        let topics = ["household": "\(topicPrefix)/household/doctor/\(probe)", "command": "\(topicPrefix)/doctor\(probe)/command"]
        let heard = Locked<Set<String>>([])
        let quiet = Logger(label: "anonymous-probe") { _ in SwiftLogNoOpLogHandler() }
        let client: MosquittoClient
        do {
            client = try MosquittoClient(
                options: .init(broker: anonymous, clientID: "aquavate-doctor-\(probe)", caFile: caFile, reconnectDelay: 0.2...1),
                handlers: .init(
                    connected: { client in
                        for topic in topics.values.sorted() {
                            try? client.subscribe(topic, qos: 1)
                            _ = try? client.publish(.init(topic: topic, text: "doctor probe", qos: 1))
                        }
                    },
                    message: { _, message in
                        if let kind = topics.first(where: { $0.value == message.topic })?.key { heard.withLock { _ = $0.insert(kind) } }
                    }),
                logger: quiet)
        } catch {
            return .refused
        }
        client.start()
        guard await client.waitUntilConnected(within: timeout) else {
            await client.stop()
            return .refused
        }
        let deadline = clock.instant + listen
        while clock.instant < deadline, heard.withLock({ $0.count }) < topics.count {
            try? await clock.sleep(for: .milliseconds(50))
        }
        await client.stop()
        let written = heard.withLock { $0 }
        return written.isEmpty ? .connects : .writes(written.sorted())
    }
}
