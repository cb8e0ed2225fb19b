// How far the bottle's clock is from the bridge's (docs/protocol.md 5.2): a whole-hour offset is a
// USB time-zone setting, anything else beyond two minutes is drift, the placeholder says nothing.

import AquavateProtocol
import Testing

@Suite struct BottleClockOffsetTests {
    let now = 1_763_712_000.4

    @Test func placeholderAndInSync() {
        #expect(BottleClockOffset(bottleTime: 0, bridgeTime: now) == nil)
        #expect(BottleClockOffset(bottleTime: 1_763_712_100, bridgeTime: now) == .inSync)
        #expect(BottleClockOffset(bottleTime: 1_763_711_900, bridgeTime: now) == .inSync)
    }

    @Test func wholeHoursAreAZone() {
        #expect(BottleClockOffset(bottleTime: 1_763_712_000 + 7200 + 30, bridgeTime: now) == .zone(hours: 2))
        #expect(BottleClockOffset(bottleTime: 1_763_712_000 - 5 * 3600, bridgeTime: now) == .zone(hours: -5))
        #expect(BottleClockOffset(bottleTime: 1_763_712_000 + 14 * 3600, bridgeTime: now) == .zone(hours: 14))
        // Beyond −12…+14 no zone exists: drift.
        #expect(BottleClockOffset(bottleTime: 1_763_712_000 - 13 * 3600, bridgeTime: now) == .drift(seconds: -13 * 3600))
    }

    @Test func otherwiseDrift() {
        #expect(BottleClockOffset(bottleTime: 1_763_712_000 - 2700, bridgeTime: now) == .drift(seconds: -2700))
        #expect(BottleClockOffset(bottleTime: 1_763_712_000 + 3600 + 600, bridgeTime: now) == .drift(seconds: 4200))
    }

    @Test func storedSecondsRoundTrip() {
        for offset in [BottleClockOffset.inSync, .zone(hours: 3), .zone(hours: -12), .drift(seconds: 451)] {
            #expect(BottleClockOffset(storedSeconds: offset.seconds) == offset)
        }
        #expect(BottleClockOffset.inSync.problem == nil)
        #expect(BottleClockOffset.zone(hours: 2).problem?.contains("+2 h") == true)
        #expect(BottleClockOffset.drift(seconds: -2700).problem?.contains("45 min behind") == true)
    }

    @Test func identityTakesCleanStrings() {
        var identity = BottleIdentity()
        identity.take(.serial, Array("f4:12:fa:00:a3:f2".utf8) + [0])
        identity.take(.firmware, Array("0.1.0".utf8) + [0, 0x41, 0x42])
        identity.take(.model, Array("Puck v1.0".utf8))
        #expect(identity == BottleIdentity(serial: "F4:12:FA:00:A3:F2", firmware: "0.1.0", model: "Puck v1.0"))
        var bad = BottleIdentity()
        bad.take(.serial, Array("not-a-mac".utf8))
        #expect(bad.serial == nil, "a key must be stable: nothing that is not a MAC")
    }

    @Test func actionsRoundTripAndRefuseOutOfRange() {
        for action in [BottleAction.setGoal(2600), .deleteDrink(recordID: 17, timestamp: 1_763_712_000), .tare, .shakeToEmpty(true)] {
            #expect(BottleAction(kind: action.kind, argument: action.argument) == action)
        }
        #expect(BottleAction(kind: "goal", argument: "999") == nil)
        #expect(BottleAction(kind: "goal", argument: "4001") == nil)
        #expect(BottleAction(kind: "shake-to-empty", argument: "maybe") == nil)
        #expect(!BottleAction.tare.isIdempotent && BottleAction.setGoal(2000).isIdempotent)
    }
}
