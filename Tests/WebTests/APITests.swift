// The JSON API against the history it reads: every endpoint, every error (docs/design.md 3.6).

import AquavateProtocol
import BusTestSupport
import Foundation
import History
@testable import Reports
import Reminders
import TestFixtures
import Testing
import Timekeeping
@testable import Web

@Suite struct APITests {
    @Test func statusIsTheObjectOfStatusJSON() async throws {
        let fixture = try WebFixture()
        defer { fixture.remove() }
        try await fixture.withServer { port in
            let reply = try await RawHTTP.send(port: port, "GET", "/api/v1/status")
            #expect(reply.status == 200)
            #expect(reply.headers["content-type"]?.hasPrefix("application/json") == true)
            let expected = try StatusReport.make(history: fixture.history, configuration: fixture.configuration, at: WebFixture.now).jsonLine()
            let want = try JSONSerialization.jsonObject(with: Data(expected.utf8)) as! NSDictionary
            #expect(reply.jsonObject as NSDictionary == want)
            #expect(reply.jsonObject["event"] as? String == "status")
        }
    }

    @Test func daysAreTheHistorysDayTotalsPerBottle() async throws {
        let fixture = try WebFixture()
        defer { fixture.remove() }
        try await fixture.withServer { port in
            let reply = try await RawHTTP.send(port: port, "GET", "/api/v1/days?days=365")
            #expect(reply.status == 200)
            let days = reply.jsonArray
            // 8 days (7 past and today) per bottle.
            #expect(days.count == 16)
            for bottle in [WebFixture.ana, WebFixture.bea] {
                let totals = try fixture.history.drinks.dayTotals(timeZone: WebFixture.zone, bottle: bottle)
                let listed = days.filter { $0["bottle"] as? String == bottle }
                #expect(listed.map { $0["date"] as? String } == totals.map { $0.date.description })
                #expect(listed.map { $0["total_ml"] as? Int } == totals.map(\.totalML))
                #expect(listed.allSatisfy { $0["event"] as? String == "day" })
            }
            #expect(days.first { $0["bottle"] as? String == WebFixture.ana }?["goal_ml"] as? Int == 2000)
            let today = days.filter { $0["date"] as? String == "2026-11-20" }
            #expect(Set(today.map { $0["total_ml"] as? Int }) == [750, 400])

            let one = try await RawHTTP.send(port: port, "GET", "/api/v1/days?days=1&bottle=\(WebFixture.bea)")
            #expect(one.jsonArray.count == 1)
            #expect(one.jsonArray.first?["total_ml"] as? Int == 400)
        }
    }

    @Test func drinksAreTheDrinkEvents() async throws {
        let fixture = try WebFixture()
        defer { fixture.remove() }
        try await fixture.withServer { port in
            let reply = try await RawHTTP.send(port: port, "GET", "/api/v1/drinks?days=1")
            #expect(reply.status == 200)
            let drinks = reply.jsonArray
            #expect(drinks.count == 4)
            #expect(drinks.map { $0["amount_ml"] as? Int }.compactMap { $0 }.sorted() == [200, 250, 300, 400])
            #expect(drinks.allSatisfy { $0["event"] as? String == "drink" && $0["deleted"] as? Bool == false })
            let week = try await RawHTTP.send(port: port, "GET", "/api/v1/drinks?days=8&bottle=\(WebFixture.ana)")
            let stored = try fixture.history.drinks.storedDrinks(bottle: WebFixture.ana).count
            #expect(week.jsonArray.count == stored)
        }
    }

