// `bottle forget` in a household (docs/design.md 6): the bridge no longer runs the bottle's
// reminders, so its retained `<prefix>/household/reminds/<bottle>/<bridge>` is withdrawn (an
// empty retained message), and no other bridge ever hands the reminders over to it. A
// clean-session client with its own id: the running daemon's persistent session is not touched.

import Foundation
import Logging
import MQTT
import Settings
import Timekeeping

package enum HouseholdWithdrawal {
    /// Withdraws bridge `bridgeID`'s reminds entries of a bottle under each of its `keys`
    /// (serial, address); nil when done, else why not (the broker unreachable by `timeout`).
    /// Signed with `key` and stamped with `boot`, a start of this bridge's newer than the running
    /// daemon's (the history counts them), so the household believes it over the daemon's entry.
    package static func reminds(url: String, bridgeID: String, key: HouseholdKey, boot: UInt64, keys: [String], topicPrefix: String = "aquavate",
                               caFile: String? = nil, clock: any WallClock = SystemClock(), timeout: Duration) async -> String? {
        let broker: MQTTBrokerURL
        do { broker = try MQTTBrokerURL(parsing: url) } catch { return "\(error)" }
        guard MQTTTopics.isValidID(bridgeID) else { return "bridge.id \(bridgeID) is not a valid topic level" }
        let base = "\(topicPrefix)/household"
        let quiet = Logger(label: "household-withdrawal") { _ in SwiftLogNoOpLogHandler() }
        let client: MosquittoClient
        do {
            client = try MosquittoClient(
                options: .init(broker: broker, clientID: "aquavate-\(bridgeID)-forget-\(UInt32.random(in: 0...UInt32.max))",
                               caFile: caFile, reconnectDelay: 0.2...1),
                handlers: .init(connected: { _ in }, message: { _, _ in }),
                logger: quiet)
        } catch {
            return "\(error)"
        }
        client.start()
        guard await client.waitUntilConnected(within: timeout) else {
            await client.stop()
            return "the broker at \(broker.host):\(broker.port) was not reached"
        }
        let topics = Set(keys.map { "\(base)/reminds/\(MQTTTopics.bottleID(fromAddress: $0))/\(bridgeID)" })
        // Sent as the last messages: `stop` waits for the broker to acknowledge them.
        let messages = topics.sorted().enumerated().map { index, topic in
            let stamp = HouseholdStamp(sender: bridgeID, boot: boot, sequence: UInt64(index), time: clock.now)
            return MosquittoClient.Message(topic: topic, payload: HouseholdSeal.seal(topic: topic, body: [], stamp: stamp, key: key), qos: 1, retain: true)
        }
        await client.stop(finalMessages: messages)
        return nil
    }
}
