// A choice setting is an enum's typed key: its choices are the enum's cases, each is read back as
// its case (no caller parses the text again, with a fallback of its own), and anything else is
// refused with the choices.

import Reminders
import Settings
import Testing

@Suite struct ChoiceSettingTests {
    @Test(arguments: MQTTDiscoveryFormat.allCases)
    func discoveryFormatIsReadAsItsCase(_ format: MQTTDiscoveryFormat) throws {
        var configuration = Configuration()
        try configuration.applyOverride("mqtt.discovery_format=\(format.rawValue)")
        #expect(configuration[Setting.mqttDiscoveryFormat] == format)
    }

    @Test func theDefaultsAreCases() {
        let configuration = Configuration()
        #expect(configuration[Setting.mqttDiscoveryFormat] == .device)
        #expect(configuration[Setting.mqttCommands] == .controls)
        #expect(configuration[Setting.deadlinePeriod] == DeadlineSettings().period)
        #expect(configuration[Setting.messagesLocale] == MessageSettings().locale)
    }

    @Test func aChoiceInAnyCaseIsKeptAsItsOption() throws {
        var configuration = Configuration()
        try configuration.applyOverride("mqtt.discovery_format=Entity")
        try configuration.applyOverride("rituals.terrain=Warm_Balanced")
        #expect(configuration.value("mqtt.discovery_format") == "entity" && configuration[Setting.mqttDiscoveryFormat] == .entity)
        #expect(configuration.value("rituals.terrain") == "warm_balanced" && configuration[Setting.ritualsTerrain] == .warmBalanced)
        #expect(Configuration()[Setting.ritualsTerrain] == nil, "unset: no terrain")
        #expect(Setting.ritualsTerrain.entry.kind.validChoices == "one of " + RitualTerrain.allCases.map(\.rawValue).joined(separator: ", "))
    }

    @Test func anotherValueIsRefusedWithTheChoices() {
        var configuration = Configuration()
        #expect {
            try configuration.applyOverride("mqtt.discovery_format=both")
        } throws: { error in
            "\(error)".contains("device") && "\(error)".contains("entity")
        }
        #expect(configuration[Setting.mqttDiscoveryFormat] == .device)
    }

    @Test func eachChoiceKeyOffersItsEnumsCases() {
        #expect(Setting.mqttDiscoveryFormat.entry.kind.validChoices == "one of device, entity")
        #expect(Setting.mqttCommands.entry.kind.validChoices == "one of " + MQTTCommandScope.allCases.map(\.rawValue).joined(separator: ", "))
        #expect(Setting.deadlinePeriod.entry.kind.validChoices == "one of " + DeadlinePeriod.allCases.map(\.rawValue).joined(separator: ", "))
        #expect(Setting.messagesLocale.entry.kind.validChoices == "one of " + MessageLocale.allCases.map(\.rawValue).joined(separator: ", "))
    }
}