    /// Whatever the query, each endpoint answers 200 or a 4xx with a JSON `error`, and the
    /// server goes on answering (docs/design.md 3.6: never a crash).
    @Test func hostileQueriesAreAnsweredNeverCrashed() async throws {
        let fixture = try WebFixture()
        defer { fixture.remove() }
        let values = ["", "%", "%zz", "-0", "0x10", "1e9999", String(repeating: "9", count: 400), "\u{0}", "\n", "😀", "../../etc/passwd",
                      "' OR 1=1 --", "2026-02-30T00:00:00Z", "9999-12-31T23:59:59Z", "NaN", "-inf", "1.5", " 7", "aquavate:AA:00",
                      "2147483648", "-9223372036854775809", String(repeating: "A", count: 64)]
        try await fixture.withServer { port in
            for endpoint in ["/api/v1/drinks", "/api/v1/days", "/api/v1/status", "/api/v1/bottles"] {
                for parameter in ["limit", "before", "bottle", "days"] {
                    for value in values {
                        let encoded = value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
                        let path = "\(endpoint)?\(parameter)=\(encoded)" + (parameter == "limit" ? "" : "&limit=2")
                        let reply = try await RawHTTP.send(port: port, "GET", path)
                        #expect([200, 400, 404].contains(reply.status), "\(path): \(reply.status)")
                        if reply.status != 200 {
                            #expect(reply.error?.isEmpty == false, "\(path): \(reply.body)")
                        } else {
                            #expect(reply.json != nil, "\(path): not JSON")
                        }
                    }
                }
            }
            #expect(try await RawHTTP.send(port: port, "GET", "/api/v1/status").status == 200)
        }
    }

