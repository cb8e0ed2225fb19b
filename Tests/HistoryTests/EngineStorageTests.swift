// The reminder engine's state document and the delivered log.

import Foundation
import History
import Testing

@Suite("Engine state and delivered log")
struct EngineStorageTests {
    @Test("the state document survives a reopen; a save replaces it")
    func stateRoundTrip() throws {
        let folder = NSTemporaryDirectory() + "engine-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/h.sqlite"
        do {
            let history = try DrinkHistory(path: path)
            #expect(try history.engineState(named: "reminders") == nil)
            try history.saveEngineState(named: "reminders", json: #"{"a":1}"#, at: 10)
            try history.saveEngineState(named: "reminders", json: #"{"a":2}"#, at: 20,
                                        delivered: [DeliveredNotification(id: "hydration-1", kind: "reminder", time: 20, title: "T", body: "B")])
        }
        let reopened = try DrinkHistory(path: path)
        #expect(try reopened.engineState(named: "reminders") == #"{"a":2}"#)
        #expect(try reopened.deliveredNotifications() == [DeliveredNotification(id: "hydration-1", kind: "reminder", time: 20, title: "T", body: "B")])
        #expect(try reopened.deliveredNotifications(since: 21).isEmpty)
    }
}
