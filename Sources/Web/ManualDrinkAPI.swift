// `POST /api/v1/drinks` (docs/design.md 3.6): a drink the bottle did not measure, added by hand,
// through the same checks as the page's form and `log drink` (BottleControl.addDrink). Bad input
// (no JSON object, a volume out of range, a time unparseable or in the future, an unknown
// bottle) is a 400 with one line, and stores nothing.

import AquavateProtocol
import Foundation
import History
import Reports
import Timekeeping

enum ManualDrinkAPI {
    /// The body: `{"amount_ml":250}`, with an optional `"time"` (ISO 8601; default now) and
    /// `"bottle"` (needed only where several bottles are adopted).
    private struct Body: Decodable {
        var amount_ml: Int
        var time: String?
        var bottle: String?
    }

    /// The decoder's complaint, short: which field and what was wrong.
    private static func problem(_ error: any Error) -> String {
        switch error as? DecodingError {
        case .keyNotFound(let key, _)?: return "\"\(key.stringValue)\" is missing"
        case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?:
            return "\"\(context.codingPath.map(\.stringValue).joined(separator: "."))\" has the wrong type"
        default: return "not valid JSON"
        }
    }

    /// Stores the drink; answers its `drink` event (`"manual":true`).
    static func add(_ context: WebContext, body: Data) throws -> String {
        let fields: Body
        do {
            fields = try JSONDecoder().decode(Body.self, from: body)
        } catch {
            throw WebError.badRequest("the body must be a JSON object such as {\"amount_ml\":250,\"time\":\"2026-11-20T10:30:00Z\",\"bottle\":\"AQ-0042\"} (\(problem(error)))")
        }
        if let bottle = fields.bottle, !BottleKey.isWellFormed(bottle) {
            throw WebError.badRequest("bottle must be a bottle's serial or address (letters, digits, ':', '-', '_'; at most 64), not '\(bottle.prefix(40))'")
        }
        let now = context.clock.now
        var time = now
        if let text = fields.time {
            guard let parsed = ISO8601Text.parse(text) else {
                throw WebError.badRequest("time \(text.prefix(40)): not an ISO 8601 time such as 2026-11-20T18:00:00Z")
            }
            time = parsed
        }
        do {
            let stored = try BottleControl(history: context.history).addDrink(amountML: fields.amount_ml, at: time,
                                                                              bottle: fields.bottle, now: now)
            context.drinksChanged?(stored.bottle)
            return BridgeEvent.drink(.init(stored.drink, isNew: true)).jsonLine()
        } catch let refusal as BottleRequestRefused {
            throw WebError.badRequest(refusal.description)
        }
    }
}