    @Test func commandsGoThroughTheBottleQueue() async throws {
        let fixture = try WebFixture()
        defer { fixture.remove() }
        try await fixture.withServer { port in
            let json = [("Content-Type", "application/json")]
            let goal = try await RawHTTP.send(port: port, "POST", "/api/v1/commands", headers: json,
                                             body: #"{"command":"goal","goal_ml":2200,"bottle":"\#(WebFixture.ana)"}"#)
            #expect(goal.status == 202)
            #expect(goal.jsonObject["event"] as? String == "command")
            #expect(goal.jsonObject["status"] as? String == "pending")
            #expect(goal.jsonObject["goal_ml"] as? Int == 2200)
            #expect(goal.jsonObject["argument"] == nil, "numbers, not the stored text")
            #expect(try fixture.history.commands.all(bottle: WebFixture.ana, statuses: [.pending]).map(\.argument) == ["2200"])

            let record = try fixture.anaSecondDrinkToday
            let delete = try await RawHTTP.send(port: port, "POST", "/api/v1/commands", headers: json,
                                               body: #"{"command":"delete","record_id":\#(record),"bottle":"\#(WebFixture.ana)"}"#)
            #expect(delete.status == 202)
            #expect(try fixture.history.drinks.currentDrink(bottle: WebFixture.ana, recordID: record)?.deleted == true)
            let days = try await RawHTTP.send(port: port, "GET", "/api/v1/days?days=1&bottle=\(WebFixture.ana)")
            #expect(days.jsonArray.first?["total_ml"] as? Int == 450)

            let tare = try await RawHTTP.send(port: port, "POST", "/api/v1/commands", headers: json, body: #"{"command":"tare","bottle":"\#(WebFixture.bea)"}"#)
            #expect(tare.status == 202)
            let shake = try await RawHTTP.send(port: port, "POST", "/api/v1/commands", headers: json,
                                              body: #"{"command":"shake-to-empty","on":true,"bottle":"\#(WebFixture.bea)"}"#)
            #expect(shake.status == 202)
        }
    }

    /// Every refusal: the status, and a JSON `error` that says why.
    @Test func badRequestsAreRefusedWithAJSONError() async throws {
        let fixture = try WebFixture()
        defer { fixture.remove() }
        try await fixture.withServer { port in
            let json = [("Content-Type", "application/json")]
            let cases: [(String, String, [(String, String)], String?, Int, String)] = [
                ("GET", "/nowhere", [], nil, 404, "no such page"),
                ("DELETE", "/api/v1/days", [], nil, 405, "not allowed"),
                ("GET", "/api/v1/commands", [], nil, 405, "use POST"),
                ("GET", "/api/v1/days?days=0", [], nil, 400, "days must be"),
                ("GET", "/api/v1/days?days=abc", [], nil, 400, "days must be"),
                ("GET", "/api/v1/days?days=99999999999999999999999", [], nil, 400, "days must be"),
                ("GET", "/api/v1/drinks?days=-1", [], nil, 400, "days must be"),
                ("GET", "/api/v1/days?bottle=nobody", [], nil, 404, "no bottle nobody"),
                ("GET", "/api/v1/status?bottle=nobody", [], nil, 404, "no bottle nobody"),
                ("GET", "/api/v1/status?bottle=", [], nil, 400, "bottle must be"),
                ("GET", "/api/v1/status?bottle=%00%0a", [], nil, 400, "bottle must be"),
                ("GET", "/api/v1/status?bottle=" + String(repeating: "A", count: 65), [], nil, 400, "bottle must be"),
                ("GET", "/api/v1/drinks?bottle=%3Cscript%3E", [], nil, 400, "bottle must be"),
                ("GET", "/api/v1/drinks?bottle=nobody", [], nil, 404, "no bottle nobody"),
                ("GET", "/api/v1/drinks?limit=0", [], nil, 400, "limit must be"),
                ("GET", "/api/v1/drinks?limit=10001", [], nil, 400, "limit must be"),
                ("GET", "/api/v1/drinks?limit=ten", [], nil, 400, "limit must be"),
                ("GET", "/api/v1/drinks?limit=", [], nil, 400, "limit must be"),
                ("GET", "/api/v1/drinks?limit=99999999999999999999999", [], nil, 400, "limit must be"),
                ("GET", "/api/v1/drinks?before=yesterday", [], nil, 400, "before must be"),
                ("GET", "/api/v1/drinks?before=0", [], nil, 400, "before must be"),
                ("GET", "/api/v1/drinks?before=-5", [], nil, 400, "before must be"),
                ("GET", "/api/v1/drinks?before=4294967296", [], nil, 400, "before must be"),
                ("GET", "/api/v1/drinks?before=1e400", [], nil, 400, "before must be"),
                ("GET", "/api/v1/drinks?before=2026-11-20", [], nil, 400, "before must be"),
                ("GET", "/api/v1/drinks?before=2026-11-20T10:00:00", [], nil, 400, "before must be"),
                ("GET", "/api/v1/drinks?before=", [], nil, 400, "before must be"),
                ("POST", "/api/v1/commands", json, "{nonsense", 400, "JSON object"),
                ("POST", "/api/v1/commands", json, "[1,2]", 400, "JSON object"),
                ("POST", "/api/v1/commands", json, #"{"command":"explode"}"#, 400, "unknown command"),
                ("POST", "/api/v1/commands", json, #"{"command":"goal"}"#, 400, "goal_ml"),
                ("POST", "/api/v1/commands", json, #"{"command":"goal","goal_ml":"lots","bottle":"AQ-ANA-0001"}"#, 400, "wrong type"),
                ("POST", "/api/v1/commands", json, #"{"command":"goal","goal_ml":1.5e300,"bottle":"AQ-ANA-0001"}"#, 400, "JSON object"),
                ("POST", "/api/v1/commands", json, #"{"command":"goal","goal_ml":true,"bottle":"AQ-ANA-0001"}"#, 400, "wrong type"),
                ("POST", "/api/v1/commands", json, #"{"command":"shake-to-empty","on":1,"bottle":"AQ-ANA-0001"}"#, 400, "wrong type"),
                ("POST", "/api/v1/commands", json, #"{"command":"goal","goal_ml":50,"bottle":"AQ-ANA-0001"}"#, 422, "1000 to 4000"),
                ("POST", "/api/v1/commands", json, #"{"command":"goal","goal_ml":2000}"#, 422, "name one"),
                ("POST", "/api/v1/commands", json, #"{"command":"delete","record_id":99999,"bottle":"AQ-ANA-0001"}"#, 422, "no drink #99999"),
                ("POST", "/api/v1/commands", json, #"{"command":"tare","bottle":"nobody"}"#, 422, "no bottle nobody"),
                ("POST", "/api/v1/commands", [("Content-Type", "text/plain")], #"{"command":"tare"}"#, 415, "application/json"),
                ("POST", "/api/v1/commands", json, String(repeating: " ", count: 20_000) + "{}", 413, "over 16384 bytes"),
                ("POST", "/actions/goal", [("Content-Type", "application/json")], "{}", 415, "x-www-form-urlencoded"),
            ]
            for (method, path, headers, body, status, words) in cases {
                let reply = try await RawHTTP.send(port: port, method, path, headers: headers, body: body)
                #expect(reply.status == status, "\(method) \(path) \(body?.prefix(60) ?? "")")
                #expect(reply.headers["content-type"]?.hasPrefix("application/json") == true, "\(method) \(path)")
                #expect(reply.error?.contains(words) == true, "\(method) \(path): \(reply.error ?? reply.body)")
            }
            let method = try await RawHTTP.send(port: port, "PUT", "/api/v1/status")
            #expect(method.headers["allow"] == "GET, HEAD")
            // Nothing was queued by any of them, and the server still answers.
            #expect(try fixture.history.commands.all(statuses: [.pending]).isEmpty)
            #expect(try await RawHTTP.send(port: port, "GET", "/api/v1/status").status == 200)
        }
    }

    /// `?bottle=` picks the bottle by serial or address, in any case; without it, the most
    /// recently seen (Ana's).
    @Test func statusAnswersTheBottleAsked() async throws {
        let fixture = try WebFixture()
        defer { fixture.remove() }
        try await fixture.withServer { port in
            func expected(_ id: String?) throws -> NSDictionary {
                let bottle = try id.map { try #require(try fixture.history.bottles.bottle(id: $0)) }
                let line = try StatusReport.make(history: fixture.history, configuration: fixture.configuration, at: WebFixture.now, bottle: bottle).jsonLine()
                return try JSONSerialization.jsonObject(with: Data(line.utf8)) as! NSDictionary
            }
            for (query, id) in [(WebFixture.bea, WebFixture.bea), ("aa:00:00:00:00:02", WebFixture.bea), (WebFixture.ana.lowercased(), WebFixture.ana)] {
                let reply = try await RawHTTP.send(port: port, "GET", "/api/v1/status?bottle=\(query)")
                #expect(reply.status == 200)
                #expect(reply.jsonObject as NSDictionary == (try expected(id)), "\(query)")
                #expect(reply.jsonObject["bottle"] as? String == id)
            }
            let bea = try await RawHTTP.send(port: port, "GET", "/api/v1/status?bottle=\(WebFixture.bea)")
            #expect(bea.jsonObject["goal_ml"] as? Int == 2500)
            let plain = try await RawHTTP.send(port: port, "GET", "/api/v1/status")
            #expect(plain.jsonObject["bottle"] as? String == WebFixture.ana)
            let unknown = try await RawHTTP.send(port: port, "GET", "/api/v1/status?bottle=AQ-NOPE")
            #expect(unknown.status == 404)
            #expect(unknown.error?.contains("no bottle AQ-NOPE") == true)
        }
    }

    @Test func bottlesListsTheStatusOfEveryBottle() async throws {
        let fixture = try WebFixture()
        defer { fixture.remove() }
        try await fixture.withServer { port in
            let reply = try await RawHTTP.send(port: port, "GET", "/api/v1/bottles")
            #expect(reply.status == 200)
            let each = try StatusReport.makeEach(history: fixture.history, configuration: fixture.configuration, at: WebFixture.now)
            let want = try each.map { try JSONSerialization.jsonObject(with: Data($0.jsonLine().utf8)) as! NSDictionary }
            #expect(reply.jsonArray.map { $0 as NSDictionary } == want)
            #expect(reply.jsonArray.map { $0["bottle"] as? String } == [WebFixture.ana, WebFixture.bea], "most recently seen first")
            #expect(Set(reply.jsonArray.compactMap { $0["goal_ml"] as? Int }) == [2000, 2500])
        }
        // Before any bottle: an empty list, not a status of nobody.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("web-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let history = try DrinkHistory(path: folder.appendingPathComponent("history.sqlite").path, durability: .normal)
        let context = WebContext(history: history, baseConfiguration: fixture.configuration, clock: ManualClock(WebFixture.now))
        #expect(try JSONAPI.bottles(context) == "[]")
    }

    /// Following the `Link` of each page lists every drink once, oldest first within a page, none
    /// past `limit`; a page never splits a second that two bottles drank in.
    @Test func drinksPageByLinkWithoutLosingOrRepeatingOne() async throws {
        let fixture = try WebFixture()
        defer { fixture.remove() }
        // Both bottles in the same second, twice, around today's drinks.
        let shared = LocalDay(containing: WebFixture.now, timeZone: WebFixture.zone).interval(in: WebFixture.zone).start + .seconds(10 * 3600)
        _ = try fixture.history.drinks.store([WebFixture.record(500, at: shared, ml: 111), WebFixture.record(501, at: shared + .seconds(1), ml: 112)],
                                      bottle: WebFixture.ana, at: WebFixture.now)
        _ = try fixture.history.drinks.store([WebFixture.record(500, at: shared, ml: 121), WebFixture.record(501, at: shared + .seconds(1), ml: 122)],
                                      bottle: WebFixture.bea, at: WebFixture.now)
        try await fixture.withServer { port in
            let all = try await RawHTTP.send(port: port, "GET", "/api/v1/drinks?days=8").jsonArray
            #expect(all.count == 50)
            #expect(try await RawHTTP.send(port: port, "GET", "/api/v1/drinks?days=8").headers["link"] == nil)
            func key(_ drink: [String: Any]) -> String { "\(drink["bottle"] ?? "") \(drink["record_id"] ?? "") \(drink["time"] ?? "")" }
            for limit in [1, 2, 3, 7, 50, 60] {
                var path: String? = "/api/v1/drinks?days=8&limit=\(limit)"
                var listed: [[String: Any]] = []
                var pages = 0
                while let next = path {
                    let reply = try await RawHTTP.send(port: port, "GET", next)
                    #expect(reply.status == 200, "\(next): \(reply.body)")
                    let page = reply.jsonArray
                    // Only a second with more drinks than the limit is answered whole (limit 1).
                    #expect(page.count <= max(limit, 2), "\(next)")
                    #expect(!page.isEmpty)
                    #expect(page.map { $0["time"] as! String } == page.map { $0["time"] as! String }.sorted(), "oldest first")
                    listed = page + listed
                    path = reply.headers["link"].flatMap { link in
                        link.hasSuffix(#">; rel="next""#) && link.hasPrefix("<") ? String(link.dropFirst().dropLast(#">; rel="next""#.count)) : nil
                    }
                    pages += 1
                    if pages > 100 { Issue.record("the links never end"); break }
                }
                #expect(listed.map(key) == all.map(key), "limit \(limit): \(listed.count) of \(all.count)")
                if limit >= 50 { #expect(pages == 1) }
            }
            // `before` as a time: Unix seconds or ISO 8601, strictly earlier.
            let seconds = Int((shared + .seconds(1)).secondsSince1970)
            let iso = try await RawHTTP.send(port: port, "GET", "/api/v1/drinks?days=1&before=2026-11-20T09:00:01Z").jsonArray
            let unix = try await RawHTTP.send(port: port, "GET", "/api/v1/drinks?days=1&before=\(seconds)").jsonArray
            #expect(iso.map(key) == unix.map(key))
            #expect(unix.map { $0["amount_ml"] as? Int } == [250, 400, 111, 121])
            let one = try await RawHTTP.send(port: port, "GET", "/api/v1/drinks?days=1&before=\(seconds)&limit=1&bottle=\(WebFixture.bea)")
            #expect(one.jsonArray.map { $0["amount_ml"] as? Int } == [121])
            #expect(one.headers["link"] == "</api/v1/drinks?days=1&limit=1&before=\(Int(shared.secondsSince1970))&bottle=\(WebFixture.bea)>; rel=\"next\"")
        }
    }

    /// `pending_commands` is data (docs/design.md 3.5): `command` events with the value under its
    /// own key, in `status --json`, `/api/v1/status` and `bottle info --json`'s `pending`.
    @Test func pendingCommandsAreCommandObjects() async throws {
        let fixture = try WebFixture()
        defer { fixture.remove() }
        let control = BottleControl(history: fixture.history)
        _ = try control.queue(.goal(2600), bottle: WebFixture.ana, at: WebFixture.now)
        _ = try control.queue(.delete(recordID: Int(try fixture.anaSecondDrinkToday)), bottle: WebFixture.ana, at: WebFixture.now)
        _ = try control.queue(.shakeToEmpty(false), bottle: WebFixture.ana, at: WebFixture.now)
        _ = try control.queue(.tare, bottle: WebFixture.ana, at: WebFixture.now)
        try await fixture.withServer { port in
            // Ana's is the most recently seen bottle.
            let status = try await RawHTTP.send(port: port, "GET", "/api/v1/status").jsonObject
            let pending = try #require(status["pending_commands"] as? [[String: Any]])
            #expect(pending.map { $0["command"] as? String } == ["goal", "delete", "shake-to-empty", "tare"])
            #expect(pending.allSatisfy { $0["event"] as? String == "command" && $0["status"] as? String == "pending"
                && $0["bottle"] as? String == WebFixture.ana && $0["id"] is Int && $0["argument"] == nil })
            #expect(pending[0]["goal_ml"] as? Int == 2600)
            #expect(pending[1]["record_id"] as? Int == Int(try fixture.anaSecondDrinkToday))
            #expect(pending[2]["on"] as? Bool == false)
            #expect(pending[3].keys.filter { ["goal_ml", "record_id", "on"].contains($0) }.isEmpty)
        }
        // `bottle info --json`'s `bottle` event carries the same objects.
        let stored = try fixture.history.commands.all(bottle: WebFixture.ana, statuses: [.pending])
        let line = BridgeEvent.bottle(.init(address: "AA:00:00:00:00:01", pending: stored.map(BridgeEvent.CommandEvent.init))).jsonLine()
        let info = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let pending = try #require(info["pending"] as? [[String: Any]])
        #expect(pending.first?["goal_ml"] as? Int == 2600)
        #expect(pending.allSatisfy { $0["argument"] == nil })
        // The text of `status` still says them in words.
        let text = try StatusReport.make(history: fixture.history, configuration: fixture.configuration, at: WebFixture.now).textLines()
        #expect(text.contains { $0.hasPrefix("Pending bottle commands: goal 2600 ml (#") })
    }

    /// Read by Prometheus' own parser (prometheus_client), not by our expectation of the format:
    /// base units (litres, a 0–1 ratio, seconds), the pace's deficit and urgency, per bottle.
    @Test func metricsArePrometheusTextInBaseUnits() async throws {
        let fixture = try WebFixture()
        defer { fixture.remove() }
        try await fixture.withServer { port in
            let reply = try await RawHTTP.send(port: port, "GET", "/metrics")
            #expect(reply.status == 200)
            #expect(reply.headers["content-type"]?.hasPrefix("text/plain") == true)
            let samples = try await PythonCheckers.prometheusSamples(reply.body)
            let ana = #"bottle="AQ-ANA-0001""#, bea = #"bottle="AQ-BEA-0002""#
            #expect(samples["aquavate_today_liters{\(ana)}"] == 0.75, "\(reply.body)")
            #expect(samples["aquavate_today_liters{\(bea)}"] == 0.4)
            #expect(samples["aquavate_goal_liters{\(ana)}"] == 2.0)
            #expect(samples["aquavate_goal_liters{\(bea)}"] == 2.5)
            // The deficit and urgency of `status` for each bottle (the same pace, the same settings).
            for (label, id) in [(ana, WebFixture.ana), (bea, WebFixture.bea)] {
                let bottle = try #require(try fixture.history.bottles.bottle(id: id))
                let status = try StatusReport.make(history: fixture.history, configuration: fixture.configuration, at: WebFixture.now, bottle: bottle)
                #expect(status.deficitML > 0, "the fixture's afternoon is behind the pace")
                #expect(samples["aquavate_deficit_liters{\(label)}"] == Double(status.deficitML) / 1000)
                for state in Urgency.allCases {
                    #expect(samples["aquavate_urgency{\(label),state=\"\(state.rawValue)\"}"] == (state == status.urgency ? 1 : 0), "\(id) \(state)")
                }
            }
            #expect(samples["aquavate_drinks_total{\(ana)}"] == 24)
            #expect(samples["# TYPE aquavate_drinks"] == 1, "a counter")
            #expect(samples["aquavate_battery_ratio{\(ana)}"] == 0.81)
            #expect(samples["aquavate_bottle_level_liters{\(ana)}"] == 0.42)
            #expect(samples["aquavate_last_sync_timestamp_seconds{\(ana)}"] == (WebFixture.now - .seconds(600)).secondsSince1970)
            #expect(samples["aquavate_syncs_total{\(ana),outcome=\"complete\"}"] == 0)
            #expect(samples["aquavate_quarantined_records{\(ana)}"] == 0)
            #expect(samples["aquavate_stuck{\(ana)}"] == 0)
            #expect(samples["aquavate_pending_commands{\(ana)}"] == 0)
            // The old names in ml and percent are gone.
            #expect(!samples.keys.contains { $0.contains("_ml") || $0.contains("percent") })
            // The same figures are the same bytes (the registry's own order changes each time).
            for _ in 0..<5 { #expect(try await RawHTTP.send(port: port, "GET", "/metrics").body == reply.body) }
        }
    }

    @Test func theSyncTallyShowsInMetrics() async throws {
        let fixture = try WebFixture()
        defer { fixture.remove() }
        let tally = SyncTally()
        tally.count(bottle: WebFixture.ana, outcome: "complete")
        tally.count(bottle: WebFixture.ana, outcome: "complete")
        tally.count(bottle: WebFixture.ana, outcome: "interrupted")
        let context = WebContext(history: fixture.history, baseConfiguration: fixture.configuration, clock: ManualClock(WebFixture.now), syncs: tally)
        let text = String(decoding: try MetricsPage.render(context), as: UTF8.self)
        #expect(text.contains(#"aquavate_syncs_total{bottle="AQ-ANA-0001",outcome="complete"} 2"#))
        #expect(text.contains(#"aquavate_syncs_total{bottle="AQ-ANA-0001",outcome="interrupted"} 1"#))
    }

    @Test func theRefusedBrokerCommandsTheDaemonSavedShowInMetrics() throws {
        let fixture = try WebFixture()
        defer { fixture.remove() }
        let context = WebContext(history: fixture.history, baseConfiguration: fixture.configuration, clock: ManualClock(WebFixture.now))
        #expect(!String(decoding: try MetricsPage.render(context), as: UTF8.self).contains("aquavate_mqtt_refused_commands_total"))
        try fixture.history.commands.saveRefused(["not_permitted": 2, "rate_limit": 0])
        let text = String(decoding: try MetricsPage.render(context), as: UTF8.self)
        #expect(text.contains(#"aquavate_mqtt_refused_commands_total{reason="not_permitted"} 2"#), "\(text)")
        #expect(text.contains(#"aquavate_mqtt_refused_commands_total{reason="rate_limit"} 0"#))
    }
}

/// A bottle's own setting is its value on every surface (docs/design.md 3.6: "every value is the
/// bottle's effective one"): a family saw 1800 in `status` and 2500 on the page.
@Suite struct EffectiveSettingsTests {
    @Test func aPerBottleGoalIsTheGoalOnStatusThePageTheAPIAndTheMetrics() throws {
        let fixture = try WebFixture()
        defer { fixture.remove() }
        // The bottle's own setting wins over the bottle's goal of 2000 and the global default.
        try fixture.history.settings.set("bottle.\(WebFixture.ana).daily_goal_ml", "1800")
        let context = WebContext(history: fixture.history, baseConfiguration: fixture.configuration, clock: ManualClock(WebFixture.now))
        let configuration = try context.configuration()
        let ana = try #require(try fixture.history.bottles.bottle(id: WebFixture.ana))
        let status = try StatusReport.make(history: fixture.history, configuration: configuration, at: WebFixture.now, bottle: ana)
        #expect(status.goalML == 1800)
        let metrics = String(decoding: try MetricsPage.render(context), as: UTF8.self)
        #expect(metrics.contains(#"aquavate_goal_liters{bottle="AQ-ANA-0001"} 1.8"#), "\(metrics)")
        #expect(metrics.contains(#"aquavate_goal_liters{bottle="AQ-BEA-0002"} 2.5"#), "the other bottle keeps its own")
        // The two goals under their own names (docs/design.md 3.7): the daily goal the day is
        // measured against, and the bottle's, which its display still shows.
        #expect(metrics.contains(#"aquavate_daily_goal_liters{bottle="AQ-ANA-0001"} 1.8"#), "\(metrics)")
        #expect(metrics.contains(#"aquavate_bottle_goal_liters{bottle="AQ-ANA-0001"} 2.0"#) || metrics.contains(#"aquavate_bottle_goal_liters{bottle="AQ-ANA-0001"} 2"#), "\(metrics)")
        #expect(status.bottleGoalML == 2000 && status.bottleGoalDiffers == 2000)
        #expect(status.jsonLine().contains(#""bottle_goal_ml":2000"#) && status.jsonLine().contains(#""daily_goal_ml":1800"#), "\(status.jsonLine())")
        let today = try #require(status.textLines().first { $0.hasPrefix("Today:") })
        #expect(today.hasSuffix("of 1800 ml (41%) · daily goal; the bottle shows 2000 ml"), "\(today)")
        let days = try JSONSerialization.jsonObject(with: Data(try JSONAPI.days(context, query: FormFields("days=1")).utf8)) as? [[String: Any]]
        #expect(days?.first { $0["bottle"] as? String == WebFixture.ana }?["goal_ml"] as? Int == 1800, "\(days ?? [])")
        let model = try DashboardModel.make(context)
        #expect(model.panels.first { $0.id == WebFixture.ana }?.goalML == 1800)
        #expect(model.panels.first { $0.id == WebFixture.bea }?.goalML == 2500)
    }
}

/// A quarantine and a stuck bottle (docs/design.md 3.4, 3.6) on the metrics and the page.
@Suite struct QuarantineOnTheWebTests {
    @Test func metricsAndThePageSayWhatIsQuarantinedAndWhoIsStuck() async throws {
        let fixture = try WebFixture()
        defer { fixture.remove() }
        let context = WebContext(history: fixture.history, baseConfiguration: fixture.configuration, clock: ManualClock(WebFixture.now))
        var text = String(decoding: try MetricsPage.render(context), as: UTF8.self)
        #expect(text.contains(#"aquavate_quarantined_records{bottle="AQ-ANA-0001"} 0"#), "\(text)")
        #expect(text.contains(#"aquavate_stuck{bottle="AQ-ANA-0001"} 0"#))

        let odd = DrinkRecord(recordID: 950, timestamp: 259_200, amountML: 180, bottleLevelML: 300, typeRaw: 0, flagsRaw: 0)
        _ = try fixture.history.drinks.storeChunk([odd], bottle: WebFixture.ana, at: WebFixture.now, bounds: RecordBounds(now: WebFixture.now.secondsSince1970))
        try fixture.history.bottles.update(id: WebFixture.ana) {
            $0.refusal = SyncRefusal(reason: "chunk 0 announces 255 chunks for a START of 5 record(s)", since: WebFixture.now - .seconds(600), connections: 3)
        }
        text = String(decoding: try MetricsPage.render(context), as: UTF8.self)
        #expect(text.contains(#"aquavate_quarantined_records{bottle="AQ-ANA-0001"} 1"#), "\(text)")
        #expect(text.contains(#"aquavate_stuck{bottle="AQ-ANA-0001"} 1"#))
        #expect(text.contains(#"aquavate_stuck{bottle="AQ-BEA-0002"} 0"#))

        let page = DashboardPage.render(try DashboardModel.make(context))
        #expect(page.contains("class=\"notice stuck\"") && page.contains("255 chunks"))
        #expect(page.contains("<span class=\"quarantined-count\">1</span>"))
    }
}

@Suite struct DrinkCountTests {
    @Test func theCountsFollowTheHistory() throws {
        let fixture = try WebFixture()
        defer { fixture.remove() }
        let counts = DrinkCounts()
        var bottles: Set<String> = [WebFixture.ana, WebFixture.bea]
        #expect(try counts.counts(drinks: fixture.history.drinks, bottles: bottles) == [WebFixture.ana: 24, WebFixture.bea: 22])
        _ = try fixture.history.drinks.store([WebFixture.record(900, at: WebFixture.now - .seconds(60), ml: 100),
                                       WebFixture.record(901, at: WebFixture.now - .seconds(30), ml: 100)], bottle: WebFixture.ana, at: WebFixture.now)
        #expect(try counts.counts(drinks: fixture.history.drinks, bottles: bottles)[WebFixture.ana] == 26)
        // A deleted drink stays counted (a counter never goes down); a stored again one is not new.
        _ = try fixture.history.drinks.markDeleted(bottle: WebFixture.ana, recordID: 900, timestamp: UInt32((WebFixture.now - .seconds(60)).secondsSince1970), at: WebFixture.now)
        _ = try fixture.history.drinks.store([WebFixture.record(901, at: WebFixture.now - .seconds(30), ml: 100)], bottle: WebFixture.ana, at: WebFixture.now)
        #expect(try counts.counts(drinks: fixture.history.drinks, bottles: bottles)[WebFixture.ana] == 26)
        _ = try fixture.history.drinks.store([WebFixture.record(1, at: WebFixture.now, ml: 100)], bottle: "AQ-NEW", at: WebFixture.now)
        bottles.insert("AQ-NEW")
        #expect(try counts.counts(drinks: fixture.history.drinks, bottles: bottles) == [WebFixture.ana: 26, WebFixture.bea: 22, "AQ-NEW": 1])
    }
}
