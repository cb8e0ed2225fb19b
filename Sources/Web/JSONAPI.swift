// The JSON API of docs/design.md 3.6: the status object of `status --json`, the `day` and `drink`
// events of 3.4 as arrays, and bottle commands through the same queue and checks as
// `aquavate-bridge bottle …` (`BottleControl`). /api/openapi.yaml describes exactly these.

import AquavateProtocol
import Foundation
import History
import Reminders
import Reminding
import Reports
import Timekeeping

enum JSONAPI {
    /// Longest span the API lists (ten years of days).
    static let maxDays = 3660

    /// Most drinks a page of `/api/v1/drinks` holds.
    static let maxLimit = 10_000

    /// `status --json`'s object for the bottle of `bottle=` (serial or address; unknown: 404),
    /// else for the only or most recently seen bottle.
    static func status(_ context: WebContext, query: FormFields) throws -> String {
        let configuration = try context.configuration()
        let bottle = try bottleName(query).map { try knownBottle($0, context) }
        return try StatusReport.make(history: context.history, configuration: configuration, at: context.clock.now, bottle: bottle).jsonLine()
    }

    /// The per-bottle objects of `status --json`, most recently seen first; `[]` before any bottle.
    static func bottles(_ context: WebContext) throws -> String {
        let configuration = try context.configuration()
        let reports = try StatusReport.makeEach(history: context.history, configuration: configuration, at: context.clock.now)
        return "[" + reports.filter { $0.bottleID != nil }.map { $0.jsonLine() }.joined(separator: ",") + "]"
    }

    /// The `day` events of the last `days` local days ending today, days with drinks only (as
    /// `history --json`); one per bottle and day, with `bottle`, where the history holds several.
    static func days(_ context: WebContext, query: FormFields) throws -> String {
        let days = try query.integer("days", in: 1...maxDays, fallback: 7)
        let configuration = try context.configuration()
        let timeZone = configuration.timeZone
        let today = LocalDay(containing: context.clock.now, timeZone: timeZone)
        let bottles = try selectedBottles(context, query: query)
        var events: [String] = []
        let span = (today - (days - 1))...today
        // One read through the timestamp index for every bottle (a query per bottle lets SQLite
        // walk that bottle's whole key index instead).
        let byBottle = bottles == [nil] ? [:] : try context.history.drinks.dayTotalsByBottle(timeZone: timeZone, days: span)
        let shared = SharedRuleInputs(configuration: configuration, history: context.history)
        for bottle in bottles {
            let goal = BottleView.settings(of: bottle, configuration: configuration, shared: shared).goalML
            let totals = try bottle.map { byBottle[$0.id] ?? [] } ?? context.history.drinks.dayTotals(timeZone: timeZone, days: span)
            for total in totals {
                events.append(BridgeEvent.day(.init(date: total.date.description, totalML: total.totalML, drinks: total.drinks,
                                                    goalML: goal, bottle: bottles.count > 1 || query["bottle"] != nil ? bottle?.id : nil)).jsonLine())
            }
        }
        return "[" + events.joined(separator: ",") + "]"
    }

    /// A page of `/api/v1/drinks`: the JSON array, and the query of the next (older) page when
    /// there is one (the responder's `Link: <…>; rel="next"`).
    struct DrinkPage: Sendable {
        var json: String
        var next: String?
    }

