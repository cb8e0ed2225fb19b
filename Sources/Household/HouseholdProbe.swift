// `doctor`'s look at the household (docs/design.md 6): who answers on this broker, with which
// `bridge.id`, and with which clock. A clean-session client with a random id asks once on
// `<prefix>/household/ping/<probe>` and collects the answers for a short while.

import Foundation
import Locking
import Logging
import MQTT
import Settings
import Timekeeping

package enum HouseholdProbe {
    package struct Answer: Sendable, Equatable {
        package var bridge: String
        /// The bridge's clock minus this machine's, seconds (half the round trip taken off).
        package var clockOffset: Double
        package var instance: String
        package var synchronised: Bool
        /// From the ping to this answer, seconds: the offset is known to within half of it.
        package var roundTrip: Double = 0
    }

    /// The answers heard within `listen`; nil when the broker could not be reached by `timeout`.
    /// Only answers signed with `key` count; the ping is signed with it too (bridges answer no other).
    package static func survey(url: String, key: HouseholdKey, topicPrefix: String = "aquavate", clock: any WallClock = SystemClock(),
                              timeout: Duration, listen: Duration = .milliseconds(1500)) async -> [Answer]? {
        guard let broker = try? MQTTBrokerURL(parsing: url) else { return nil }
        let base = "\(topicPrefix)/household"
        let probe = "doctor-\(UInt32.random(in: 0...UInt32.max))"
        let answers = Locked<[Answer]>([])
        let asked = Locked<WallInstant?>(nil)
        let quiet = Logger(label: "household-probe") { _ in SwiftLogNoOpLogHandler() }
        let client: MosquittoClient
        do {
            client = try MosquittoClient(
                options: .init(broker: broker, clientID: probe, reconnectDelay: 0.2...1),
                handlers: .init(
                    connected: { client in
                        try? client.subscribe("\(base)/pong/+", qos: 0)
                        asked.withLock { $0 = clock.now }
                        let topic = "\(base)/ping/\(probe)"
                        // A new probe id each time: its boot needs only to be a number.
                        let stamp = HouseholdStamp(sender: probe, boot: 1, sequence: 0, time: clock.now)
                        _ = try? client.publish(.init(topic: topic, payload: HouseholdSeal.seal(topic: topic, body: Array("{}".utf8), stamp: stamp, key: key),
                                                      qos: 0))
                    },
                    message: { _, message in
                        let bridge = String(message.topic.split(separator: "/").last ?? "")
                        guard let sentAt = asked.withLock({ $0 }),
                              case .success(let opened) = HouseholdSeal.open(topic: message.topic, payload: message.payload, key: key),
                              opened.stamp.sender == bridge, let pong = WireJSON.read(HouseholdPongMessage.self, from: opened.body),
                              let time = pong.clock else { return }
                        let instance = pong.instance, synchronised = pong.synchronised
                        let roundTrip = clock.now - sentAt
                        // Its clock against this one's at the middle of the round trip.
                        let offset = time - (sentAt + roundTrip / 2)
                        answers.withLock {
                            $0.append(Answer(bridge: bridge, clockOffset: offset.inSeconds, instance: instance,
                                             synchronised: synchronised, roundTrip: roundTrip.inSeconds))
                        }
                    }),
                logger: quiet)
        } catch {
            return nil
        }
        client.start()
        guard await client.waitUntilConnected(within: timeout) else {
            await client.stop()
            return nil
        }
        try? await clock.sleep(for: listen)
        await client.stop()
        return answers.withLock { $0 }
    }
}
