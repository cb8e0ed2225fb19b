// WireJSON, the one JSON writer and reader of what crosses the wire: keys sorted, the standard
// escapes, apostrophes as \u0027 (an ntfy action body sits in single quotes), nulls where a
// documented key has no value; and a reader that refuses what is not the message.

import BusTestSupport
import WireText
import Testing

@Suite struct WireJSONTests {
    struct Sample: WireMessage, Decodable, Equatable {
        var b: [Int]
        var a: String
        @Nullable var unknown: Int?
        var leftOut: Bool?
    }

    @Test func writerSortsKeysEscapesAndWritesNulls() {
        let sample = Sample(b: [-3, 0], a: "quote \" backslash \\ newline \n tab \t apostrophe ' bell \u{07} drop 💧 slash /", unknown: nil)
        #expect(sample.text == #"{"a":"quote \" backslash \\ newline \n tab \t apostrophe \u0027 bell \u0007 drop 💧 slash /","b":[-3,0],"unknown":null}"#)
    }

    @Test func theEventsAndTheWebWriteApostrophesAsTheyAre() {
        let sample = Sample(b: [], a: "Anna's bottle", unknown: nil)
        #expect(WireJSON.text(sample, apostrophes: .asIs) == #"{"a":"Anna's bottle","b":[],"unknown":null}"#)
        #expect(WireJSON.text(sample) == #"{"a":"Anna\u0027s bottle","b":[],"unknown":null}"#)
    }

    @Test func whatIsWrittenReadsBackToItself() throws {
        let sample = Sample(b: [Int.max, Int.min], a: "Goal Reached! 💧 \"yes\" \\ '", unknown: 7, leftOut: true)
        #expect(try WireJSON.decode(Sample.self, from: sample.text.utf8) == sample)
        // A documented null and a missing key both read as nil.
        #expect(try WireJSON.decode(Sample.self, from: #"{"a":"x","b":[]}"#.utf8) == Sample(b: [], a: "x", unknown: nil))
    }

    @Test(arguments: ["", "{", "}", "{\"a\" 1}", "{a:1}", "01", "1.", "-", "\"unterminated", "\"bad \\x escape\"",
                      "\"raw \n newline\"", "tru", "nul", "[1] [2]",
                      // Wrong types, a number too large, a missing key.
                      #"{"a":1,"b":[]}"#, #"{"a":"x","b":[1e30]}"#, #"{"a":"x","b":[99999999999999999999]}"#, #"{"a":"x"}"#,
                      #"{"a":"x","b":[],"unknown":"7"}"#])
    func readerRefusesWhatIsNotTheMessage(_ text: String) {
        #expect(WireJSON.read(Sample.self, from: text.utf8) == nil)
    }

    @Test func readerRefusesInvalidUTF8() {
        #expect(WireJSON.read(Sample.self, from: Array(#"{"a":""#.utf8) + [0xC3, 0x28] + Array(#"","b":[]}"#.utf8)) == nil)
    }

    @Test func theTestTreeReadsWhatWasSent() {
        #expect(JSONTree.parse(#"["\ud83d\udca7","\u00e9","\/",1.5,2e3,0,-0,true,null]"#)
            == .array([.string("💧"), .string("é"), .string("/"), .double(1.5), .int(2000), .int(0), .int(0), .bool(true), .null]))
    }
}