    /// The `drink` events of the last `days` local days, deleted ones included (`deleted: true`),
    /// oldest first. `before` (Unix seconds or ISO 8601 with a zone) keeps those earlier than it;
    /// `limit` keeps the newest `limit` of them and names the next page: `before` the oldest second
    /// of this one. A page never splits a second (drinks of two bottles can share one), so that
    /// paging by a time loses none: when the cut falls inside a second, that second starts the
    /// next page; only a second holding more than `limit` drinks is answered whole, past `limit`.
    static func drinks(_ context: WebContext, query: FormFields) throws -> DrinkPage {
        let days = try query.integer("days", in: 1...maxDays, fallback: 1)
        let limit: Int? = query["limit"] == nil ? nil : try query.integer("limit", in: 1...maxLimit)
        let before = try beforeSecond(query)
        let bottle = try bottleName(query).map { try knownBottle($0, context).id }
        let configuration = try context.configuration()
        let timeZone = configuration.timeZone
        let today = LocalDay(containing: context.clock.now, timeZone: timeZone)
        let from = UInt32(clamping: Int64(max(0, (today - (days - 1)).interval(in: timeZone).start.secondsSince1970.rounded(.up))))
        let end = before ?? UInt32.max
        let history = context.history
        var page = try history.drinks.drinksNewestFirst(bottle: bottle, from: from, before: end, limit: limit.map { $0 + 1 })
        var next: UInt32?
        if let limit, page.count > limit {
            let extra = page.removeLast()
            let oldest = page[page.count - 1].timestamp
            if extra.timestamp == oldest {
                page.removeAll { $0.timestamp == oldest }
                if page.isEmpty {
                    page = try history.drinks.drinksNewestFirst(bottle: bottle, from: oldest, before: oldest + 1)
                    next = oldest
                } else {
                    next = oldest + 1
                }
            } else {
                next = oldest
            }
        }
        let json = "[" + page.reversed().map { BridgeEvent.drink(.init($0.drink, isNew: false)).jsonLine() }.joined(separator: ",") + "]"
        let nextQuery = next.map { second in
            var fields = ["days=\(days)", "limit=\(limit ?? 0)", "before=\(second)"]
            if let name = query["bottle"] { fields.append("bottle=\(FormFields.encode(name))") }
            return fields.joined(separator: "&")
        }
        return DrinkPage(json: json, next: nextQuery)
    }

    /// `before=`: Unix seconds, or ISO 8601 with a zone (`2026-11-20T00:00:00Z`); nil when absent.
    static func beforeSecond(_ query: FormFields) throws(WebError) -> UInt32? {
        guard let text = query["before"] else { return nil }
        let seconds = Int64(text).map(Double.init) ?? ISO8601Text.parse(text)?.secondsSince1970
        guard let seconds, seconds.isFinite, seconds >= 1, seconds <= Double(UInt32.max) else {
            throw .badRequest("before must be a time: Unix seconds (1 to \(UInt32.max)) or ISO 8601 with a zone such as 2026-11-20T00:00:00Z, not '\(text.prefix(40))'")
        }
        // `time < before` for whole-second drinks: a fraction rounds up.
        return UInt32(seconds.rounded(.up))
    }

    /// `bottle=`: a serial or an address as the history names bottles; nil when absent.
    static func bottleName(_ query: FormFields) throws(WebError) -> String? {
        guard let name = query["bottle"] else { return nil }
        guard BottleKey.isWellFormed(name) else {
            throw .badRequest("bottle must be a bottle's serial or address (letters, digits, ':', '-', '_'; at most 64), not '\(name.prefix(40))'")
        }
        return name
    }

    /// The bottle of that name; a 404 when the history knows none.
    static func knownBottle(_ name: String, _ context: WebContext) throws -> BottleRecord {
        guard let bottle = try context.history.bottles.bottle(named: name) else {
            throw WebError(status: .notFound, message: "no bottle \(name) is known: /api/v1/bottles lists them")
        }
        return bottle
    }

