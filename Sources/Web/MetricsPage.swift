// `GET /metrics`: Prometheus text (docs/design.md 3.6), written by swift-prometheus. The figures
// live in the history, not in the process, so each scrape fills a fresh registry from it: today's
// intake and goal, drinks stored, battery and last sync per bottle, and the syncs of the daemon
// this process runs (none for `serve`).

import Foundation
import History
import Household
import Prometheus
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
        let bottles = try history.bottles()
        let stored = try drinkCounts.counts(history: history, bottles: Set(bottles.map(\.id)))
        // Every bottle's day in one read through the timestamp index (a per-bottle query lets
        // SQLite walk the bottle's whole key index instead).
        let day = LocalDay(containing: now, timeZone: timeZone)
        let today = try history.dayTotalsByBottle(timeZone: timeZone, days: day...day)
        let pending = Dictionary(grouping: try history.commands(statuses: [.pending, .sending]), by: \.bottle)
        let quarantined = try history.quarantinedCounts()
        for bottle in bottles {
            let labels = [("bottle", bottle.serial ?? bottle.id)]
            registry.makeGauge(descriptor: name("today", "ml", "Intake of the local day so far, ml"), labels: labels)
                .set(Int64(today[bottle.id]?.first?.totalML ?? 0))
            registry.makeGauge(descriptor: name("goal", "ml", "Daily goal, ml"), labels: labels)
                .set(Int64(BottleView.settings(of: bottle, configuration: configuration, history: history).goalML))
            // Deleted ones included: a counter never goes down.
            registry.makeCounter(descriptor: name("drinks", "total", "Drinks stored, deleted ones included"), labels: labels)
                .increment(by: Int64(stored[bottle.id] ?? 0))
            if let battery = bottle.state?.batteryPercent ?? bottle.battery {
                registry.makeGauge(descriptor: name("battery", "percent", "Battery at the last connection, %"), labels: labels).set(Int64(battery))
            }
            if let level = bottle.state?.bottleLevelML {
                registry.makeGauge(descriptor: name("bottle_level", "ml", "Water in the bottle at the last connection, ml"), labels: labels).set(Int64(level))
            }
            if let lastSync = bottle.lastSync {
                registry.makeGauge(descriptor: name("last_sync_timestamp", "seconds", "Time of the last complete sync, Unix seconds"), labels: labels)
                    .set(lastSync)
            }
            registry.makeGauge(descriptor: name("pending", "commands", "Bottle commands waiting for its next connection"), labels: labels)
                .set(Int64(pending[bottle.id]?.count ?? 0))
            registry.makeGauge(descriptor: name("quarantined", "records", "Records the bottle sent that cannot be drinks, waiting in the quarantine"), labels: labels)
                .set(Int64(quarantined[bottle.id] ?? 0))
            registry.makeGauge(descriptor: MetricNameDescriptor(namespace: "aquavate", metricName: "stuck", unitName: "",
                                                                helpText: "1 while the same chunk was refused at 3 or more connections in a row"),
                               labels: labels)
                .set(Int64(bottle.refusal?.isStuck == true ? 1 : 0))
        }
        // Every outcome of every bottle, so a rate over them starts from 0 rather than appearing.
        let tally = context.syncs?.snapshot ?? [:]
        for bottle in bottles {
            for outcome in ["complete", "empty", "interrupted", "rejected"] {
                let count = tally[SyncTally.Key(bottle: bottle.id, outcome: outcome)] ?? 0
                registry.makeCounter(descriptor: name("syncs", "total", "Syncs of this daemon run by outcome"),
                                     labels: [("bottle", bottle.serial ?? bottle.id), ("outcome", outcome)]).increment(by: Int64(count))
            }
        }
        // What the household link did not believe (docs/household.md), as the daemon saved it.
        for (reason, count) in HouseholdMembership.dropCounts(history) {
            registry.makeCounter(descriptor: name("household_dropped_messages", "total", "Household messages dropped, by reason"),
                                 labels: [("reason", reason)]).increment(by: Int64(count))
        }
        return registry.emitToBuffer()
    }

    /// `aquavate_<metric>_<unit>`, with its help line.
    private static func name(_ metric: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "aquavate", metricName: metric, unitName: unit, helpText: help)
    }
}
