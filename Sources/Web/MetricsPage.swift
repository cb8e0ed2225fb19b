// `GET /metrics`: Prometheus text (docs/design.md 3.6), written by swift-prometheus, in base units
// as Prometheus' naming rules ask (litres, 0–1 ratios, seconds), so that a dashboard or an alert
// needs no conversion and reads like any other exporter's. The figures live in the history, not in
// the process, so each scrape fills a fresh registry from it: per bottle its day against its
// effective goal, the pace's deficit and urgency (the same `Pace` the reminders and the page use),
// drinks stored, battery, level, last sync, commands waiting, quarantine and stuck; the syncs of the
// daemon this process runs (none for `serve`); and what the household link dropped.

import Foundation
import History
import Household
import Prometheus
import Reminders
import Reminding
import Reports
import Timekeeping

enum MetricsPage {
    static func render(_ context: WebContext, drinkCounts: DrinkCounts = DrinkCounts()) throws -> [UInt8] {
        let configuration = try context.configuration()
        let history = context.history
        let now = context.clock.now
        let timeZone = configuration.timeZone
        let registry = PrometheusCollectorRegistry()
        // The bottles, their waiting commands and what their settings share: read once per scrape.
        let views = try BottleViews(configuration: configuration, history: history)
        let bottles = views.bottles
        let stored = try drinkCounts.counts(drinks: history.drinks, bottles: Set(bottles.map(\.id)))
        // Every bottle's day in one read through the timestamp index (a per-bottle query lets
        // SQLite walk the bottle's whole key index instead).
        let wall = LocalClock(timeZone: timeZone).wallClockUncached(at: now)
        let today = try history.drinks.dayTotalsByBottle(timeZone: timeZone, days: wall.day...wall.day)
        let quarantined = try history.drinks.quarantinedCounts()
        for bottle in bottles {
            let labels = [("bottle", bottle.serial ?? bottle.id)]
            // The bottle's own settings where it has them, else the global ones.
            let hydration = views.settings(of: bottle).hydration
            let pace = Pace(minuteOfDay: wall.minuteOfDay, dayTotalML: today[bottle.id]?.first?.totalML ?? 0, settings: hydration)
            gauge(registry, "today", "liters", "Intake of the local day so far, litres", labels).set(liters(pace.dayTotalML))
            gauge(registry, "daily_goal", "liters", "The person's daily goal the day is measured against (daily_goal_ml, else the bottle's), litres", labels).set(liters(pace.goalML))
            // The daily goal's earlier name, kept for the dashboards and alerts that read it.
            gauge(registry, "goal", "liters", "The daily goal under its earlier name (aquavate_daily_goal_liters), litres", labels).set(liters(pace.goalML))
            // What the bottle shows on its display, which may differ from the daily goal (docs/design.md 3.7).
            if let bottleGoal = bottle.goalML {
                gauge(registry, "bottle_goal", "liters", "The goal the bottle holds and shows on its display, litres", labels).set(liters(bottleGoal))
            }
            gauge(registry, "deficit", "liters", "How far behind the pace line the day is, litres (0 when on or ahead of it)", labels)
                .set(liters(pace.displayedDeficitML))
            // One series per state, 1 for the current one: an alert can say `aquavate_urgency{state="overdue"} == 1`.
            for state in Urgency.allCases {
                registry.makeGauge(descriptor: descriptor("urgency", "", "Urgency of the pace, 1 for the current state (on_track, attention, overdue)"),
                                   labels: labels + [("state", state.rawValue)])
                    .set(Int64(state == pace.urgency ? 1 : 0))
            }
            // Deleted ones included: a counter never goes down.
            registry.makeCounter(descriptor: descriptor("drinks", "total", "Drinks stored, deleted ones included"), labels: labels)
                .increment(by: Int64(stored[bottle.id] ?? 0))
            if let battery = bottle.state?.batteryPercent ?? bottle.battery {
                gauge(registry, "battery", "ratio", "Battery at the last connection, 0 to 1", labels).set(Double(battery) / 100)
            }
            if let level = bottle.state?.bottleLevelML {
                gauge(registry, "bottle_level", "liters", "Water in the bottle at the last connection, litres", labels).set(liters(level))
            }
            if let lastSync = bottle.lastSync {
                gauge(registry, "last_sync_timestamp", "seconds", "Time of the last complete sync, Unix seconds", labels).set(lastSync.secondsSince1970)
            }
            gauge(registry, "pending_commands", "", "Bottle commands waiting for its next connection", labels)
                .set(Int64(views.pending[bottle.id]?.count ?? 0))
            gauge(registry, "quarantined", "records", "Records the bottle sent that cannot be drinks, waiting in the quarantine", labels)
                .set(Int64(quarantined[bottle.id] ?? 0))
            gauge(registry, "stuck", "", "1 while the same chunk was refused at 3 or more connections in a row", labels)
                .set(Int64(bottle.refusal?.isStuck == true ? 1 : 0))
        }
        // Every outcome of every bottle, so a rate over them starts from 0 rather than appearing.
        let tally = context.syncs?.snapshot ?? [:]
        for bottle in bottles {
            for outcome in ["complete", "empty", "interrupted", "rejected"] {
                let count = tally[SyncTally.Key(bottle: bottle.id, outcome: outcome)] ?? 0
                registry.makeCounter(descriptor: descriptor("syncs", "total", "Syncs of this daemon run by outcome"),
                                     labels: [("bottle", bottle.serial ?? bottle.id), ("outcome", outcome)]).increment(by: Int64(count))
            }
        }
        // What the household link did not believe (docs/household.md), as the daemon saved it.
        for (reason, count) in HouseholdMembership.dropCounts(history) {
            registry.makeCounter(descriptor: descriptor("household_dropped_messages", "total", "Household messages dropped, by reason"),
                                 labels: [("reason", reason)]).increment(by: Int64(count))
        }
        // What the broker's command topic brought that the daemon refused (docs/home-assistant.md).
        for (reason, count) in history.commands.refused() {
            registry.makeCounter(descriptor: descriptor("mqtt_refused_commands", "total", "MQTT commands refused, by reason"),
                                 labels: [("reason", reason)]).increment(by: Int64(count))
        }
        return inStableOrder(registry.emitToBuffer())
    }

