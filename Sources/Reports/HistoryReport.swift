// What `history` prints: the stored drinks, then the local day totals.

import AquavateProtocol
import Foundation
import History
import Reminding
import Settings
import Timekeeping

package struct HistoryReport: Sendable {
    package enum Format: Sendable { case text, json, csv }

    package var drinks: [BridgeEvent.DrinkEvent]
    package var days: [BridgeEvent.DayEvent]
    /// The zone of the text lines' times and of the day totals (the `timezone` setting); the JSON
    /// and the CSV stay UTC (docs/design.md 3.4).
    package var timeZone: TimeZone

    /// Builds the report. `days` limits it to the last N local days ending with today (`now`);
    /// `bottle` to one bottle (`--bottle`). Where the history holds several bottles, each day
    /// is told per bottle, against that bottle's goal (docs/design.md 3.4).
    package static func make(history: DrinkHistory, configuration: Configuration, days: Int?, now: WallInstant,
                            bottle: BottleRecord? = nil) throws -> HistoryReport {
        let timeZone = configuration.timeZone
        var from: WallInstant?
        if let days {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            let today = calendar.startOfDay(for: now.date)
            from = calendar.date(byAdding: .day, value: -(days - 1), to: today).map(WallInstant.init)
        }
        let stored = try history.drinks.storedDrinks(bottle: bottle?.id, from: from)
        let drinks = stored.map { BridgeEvent.DrinkEvent($0.drink, isNew: false) }
        let keys = try bottle.map { [$0.id] } ?? history.drinks.drinkBottles()
        let days: [BridgeEvent.DayEvent]
        if keys.count > 1 || bottle != nil {
            let shared = SharedRuleInputs(configuration: configuration, history: history)
            days = try keys.flatMap { key in
                let row = try history.bottles.bottle(id: key)
                let goal = BottleView.settings(of: row ?? BottleRecord(id: key), configuration: configuration, shared: shared).goalML
                return try history.drinks.dayTotals(timeZone: timeZone, from: from, bottle: key).map {
                    BridgeEvent.DayEvent(date: $0.date.description, totalML: $0.totalML, drinks: $0.drinks, goalML: goal, bottle: key)
                }
            }.sorted { ($0.date, $0.bottle ?? "") < ($1.date, $1.bottle ?? "") }
        } else {
            // One bottle (or none): its goal as every surface resolves it.
            let row = try keys.first.flatMap { try history.bottles.bottle(id: $0) }
            let goal = BottleView.settings(of: row, configuration: configuration, history: history).goalML
            days = try history.drinks.dayTotals(timeZone: timeZone, from: from).map {
                BridgeEvent.DayEvent(date: $0.date.description, totalML: $0.totalML, drinks: $0.drinks, goalML: goal)
            }
        }
        return HistoryReport(drinks: drinks, days: days, timeZone: timeZone)
    }

    package func lines(format: Format) -> [String] {
        let events = drinks.map(BridgeEvent.drink) + days.map(BridgeEvent.day)
        switch format {
        case .json:
            return events.map { $0.jsonLine() }
        case .text:
            if events.isEmpty { return ["no drinks stored"] }
            return events.map { $0.textLine(novelty: false, timeZone: timeZone) }
        case .csv:
            var rows = ["event,time,date,record_id,amount_ml,bottle_level_ml,type,deleted,total_ml,drinks,daily_goal_ml,bottle"]
            for drink in drinks {
                rows.append("drink,\(ISO8601Text.formatWithMilliseconds(WallInstant(secondsSince1970: Double(drink.timestamp)))),,\(drink.recordID),\(drink.amountML),\(drink.bottleLevelML),\(drink.kind.rawValue),\(drink.deleted),,,,\(drink.bottle)")
            }
            for day in days {
                rows.append("day,,\(day.date),,,,,,\(day.totalML),\(day.drinks),\(day.goalML),\(day.bottle ?? "")")
            }
            return rows
        }
    }
}
