// A drink the bottle did not measure, added by hand from a person's panel (`/actions/drink`)
// or the API (`POST /api/v1/drinks`): stored as manual for that bottle alone, counted in its
// day, marked as added by hand on the page and `"manual":true` in the API, deleted with no
// command for the bottle; bad input is a 400 with one line and stores nothing.

import BusTestSupport
import Foundation
import History
import Locking
import TestFixtures
import Testing
import Timekeeping
@testable import Web

@Suite struct ManualDrinkWebTests {
    static let browser = [("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "text/html,application/xhtml+xml,*/*;q=0.8")]
    static let script = [("Content-Type", "application/x-www-form-urlencoded")]
    static let json = [("Content-Type", "application/json")]

    static func today(_ bottle: String, port: Int) async throws -> Int? {
        try await RawHTTP.send(port: port, "GET", "/api/v1/status?bottle=\(bottle)").jsonObject["today_ml"] as? Int
    }

    @Test("the form of Leo's panel adds a manual drink to Leo's day alone, marked on the page")
    func theFormAddsToItsOwnBottle() async throws {
        let fixture = try WebFixture()
        defer { fixture.remove() }
        try await fixture.withServer { port in
            let page = try await RawHTTP.send(port: port, "GET", "/").body
            let panel = try #require(PageReading.panel(of: WebFixture.bea, in: page))
            #expect(panel.contains("action=\"/actions/drink\""), "the panel has the form")
            #expect(!panel.contains("class=\"manual\""))
            let ana = try await Self.today(WebFixture.ana, port: port)
            let bea = try #require(try await Self.today(WebFixture.bea, port: port))

            let posted = try await RawHTTP.send(port: port, "POST", "/actions/drink", headers: Self.browser,
                                                body: "bottle=\(WebFixture.bea)&volume_ml=250&time=")
            #expect(posted.status == 303, "\(posted.body)")
            let location = try #require(posted.headers["location"])
            #expect(location == "/?done=drink-added&amount_ml=250&time=\(Int(WebFixture.now.secondsSince1970))")
            #expect(try await Self.today(WebFixture.bea, port: port) == bea + 250)
            #expect(try await Self.today(WebFixture.ana, port: port) == ana, "the other person's day is untouched")
            #expect(try fixture.history.commands.all().isEmpty, "nothing for a bottle")

            let after = try await RawHTTP.send(port: port, "GET", location).body
            #expect(after.contains("Added 250 ml at"))
            let marked = try #require(PageReading.panel(of: WebFixture.bea, in: after))
            #expect(marked.contains("250 ml <span class=\"manual\">(added by hand)</span>"))

            // Its delete, from the row's form: no command, no undo, said so.
            let added = try #require(try fixture.history.drinks.storedDrinks(bottle: WebFixture.bea).first(where: \.drink.manual))
            #expect(marked.contains("name=\"record_id\" value=\"\(added.recordID)\""), "the row's form names its id")
            let deleted = try await RawHTTP.send(port: port, "POST", "/actions/delete", headers: Self.browser,
                                                 body: "bottle=\(WebFixture.bea)&record_id=\(added.recordID)")
            #expect(deleted.headers["location"] == "/?done=manual-deleted", "\(deleted.status) \(deleted.body)")
            #expect(try await RawHTTP.send(port: port, "GET", "/?done=manual-deleted").body.contains("The drink added by hand is deleted."))
            #expect(try await Self.today(WebFixture.bea, port: port) == bea)
            #expect(try fixture.history.commands.all().isEmpty)
        }
    }

    @Test("POST /api/v1/drinks answers the manual drink event (201); GET lists it manual; its delete queues nothing")
    func theAPIAddsListsAndDeletes() async throws {
        let fixture = try WebFixture()
        defer { fixture.remove() }
        try await fixture.withServer { port in
            let time = ISO8601Text.formatWithMilliseconds(WebFixture.now + .seconds(-600))
            let added = try await RawHTTP.send(port: port, "POST", "/api/v1/drinks", headers: Self.json,
                                               body: #"{"amount_ml":330,"time":"\#(time)","bottle":"\#(WebFixture.ana)"}"#)
            #expect(added.status == 201, "\(added.body)")
            #expect(added.jsonObject["manual"] as? Bool == true && added.jsonObject["amount_ml"] as? Int == 330)
            let recordID = try #require(added.jsonObject["record_id"] as? Int)
            #expect(recordID >= 2_147_483_648 + 65_536, "an id of this bridge's own space")
            #expect(added.jsonObject["time"] as? String == time)

            let listed = try await RawHTTP.send(port: port, "GET", "/api/v1/drinks?bottle=\(WebFixture.ana)").jsonArray
            #expect(listed.filter { $0["manual"] as? Bool == true }.map { $0["amount_ml"] as? Int } == [330])
            #expect(listed.filter { $0["manual"] as? Bool == false }.count == listed.count - 1, "every drink says whether it is manual")

            let before = try #require(try await Self.today(WebFixture.ana, port: port))
            let deleted = try await RawHTTP.send(port: port, "POST", "/api/v1/commands", headers: Self.json,
                                                 body: #"{"command":"delete","record_id":\#(recordID),"bottle":"\#(WebFixture.ana)"}"#)
            #expect(deleted.status == 202, "\(deleted.body)")
            #expect(deleted.jsonObject["event"] as? String == "drink" && deleted.jsonObject["deleted"] as? Bool == true)
            #expect(try fixture.history.commands.all().isEmpty, "no command for the bottle")
            #expect(try await Self.today(WebFixture.ana, port: port) == before - 330)
        }
    }

    @Test("the daemon beside the server is told whose drinks changed: added by the form and the API, deleted")
    func theDaemonIsTold() async throws {
        let fixture = try WebFixture()
        defer { fixture.remove() }
        let told = Locked<[String]>([])
        let context = WebContext(history: fixture.history, baseConfiguration: fixture.configuration, clock: ManualClock(WebFixture.now)) { bottle in
            told.withLock { $0.append(bottle) }
        }
        try await WebServing.withServer(context) { port in
            _ = try await RawHTTP.send(port: port, "POST", "/actions/drink", headers: Self.browser, body: "bottle=\(WebFixture.bea)&volume_ml=200")
            let added = try await RawHTTP.send(port: port, "POST", "/api/v1/drinks", headers: Self.json,
                                               body: #"{"amount_ml":100,"bottle":"\#(WebFixture.ana)"}"#)
            let recordID = try #require(added.jsonObject["record_id"] as? Int)
            _ = try await RawHTTP.send(port: port, "POST", "/api/v1/commands", headers: Self.json,
                                       body: #"{"command":"delete","record_id":\#(recordID),"bottle":"\#(WebFixture.ana)"}"#)
            // Refused: nobody is told.
            _ = try await RawHTTP.send(port: port, "POST", "/api/v1/drinks", headers: Self.json, body: #"{"amount_ml":0,"bottle":"\#(WebFixture.ana)"}"#)
        }
        #expect(told.withLock { $0 } == [WebFixture.bea, WebFixture.ana, WebFixture.ana])
    }

    @Test("bad input: a 400 with one line, nothing stored", arguments: [
        #"{"amount_ml":0}"#, #"{"amount_ml":5001}"#, #"{"amount_ml":"250"}"#, #"{"time":"2026-11-20T10:00:00Z"}"#,
        #"{"amount_ml":250,"time":"yesterday"}"#, #"{"amount_ml":250,"time":"2999-01-01T00:00:00Z"}"#,
        #"{"amount_ml":250,"bottle":"AQ-NONE-0009"}"#, #"{"amount_ml":250}"#, "[]",
    ])
    func badInputIsA400(body: String) async throws {
        let fixture = try WebFixture()
        defer { fixture.remove() }
        let count = try fixture.history.drinks.drinkCount()
        try await fixture.withServer { port in
            let reply = try await RawHTTP.send(port: port, "POST", "/api/v1/drinks", headers: Self.json, body: body)
            #expect(reply.status == 400, "\(body): \(reply.status) \(reply.body)")
            let error = try #require(reply.error, "\(reply.body)")
            #expect(!error.isEmpty && !error.contains("\n"))
        }
        #expect(try fixture.history.drinks.drinkCount() == count)
    }

    @Test("the form: a volume out of range or a time not passed is a 400 for a script and an alert for a browser")
    func theFormRefuses() async throws {
        let fixture = try WebFixture()
        defer { fixture.remove() }
        let count = try fixture.history.drinks.drinkCount()
        try await fixture.withServer { port in
            for body in ["volume_ml=0", "volume_ml=9000", "volume_ml=many", "volume_ml=250&time=25:00", "volume_ml=250&time=2999-01-01T00:00:00Z"] {
                let form = "bottle=\(WebFixture.ana)&" + body
                let script = try await RawHTTP.send(port: port, "POST", "/actions/drink", headers: Self.script, body: form)
                #expect(script.status == 400, "\(body): \(script.status) \(script.body)")
                let browser = try await RawHTTP.send(port: port, "POST", "/actions/drink", headers: Self.browser, body: form)
                #expect(browser.headers["location"] == "/?done=drink-refused", "\(body)")
            }
            // No bottle: refused before anything is read.
            let unnamed = try await RawHTTP.send(port: port, "POST", "/actions/drink", headers: Self.script, body: "volume_ml=250")
            #expect(unnamed.status == 400)
            let shown = try await RawHTTP.send(port: port, "GET", "/?done=drink-refused").body
            #expect(shown.contains("role=\"alert\">That drink was not added"))
        }
        #expect(try fixture.history.drinks.drinkCount() == count)
    }
}