    /// The text with its families sorted by name and each family's samples sorted: the registry
    /// emits them in its dictionaries' order, which changes from one registry to the next, and
    /// two scrapes of the same figures (or a HEAD and its GET) should be the same bytes.
    static func inStableOrder(_ text: [UInt8]) -> [UInt8] {
        var families: [String: (comments: [Substring], samples: [Substring])] = [:]
        var current = ""
        for line in String(decoding: text, as: UTF8.self).split(separator: "\n") {
            if line.hasPrefix("# ") {
                // `# HELP name …` / `# TYPE name …`
                current = line.split(separator: " ", maxSplits: 3).dropFirst(2).first.map(String.init) ?? ""
                families[current, default: ([], [])].comments.append(line)
            } else {
                families[current, default: ([], [])].samples.append(line)
            }
        }
        var out = ""
        for name in families.keys.sorted() {
            let family = families[name]!
            for line in family.comments + family.samples.sorted() { out += line + "\n" }
        }
        return Array(out.utf8)
    }

    /// Millilitres as litres, the base unit of volume in Prometheus' naming rules.
    private static func liters(_ milliliters: Int) -> Double { Double(milliliters) / 1000 }

    private static func gauge(_ registry: PrometheusCollectorRegistry, _ metric: String, _ unit: String, _ help: String,
                              _ labels: [(String, String)]) -> Gauge {
        registry.makeGauge(descriptor: descriptor(metric, unit, help), labels: labels)
    }

    /// `aquavate_<metric>_<unit>`, with its help line.
    private static func descriptor(_ metric: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "aquavate", metricName: metric, unitName: unit, helpText: help)
    }
}
