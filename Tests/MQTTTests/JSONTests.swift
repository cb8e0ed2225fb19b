// The JSON of the MQTT payloads (`JSONValue`): the writer's key order and escapes, and a parser
// that reads back what the writer writes and refuses malformed text and invalid UTF-8.

@testable import MQTT
import Testing

@Suite struct JSONTests {
    @Test func writerSortsKeysAndEscapes() {
        let value = JSONValue.object([
            "b": .array([.int(-3), .bool(true), .null]),
            "a": .string("quote \" backslash \\ newline \n tab \t apostrophe ' bell \u{07} drop 💧"),
        ])
        #expect(value.text == #"{"a":"quote \" backslash \\ newline \n tab \t apostrophe \u0027 bell \u0007 drop 💧","b":[-3,true,null]}"#)
    }

    @Test func parserRoundTripsWhatTheWriterWrites() {
        let value = JSONValue.object([
            "text": .string("Goal Reached! 💧 \"yes\" \\ '"), "n": .int(-42), "list": .array([.bool(false), .null, .object([:])]),
        ])
        #expect(JSONValue.parse(Array(value.text.utf8)) == value)
    }

    @Test func parserReadsEscapesSurrogatesAndNonIntegers() {
        #expect(JSONValue.parse(Array(#"["\ud83d\udca7","\u00e9","\/",1.5,2e3,0,-0,true]"#.utf8))
            == .array([.string("💧"), .string("é"), .string("/"), .string("1.5"), .int(2000), .int(0), .int(0), .bool(true)]))
    }

    @Test(arguments: ["", "{", "}", "{\"a\" 1}", "{a:1}", "01", "1.", "-", "\"unterminated", "\"bad \\x escape\"",
                      "\"raw \n newline\"", "tru", "nul", "[1] [2]"])
    func parserRefusesMalformedText(_ text: String) {
        #expect(JSONValue.parse(Array(text.utf8)) == nil)
    }

    @Test func parserRefusesInvalidUTF8InStrings() {
        #expect(JSONValue.parse([0x22, 0xC3, 0x28, 0x22]) == nil)
    }
}
