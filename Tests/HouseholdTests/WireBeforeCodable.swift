// What the code before Codable wrote (JSONValue and JSONSerialization, commit b8a6727), recorded
// from it: one `name<TAB>text` per line. The wire and the saved state must not change.

enum WireBeforeCodable {
    static let lines = #"""
claim/want-67	{"phase":"want","rssi":-67}
claim/hold0	{"phase":"hold","rssi":0}
claim/hold-127	{"phase":"hold","rssi":-127}
syncer/1764240000.0	{"bridge":"kitchen-pi","time":"1764240000.0"}
pong/1764240000.0	{"instance":"a1b2-\u0027c\u0027","synchronised":true,"time":"1764240000.0"}
delivered/1764240000.0	{"bottle":"F4:12:FA:00:A3:F2","id":"hydration-7","kind":"reminder","time":"1764240000.0"}
syncer/1764240000.125	{"bridge":"kitchen-pi","time":"1764240000.125"}
pong/1764240000.125	{"instance":"a1b2-\u0027c\u0027","synchronised":true,"time":"1764240000.125"}
delivered/1764240000.125	{"bottle":"F4:12:FA:00:A3:F2","id":"hydration-7","kind":"reminder","time":"1764240000.125"}
syncer/1e-07	{"bridge":"kitchen-pi","time":"1e-07"}
pong/1e-07	{"instance":"a1b2-\u0027c\u0027","synchronised":false,"time":"1e-07"}
delivered/1e-07	{"bottle":"F4:12:FA:00:A3:F2","id":"hydration-7","kind":"reminder","time":"1e-07"}
syncer/1e+21	{"bridge":"kitchen-pi","time":"1e+21"}
pong/1e+21	{"instance":"a1b2-\u0027c\u0027","synchronised":true,"time":"1e+21"}
delivered/1e+21	{"bottle":"F4:12:FA:00:A3:F2","id":"hydration-7","kind":"reminder","time":"1e+21"}
hello/empty	{"epoch":"e1a2","have":{}}
hello/have	{"epoch":"e1a2","have":{"attic_2":"0.003","kitchen-pi":"1764240000.5","study":"1764240001.0"}}
"""#

    /// name -> text.
    static var texts: [String: String] {
        var texts: [String: String] = [:]
        for line in lines.split(separator: "\n") {
            let parts = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
            texts[String(parts[0])] = String(parts[1])
        }
        return texts
    }
}
