// Commands arriving from a sink (the MQTT command topic): the JSON and plain-text forms accepted,
// and everything else refused with a reason rather than guessed at.

import Testing
@testable import Sinks

@Suite struct SinkCommandParserTests {
    @Test(arguments: [
        (#"{"config":{"key":"reminders.daily_limit","value":"false"}}"#, SinkCommand.configSet(key: "reminders.daily_limit", value: "false")),
        (#"{"config":{"key":"reminders.daily_limit","value":false}}"#, .configSet(key: "reminders.daily_limit", value: "false")),
        (#" {"config": {"value": 2500, "key": "goal_ml"}} "#, .configSet(key: "goal_ml", value: "2500")),
        (#"{"log":"vitamin-d"}"#, .log(type: "vitamin-d")),
        (#"{"log":{"type":"vitamin-d"}}"#, .log(type: "vitamin-d")),
        (#"{"log":{"type":"zinc","bottle":"F4:12:FA:00:A3:F2"}}"#, .log(type: "zinc", bottle: "F4:12:FA:00:A3:F2")),
        (#"{"action":{"id":"ritual-morning-2026-11-22","action":"did-this"}}"#,
         .action(notificationID: "ritual-morning-2026-11-22", actionID: "did-this")),
        ("config reminders.daily_limit false", .configSet(key: "reminders.daily_limit", value: "false")),
        ("config set reminders.daily_limit true", .configSet(key: "reminders.daily_limit", value: "true")),
        ("CONFIG messages.pool  my affirmations.txt ", .configSet(key: "messages.pool", value: "my affirmations.txt")),
        ("log vitamin-d\n", .log(type: "vitamin-d")),
        ("action ritual-evening-2026-11-22 start-ritual", .action(notificationID: "ritual-evening-2026-11-22", actionID: "start-ritual")),
    ])
    func acceptedForms(text: String, expected: SinkCommand) throws {
        #expect(try SinkCommandParser.parse(Array(text.utf8)) == expected)
    }

    @Test(arguments: [
        ("", SinkCommandError.empty),
        ("   \n", .empty),
        ("{\"log\":", .invalidJSON),
        ("{\"log\":\"vitamin-d\"", .invalidJSON),
        ("{\"log\":\"vitamin-d\"} trailing", .invalidJSON),
        ("[\"log\",\"vitamin-d\"]", .unknownCommand("[\"log\",\"vitamin-d\"]")),
        (String(repeating: "x", count: 100), .unknownCommand(String(repeating: "x", count: 40))),
        ("{\"drink\":250}", .unknownCommand("drink")),
        ("{\"log\":\"vitamin-d\",\"action\":{}}", .malformed(command: "JSON", expected: "one object with exactly one of config, log, action")),
        ("{\"log\":42}", .malformed(command: "log", expected: SinkCommandParser.logForms)),
        (#"{"log":{"type":"zinc","bottle":42}}"#, .malformed(command: "log", expected: SinkCommandParser.logForms)),
        (#"{"log":{"type":"zinc","bottle":"a/b"}}"#, .malformed(command: "log", expected: SinkCommandParser.logForms)),
        (#"{"log":{"type":"zinc","who":"x"}}"#, .malformed(command: "log", expected: SinkCommandParser.logForms)),
        ("{\"log\":\"vitamin d\"}", .malformed(command: "log", expected: SinkCommandParser.logForms)),
        ("{\"config\":{\"key\":\"goal_ml\"}}", .malformed(command: "config", expected: SinkCommandParser.configForms)),
        ("{\"config\":{\"key\":\"goal_ml\",\"value\":[1]}}", .malformed(command: "config", expected: SinkCommandParser.configForms)),
        ("{\"config\":{\"key\":\"goal_ml\",\"value\":\"1\",\"extra\":1}}", .malformed(command: "config", expected: SinkCommandParser.configForms)),
        ("{\"action\":{\"id\":\"x\"}}", .malformed(command: "action", expected: SinkCommandParser.actionForms)),
        ("reboot now", .unknownCommand("reboot")),
        ("log", .malformed(command: "log", expected: SinkCommandParser.logForms)),
        ("log vitamin-d twice", .malformed(command: "log", expected: SinkCommandParser.logForms)),
        ("action only-id", .malformed(command: "action", expected: SinkCommandParser.actionForms)),
        ("config goal_ml", .malformed(command: "config", expected: SinkCommandParser.configForms)),
        ("config set", .malformed(command: "config", expected: SinkCommandParser.configForms)),
        ("config goal/ml 3", .malformed(command: "config", expected: SinkCommandParser.configForms + ", KEY like reminders.daily_limit")),
        ("log vitamin-d\nlog zinc", .malformed(command: "text", expected: "one line")),
    ])
    func refusedForms(text: String, expected: SinkCommandError) {
        #expect(throws: expected) { try SinkCommandParser.parse(Array(text.utf8)) }
    }

    @Test func oversizedAndNonUTF8PayloadsAreRefused() {
        let long = Array("log ".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 5000)
        #expect(throws: SinkCommandError.tooLong(bytes: 5004, limit: 4096)) { try SinkCommandParser.parse(long) }
        #expect(throws: SinkCommandError.notUTF8) { try SinkCommandParser.parse([0x6C, 0x6F, 0x67, 0x20, 0xFF]) }
    }

    @Test func errorDescriptionsAreOneLineAndSayWhatIsExpected() {
        let errors: [SinkCommandError] = [.empty, .tooLong(bytes: 5000, limit: 4096), .notUTF8, .invalidJSON,
                                          .unknownCommand("reboot"), .malformed(command: "log", expected: SinkCommandParser.logForms)]
        for error in errors {
            #expect(!error.description.contains("\n"))
        }
        #expect(SinkCommandError.unknownCommand("reboot").description == "unknown command `reboot`: expected config, log, action, goal, delete, tare or shake-to-empty")
    }

    /// What a hostile or careless publisher may send on the command topic: each is refused
    /// whole with its one-line reason, nothing half-read and nothing crashed.
    @Test(arguments: [
        (#"{"goal":1e30}"#, SinkCommandError.malformed(command: "goal", expected: SinkCommandParser.goalForms)),
        (#"{"goal":99999999999999999999999}"#, .malformed(command: "goal", expected: SinkCommandParser.goalForms)),
        (#"{"goal":2.5}"#, .malformed(command: "goal", expected: SinkCommandParser.goalForms)),
        (#"{"goal":true}"#, .malformed(command: "goal", expected: SinkCommandParser.goalForms)),
        (#"{"goal":null}"#, .malformed(command: "goal", expected: SinkCommandParser.goalForms)),
        (#"{"goal":"2500 ml"}"#, .malformed(command: "goal", expected: SinkCommandParser.goalForms)),
        (#"{"goal":{"ml":2500}}"#, .malformed(command: "goal", expected: SinkCommandParser.goalForms)),
        (#"{"delete":-1}"#, .malformed(command: "delete", expected: SinkCommandParser.deleteForms)),
        (#"{"delete":"first"}"#, .malformed(command: "delete", expected: SinkCommandParser.deleteForms)),
        (#"{"tare":"true"}"#, .malformed(command: "tare", expected: SinkCommandParser.tareForms)),
        (#"{"tare":1}"#, .malformed(command: "tare", expected: SinkCommandParser.tareForms)),
        (#"{"shake_to_empty":1}"#, .malformed(command: "shake-to-empty", expected: SinkCommandParser.shakeForms)),
        (#"{"shake_to_empty":"ON!"}"#, .malformed(command: "shake-to-empty", expected: SinkCommandParser.shakeForms)),
        (#"{"config":{"key":"goal_ml","value":null}}"#, .malformed(command: "config", expected: SinkCommandParser.configForms)),
        (#"{"config":{"key":7,"value":"1"}}"#, .malformed(command: "config", expected: SinkCommandParser.configForms)),
        (#"{"config":"goal_ml 3"}"#, .malformed(command: "config", expected: SinkCommandParser.configForms)),
        (#"{"action":{"id":"n-1","action":"did-this","extra":true}}"#, .malformed(command: "action", expected: SinkCommandParser.actionForms)),
        (#"{"action":{"id":"n-1","action":7}}"#, .malformed(command: "action", expected: SinkCommandParser.actionForms)),
        (#"{"log":{"type":"zinc","bottle":null}}"#, .malformed(command: "log", expected: SinkCommandParser.logForms)),
        (#"{"log":{"type":"zinc","bottle":"F4:12","x":1}}"#, .malformed(command: "log", expected: SinkCommandParser.logForms)),
        ("{}", .malformed(command: "JSON", expected: "one object with exactly one of config, log, action")),
        (#"{"log":"vitamin-d"}{"tare":true}"#, .invalidJSON),
        (#"{"log":"\ud800"}"#, .malformed(command: "log", expected: SinkCommandParser.logForms)),
        ("{\"log\":" + String(repeating: "[", count: 2000) + String(repeating: "]", count: 2000) + "}", .invalidJSON),
    ])
    func hostileJSONIsRefusedWhole(text: String, expected: SinkCommandError) {
        #expect(throws: expected) { try SinkCommandParser.parse(Array(text.utf8)) }
        #expect(!expected.description.contains("\n"))
    }

    @Test func aConfigValueMayBeAnyScalarAndIsKeptAsWritten() throws {
        #expect(try SinkCommandParser.parse(#"{"config":{"key":"goal_ml","value":true}}"#) == .configSet(key: "goal_ml", value: "true"))
        #expect(try SinkCommandParser.parse(#"{"config":{"key":"goal_ml","value":-3}}"#) == .configSet(key: "goal_ml", value: "-3"))
        #expect(try SinkCommandParser.parse(#"{"config":{"key":"goal_ml","value":2.5}}"#) == .configSet(key: "goal_ml", value: "2.5"))
        #expect(try SinkCommandParser.parse(#"{"goal":" 2600 "}"#) == .bottle(.goal(2600)))
        #expect(try SinkCommandParser.parse(#"{"delete":"last"}"#) == .bottle(.deleteLast))
        #expect(try SinkCommandParser.parse(#"{"shake-to-empty":false}"#) == .bottle(.shakeToEmpty(false)))
        // Non-UTF-8 inside a JSON string is refused before it is read.
        #expect(throws: SinkCommandError.notUTF8) { try SinkCommandParser.parse(Array(#"{"log":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)) }
    }
}
