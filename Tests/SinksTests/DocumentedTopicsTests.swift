// docs/home-assistant.md names the topics exactly as the code does: its table of topics, read
// from the file, against MQTTTopics with the doc's placeholders as ids.

import Foundation
@testable import MQTT
@testable import Sinks
import Testing

@Suite struct DocumentedTopicsTests {
    static let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../docs/home-assistant.md").standardizedFileURL

    /// The first column of the table under `## Topics`, without its backquotes.
    static func documentedTopics() throws -> [String] {
        let text = try String(contentsOf: document, encoding: .utf8)
        let section = try #require(text.components(separatedBy: "\n## Topics\n").dropFirst().first, "no ## Topics in \(document.path)")
        let body = section.components(separatedBy: "\n## ").first ?? section
        return body.split(separator: "\n").filter { $0.hasPrefix("| `") }.compactMap { row in
            row.split(separator: "|").first.map { $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "`")) }
        }
    }

    @Test func theTableNamesEveryTopicAsTheCodeDoes() throws {
        let topics = MQTTTopics(bottleID: "<id>", bridgeID: "<bridge>")
        let code: [String] = [
            topics.availability, topics.state, topics.drink, topics.notification, topics.command, topics.commandResult,
            topics.commandLast, topics.discovery, topics.bridgeDiscovery, topics.entityDiscovery(platform: "<platform>", key: "<key>"),
            topics.bridgeEntityDiscovery, topics.homeAssistantStatus,
        ]
        let documented = try Self.documentedTopics()
        #expect(documented.count == Set(documented).count, "a topic documented twice: \(documented)")
        #expect(Set(documented) == Set(code),
                "only in the doc: \(Set(documented).subtracting(code)); only in the code: \(Set(code).subtracting(documented))")
    }

    @Test func everyEntityKeyIsDocumented() throws {
        let text = try String(contentsOf: Self.document, encoding: .utf8)
        let configuration = try MQTTSinkConfiguration(url: "mqtt://127.0.0.1", bottleAddress: "F4:12:FA:00:A3:F4", bridgeVersion: "0")
        for component in HomeAssistantDiscovery.components(for: configuration) {
            #expect(text.contains("`\(component.key)`"), "docs/home-assistant.md does not name the entity \(component.key)")
        }
    }
}
