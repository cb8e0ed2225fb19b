// The JSON API of docs/design.md 3.6: the status object of `status --json`, the `day` and `drink`
// events of 3.4 as arrays, and bottle commands through the same queue and checks as
// `aquavate-bridge bottle …` (`BottleControl`). /api/openapi.yaml describes exactly these.

import AquavateProtocol
import Foundation
import History
import Reminding
import Reports
import Timekeeping

enum JSONAPI {
    /// Longest span the API lists (ten years of days).
    static let maxDays = 3660

    static func status(_ context: WebContext) throws -> String {
        let configuration = try context.configuration()
        return try StatusReport.make(history: context.history, configuration: configuration, at: context.clock.now).jsonLine()
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
        let byBottle = bottles == [nil] ? [:] : try context.history.dayTotalsByBottle(timeZone: timeZone, days: span)
        for bottle in bottles {
            let goal = BottleView.settings(of: bottle, configuration: configuration, history: context.history).goalML
            let totals = try bottle.map { byBottle[$0.id] ?? [] } ?? context.history.dayTotals(timeZone: timeZone, days: span)
            for total in totals {
                events.append(BridgeEvent.day(.init(date: total.date.description, totalML: total.totalML, drinks: total.drinks,
                                                    goalML: goal, bottle: bottles.count > 1 || query["bottle"] != nil ? bottle?.id : nil)).jsonLine())
            }
        }
        return "[" + events.joined(separator: ",") + "]"
    }

    /// The `drink` events of the last `days` local days, deleted ones included (`deleted: true`).
    static func drinks(_ context: WebContext, query: FormFields) throws -> String {
        let days = try query.integer("days", in: 1...maxDays, fallback: 1)
        let configuration = try context.configuration()
        let timeZone = configuration.timeZone
        let today = LocalDay(containing: context.clock.now, timeZone: timeZone)
        let from = (today - (days - 1)).interval(in: timeZone).start
        let bottle = query["bottle"] == nil ? nil : try selectedBottles(context, query: query).first??.id
        let drinks = try context.history.storedDrinks(bottle: bottle, from: from)
        return "[" + drinks.map { drink in
            BridgeEvent.drink(.init(bottle: drink.bottle, recordID: drink.recordID, timestamp: drink.timestamp,
                                    amountML: Int(drink.amountML), bottleLevelML: Int(drink.bottleLevelML), kind: drink.kind,
                                    deleted: drink.deleted, isNew: false)).jsonLine()
        }.joined(separator: ",") + "]"
    }

    /// `POST /api/v1/commands`: `{"command":"goal","goal_ml":2200}`, `{"command":"delete","record_id":5}`,
    /// `{"command":"tare"}`, `{"command":"shake-to-empty","on":true}`, each with an optional
    /// `"bottle"`. Answers the queued `command` event.
    static func command(_ context: WebContext, body: Data) throws -> String {
        let fields: CommandBody
        do {
            fields = try JSONDecoder().decode(CommandBody.self, from: body)
        } catch {
            throw WebError.badRequest("the body must be a JSON object such as {\"command\":\"goal\",\"goal_ml\":2200} (\(CommandBody.problem(error)))")
        }
        let request: BottleRequest
        switch fields.command {
        case "goal":
            guard let goal = fields.goal_ml else { throw WebError.badRequest("\"goal_ml\" is required for goal: \(BottleGoal.rangeML.lowerBound) to \(BottleGoal.rangeML.upperBound)") }
            request = .goal(goal)
        case "delete":
            guard let id = fields.record_id else { throw WebError.badRequest("\"record_id\" is required for delete") }
            request = .delete(recordID: id)
        case "tare": request = .tare
        case "shake-to-empty":
            guard let on = fields.on else { throw WebError.badRequest("\"on\" is required for shake-to-empty: true or false") }
            request = .shakeToEmpty(on)
        default:
            throw WebError.badRequest("unknown command '\(fields.command.prefix(40))': goal, delete, tare or shake-to-empty")
        }
        let command = try queue(request, bottle: fields.bottle, context: context)
        return BridgeEvent.command(BridgeEvent.CommandEvent(command)).jsonLine()
    }

    /// The body of a command, with the names of the JSON (docs/design.md 3.6).
    private struct CommandBody: Decodable {
        var command: String
        var goal_ml: Int?
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
    static func queue(_ request: BottleRequest, bottle: String?, context: WebContext) throws -> StoredCommand {
        do {
            return try BottleControl(history: context.history).queue(request, bottle: bottle, at: context.clock.now).0
        } catch let refused as BottleRequestRefused {
            throw WebError.unprocessable(refused.description)
        }
    }

    /// The bottle named by `bottle=` (serial, address or key), or every bottle; `[nil]` for a
    /// history without bottle rows (every drink summed).
    static func selectedBottles(_ context: WebContext, query: FormFields) throws -> [BottleRecord?] {
        if let name = query["bottle"] {
            guard let bottle = try context.history.bottle(named: name) else {
                throw WebError(status: .notFound, message: "no bottle \(name.prefix(40)) is known")
            }
            return [bottle]
        }
        let bottles = try context.history.bottles().sorted { $0.id < $1.id }
        return bottles.isEmpty ? [nil] : bottles
    }
}
