// The reminders' urgency crosses the wire as the sinks' typed value, whose raw values are the
// options Home Assistant's enum sensor declares: never its display text ("On Track").

@testable import Daemon
import Reminders
import Sinks
import Testing

@Suite struct UrgencyOnTheWireTests {
    @Test func everyUrgencyMapsToTheSameIdentifier() {
        for urgency in Urgency.allCases {
            #expect(HydrationUrgency(urgency).rawValue == urgency.rawValue)
            #expect(HydrationUrgency(urgency).rawValue != urgency.displayName)
        }
        #expect(Set(Urgency.allCases.map { HydrationUrgency($0) }) == Set(HydrationUrgency.allCases))
    }
}