    /// `POST /api/v1/commands`: `{"command":"goal","bottle_goal_ml":2200}` (the bottle's goal; its
    /// earlier key `goal_ml` still read), `{"command":"daily_goal","daily_goal_ml":5000}` (the
    /// person's, docs/design.md 3.7), `{"command":"delete","record_id":5}`, `{"command":"tare"}`,
    /// `{"command":"shake-to-empty","on":true}`, each with an optional `"bottle"`. Answers the
    /// queued `command` event; the daily goal answers a `daily_goal` event.
    static func command(_ context: WebContext, body: Data) throws -> String {
        let fields: CommandBody
        do {
            fields = try JSONDecoder().decode(CommandBody.self, from: body)
        } catch {
            throw WebError.badRequest("the body must be a JSON object such as {\"command\":\"goal\",\"bottle_goal_ml\":2200} (\(CommandBody.problem(error)))")
        }
        let request: BottleRequest
        switch fields.command {
        case "goal":
            guard let goal = fields.bottle_goal_ml ?? fields.goal_ml else {
                throw WebError.badRequest("\"bottle_goal_ml\" is required for goal: \(BottleGoal.rangeText), \(BottleGoal.stepText)")
            }
            request = .goal(goal)
        case "daily_goal":
            guard let goal = fields.daily_goal_ml else { throw WebError.badRequest("\"daily_goal_ml\" is required for daily_goal: \(DailyGoal.rangeText)") }
            if let name = fields.bottle { _ = try knownBottle(name, context) }
            return DailyGoalEvent(try DailyGoalSetting.set(goal, bottle: fields.bottle, context: context)).jsonLine()
        case "delete":
            guard let id = fields.record_id else { throw WebError.badRequest("\"record_id\" is required for delete") }
            request = .delete(recordID: id)
        case "tare": request = .tare
        case "shake-to-empty":
            guard let on = fields.on else { throw WebError.badRequest("\"on\" is required for shake-to-empty: true or false") }
            request = .shakeToEmpty(on)
        default:
            throw WebError.badRequest("unknown command '\(fields.command.prefix(40))': goal, daily_goal, delete, tare or shake-to-empty")
        }
        let (command, drink) = try queue(request, bottle: fields.bottle, context: context)
        if let drink { context.drinksChanged?(drink.bottle) }
        guard let command else {
            // A drink added by hand, deleted in the history only: nothing queued for the bottle.
            guard let drink else { throw WebError.unprocessable("the drink is gone") }
            return BridgeEvent.drink(.init(drink.drink, isNew: false)).jsonLine()
        }
        return BridgeEvent.command(BridgeEvent.CommandEvent(command)).jsonLine()
    }

    /// The body of a command, with the names of the JSON (docs/design.md 3.6).
    private struct CommandBody: Decodable {
        var command: String
        var bottle_goal_ml: Int?
        /// The bottle goal's earlier key.
        var goal_ml: Int?
        var daily_goal_ml: Int?
        var record_id: Int?
        var on: Bool?
        var bottle: String?

        /// The decoder's complaint, short: which field and what was wrong.
        static func problem(_ error: any Error) -> String {
            switch error as? DecodingError {
            case .keyNotFound(let key, _)?: return "\"\(key.stringValue)\" is missing"
            case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?:
                return "\"\(context.codingPath.map(\.stringValue).joined(separator: "."))\" has the wrong type"
            default: return "not valid JSON"
            }
        }
    }

    /// Through the one door; a refusal is a 422 with its line.
    static func queue(_ request: BottleRequest, bottle: String?, context: WebContext) throws -> (StoredCommand?, StoredDrink?) {
        do {
            return try BottleControl(history: context.history).queue(request, bottle: bottle, at: context.clock.now)
        } catch let refused as BottleRequestRefused {
            throw WebError.unprocessable(refused.description)
        }
    }

    /// The bottle named by `bottle=` (serial, address or key), or every bottle; `[nil]` for a
    /// history without bottle rows (every drink summed).
    static func selectedBottles(_ context: WebContext, query: FormFields) throws -> [BottleRecord?] {
        if let name = try bottleName(query) {
            return [try knownBottle(name, context)]
        }
        let bottles = try context.history.bottles.all().sorted { $0.id < $1.id }
        return bottles.isEmpty ? [nil] : bottles
    }
}
