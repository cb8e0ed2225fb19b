// The deletion of a drink another member added by hand, on the wire: its bytes, what it reads
// back as, the router's verdicts (a deletion in another's name is forged, an odd body is
// malformed, nothing but a hand-added drink's id is believed), and the saved mark of the
// deletions told.

@testable import Household
import MQTT
import Testing
import Timekeeping

@Suite struct HouseholdDeletionMessageTests {
    static let id: UInt32 = 0x8001_0000

    @Test("a deletion is written with its keys sorted and reads back as itself, its deleter the topic's")
    func bytes() throws {
        let deletion = HouseholdLink.Deletion(bottle: "F4:12:FA:00:A3:F2", recordID: Self.id, timestamp: 1_764_000_000, origin: "kitchen", by: "office")
        let text = HouseholdDeletionMessage(deletion).text
        #expect(text == #"{"bottle":"F4:12:FA:00:A3:F2","origin":"kitchen","record_id":2147549184,"timestamp":1764000000}"#)
        #expect(HouseholdDeletionMessage.read(Array(text.utf8), by: "office") == deletion)
        #expect(HouseholdDeletionMessage.read(Array(text.utf8), by: "hallway")?.by == "hallway")
    }

    @Test("a deletion of a bottle's drink, of no bottle key, of no member or with numbers no record holds is refused")
    func hostile() {
        for bad in [
            #"{"bottle":"F4:12:FA:00:A3:F2","origin":"kitchen","record_id":7,"timestamp":1764000000}"#,
            #"{"bottle":"F4:12:FA:00:A3:F2","origin":"kitchen","record_id":4294967296,"timestamp":1764000000}"#,
            #"{"bottle":"F4:12:FA:00:A3:F2","origin":"kitchen","record_id":2147549184,"timestamp":-1}"#,
            #"{"bottle":"a/b","origin":"kitchen","record_id":2147549184,"timestamp":1764000000}"#,
            #"{"bottle":"F4:12:FA:00:A3:F2","origin":"kit/chen","record_id":2147549184,"timestamp":1764000000}"#,
            #"{"bottle":"F4:12:FA:00:A3:F2","origin":"","record_id":2147549184,"timestamp":1764000000}"#,
            #"{"bottle":"F4:12:FA:00:A3:F2","record_id":2147549184,"timestamp":1764000000}"#,
            #"{"bottle":"F4:12:FA:00:A3:F2","origin":"kitchen","record_id":"2147549184","timestamp":1764000000}"#,
            "[]", "null", "delete",
        ] {
            #expect(HouseholdDeletionMessage.read(Array(bad.utf8), by: "office") == nil, "\(bad)")
        }
    }

    func inbound(_ body: String, topic: String) -> HouseholdInbound {
        HouseholdInbound(topic: HouseholdTopic(levels: topic.split(separator: "/").map(String.init))!, body: Array(body.utf8),
                         stamp: HouseholdStamp(sender: "office", boot: 1, sequence: 1, time: WallInstant(secondsSince1970: 1_764_000_000)),
                         retained: false, own: "kitchen", now: WallInstant(secondsSince1970: 1_764_000_000))
    }

    @Test("the router delivers a member's deletion, drops an odd one as malformed, ignores this bridge's own, and every bridge subscribes to it")
    func routing() {
        let good = #"{"bottle":"F4:12:FA:00:A3:F2","origin":"kitchen","record_id":2147549184,"timestamp":1764000000}"#
        #expect(HouseholdRoutes.route(inbound(good, topic: "delete/office"))
            == .deliver(.deletion(.init(bottle: "F4:12:FA:00:A3:F2", recordID: Self.id, timestamp: 1_764_000_000, origin: "kitchen", by: "office"))))
        #expect(HouseholdRoutes.route(inbound(#"{"bottle":"F4:12:FA:00:A3:F2"}"#, topic: "delete/office")) == .drop(.malformed))
        #expect(HouseholdRoutes.route(inbound(good, topic: "delete/kitchen")) == .ignore, "this bridge's own")
        #expect(HouseholdTopic(levels: ["delete", "office"])?.writer == "office", "only the deleter writes its topic")
        #expect(HouseholdTopic(levels: ["delete", "office", "x"]) == nil)
        #expect(HouseholdTopic.Kind.subscribed.contains(.delete))
        #expect(HouseholdTopic.Kind.delete.filter(base: "aquavate/household") == "aquavate/household/delete/+")
    }
}
