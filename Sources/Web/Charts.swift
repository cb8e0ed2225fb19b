// The dashboard's pictures, as SVG drawn on the server (no script, nothing fetched): the gauge of
// today against the goal, today's intake as a curve against the pace line of docs/reminders.md
// 2.2, and bars (days, or months for the year) with the goal line. They are drawn at the size the
// narrowest phone shows them (268 units wide: a 320 px screen draws them 270 px wide, so their
// 12-unit text is 12 px there and larger on anything wider), styled by class so they follow the
// page's light and dark colours, and carry their data for screen readers: each bar is named
// ("Friday 20 November: 1150 ml, so far"). Bars are not focusable: on a phone a 30-day bar is 7 px
// wide, no target a finger can hit (WCAG 2.5.5); the week writes every value above its bar, and
// the rest tell theirs on hover and to a screen reader.
// `history --chart` writes the same bars to a file, with a style of its own.

import Foundation
import History
import Reminders
import Timekeeping
import WireText

/// One bar: a day, or a month of the year's chart.
struct BarColumn: Sendable {
    /// `data-date`: the day (`2026-11-20`) or month (`2026-11`).
    var key: String
    /// Under the bar; nil leaves it unlabelled (a long span labels every week).
    var label: String?
    /// What a screen reader and the tooltip say.
    var name: String
    var ml: Int
    /// Today (or this month): still filling, drawn lighter and outlined dashed, not as a missed goal.
    var inProgress: Bool = false
    /// Before the bottle's first drink: nothing is known, drawn as a dotted mark, not as 0 ml.
    var noData: Bool = false
}

enum Charts {
    static let width = 268.0

    /// A half-ring filled to `value / goal` (capped at the full ring), with the figures in words.
    static func gauge(valueML: Int, goalML: Int, caption: String) -> String {
        let fraction = goalML > 0 ? min(1, Double(valueML) / Double(goalML)) : 0
        let percent = goalML > 0 ? valueML * 100 / goalML : 0
        // The arc from the left end (180°) clockwise over the top by `fraction` of 180°.
        let angle = Double.pi * (1 - fraction)
        let x = 80 + 64 * cos(angle), y = 84 - 64 * sin(angle)
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 160 104\" role=\"img\" aria-label=\"\(percent)% \(escape(caption))\" font-family=\"sans-serif\">"
        svg += "<path class=\"arc rest\" d=\"M16 84 A64 64 0 0 1 144 84\"/>"
        if fraction > 0 {
            svg += "<path class=\"arc \(fraction >= 1 ? "met" : "below")\" d=\"M16 84 A64 64 0 0 1 \(f(x)) \(f(y))\"/>"
        }
        svg += "<text x=\"80\" y=\"76\" text-anchor=\"middle\" font-size=\"26\" font-weight=\"bold\">\(percent)%</text>"
        svg += "<text x=\"80\" y=\"100\" text-anchor=\"middle\" font-size=\"12\">\(escape(caption))</text>"
        return svg + "</svg>"
    }

    /// Today's intake summed drink by drink over the local day, against the pace line (expected
    /// intake from `active_start` to `active_end`) and the goal; the curve stops at `nowMinute`.
    /// `label` says the same in words for a screen reader.
    static func dayCurve(drinks: [(minute: Int, amountML: Int)], goalML: Int, settings: HydrationSettings,
                         nowMinute: Int, label: String) -> String {
        let height = 150.0, left = 50.0, bottom = 20.0, top = 8.0, right = width - 3
        let maxML = Double(max(goalML, drinks.reduce(0) { $0 + $1.amountML }, 1)) * 1.1
        func px(_ minute: Int) -> Double { left + (right - left) * Double(minute) / 1440 }
        func py(_ ml: Double) -> Double { height - bottom - (height - bottom - top) * ml / maxML }
        var svg = open(height: height, role: "img", label: label)
        svg += "<line class=\"axis\" x1=\"\(f(left))\" x2=\"\(f(right))\" y1=\"\(f(height - bottom))\" y2=\"\(f(height - bottom))\"/>"
        // The quarters of the day between its ends: "00:00" at both ends crowded its neighbours.
        for hour in [6, 12, 18] {
            svg += "<text x=\"\(f(px(hour * 60)))\" y=\"\(f(height - 5))\" text-anchor=\"middle\">\(String(format: "%02d:00", hour))</text>"
        }
        let goalY = py(Double(goalML))
        // The number alone: "2000 ml" is wider than the margin at 12 px, and the legend names the unit.
        svg += "<text x=\"\(f(left - 4))\" y=\"\(f(goalY + 4))\" text-anchor=\"end\">\(goalML)</text>"
        svg += "<line class=\"goal\" x1=\"\(f(left))\" x2=\"\(f(right))\" y1=\"\(f(goalY))\" y2=\"\(f(goalY))\"/>"
        // The pace line: the minutes where `Pace.expected` bends, joined by straight lines.
        let corners = [0, settings.activeStartMinute, settings.activeEndMinute, 1439].map { min(max($0, 0), 1439) }.sorted()
        let pace = corners.map { minute in
            "\(f(px(minute))),\(f(py(Double(Pace.expected(minuteOfDay: minute, goalML: goalML, activeStartMinute: settings.activeStartMinute, activeEndMinute: settings.activeEndMinute)))))"
        }
        svg += "<polyline class=\"pace\" points=\"\(pace.joined(separator: " "))\" stroke-width=\"2\" stroke-dasharray=\"6 3\"/>"
        // The intake as steps.
        var points = ["\(f(px(0))),\(f(py(0)))"]
        var total = 0
        for drink in drinks.sorted(by: { $0.minute < $1.minute }) {
            points.append("\(f(px(drink.minute))),\(f(py(Double(total))))")
            total += drink.amountML
            points.append("\(f(px(drink.minute))),\(f(py(Double(total))))")
        }
        points.append("\(f(px(min(max(nowMinute, 0), 1439)))),\(f(py(Double(total))))")
        svg += "<polyline class=\"intake\" points=\"\(points.joined(separator: " "))\" stroke-width=\"3\"/>"
        return svg + "</svg>"
    }

    /// One bar per column (oldest on the left) and the goal as a dashed line, labelled in ml.
    /// Every bar is named; `allValues` writes every value above its bar (the week), drawn after
    /// every bar so that no later bar covers one, and moved above the goal line where it would sit
    /// on it. A column without data is a dotted mark on the axis. Labels under the bars go on two
    /// rows when they are longer than their slot is wide (the year's months). `title`, when given,
    /// is drawn inside (the file of `history --chart`; the page has its own heading).
    static func bars(_ columns: [BarColumn], goalML: Int, label: String, allValues: Bool, title: String? = nil) -> String {
        let top = title == nil ? 18.0 : 40.0
        let left = 50.0, right = width - 3
        let slot = (right - left) / Double(max(columns.count, 1))
        // 12 px text is about 7 units a character: labels wider than the space between two of them
        // alternate between two rows.
        let labels = columns.compactMap(\.label)
        let spacing = (right - left) / Double(max(labels.count, 1))
        let labelRows = labels.count > 1 && Double(labels.map(\.count).max() ?? 0) * 7 + 4 > spacing ? 2 : 1
        let bottom = labelRows == 2 ? 32.0 : 18.0
        let height = top + 132 + bottom - 20
        let maxML = Double(max(columns.map(\.ml).max() ?? 0, goalML, 1)) * 1.12
        let barWidth = max(slot * 0.72, 1)
        func py(_ ml: Double) -> Double { height - bottom - (height - bottom - top) * ml / maxML }
        let goalY = py(Double(goalML))
        var svg = open(height: height, role: "group", label: label)
        svg.reserveCapacity(200 * columns.count + 600)
        if let title { svg += "<text x=\"\(f(left))\" y=\"18\" font-size=\"15\" font-weight=\"bold\">\(escape(title))</text>" }
        svg += "<line class=\"axis\" x1=\"\(f(left))\" x2=\"\(f(right))\" y1=\"\(f(height - bottom))\" y2=\"\(f(height - bottom))\"/>"
        var values = ""
        var labelled = 0
        for (index, column) in columns.enumerated() {
            let x = left + slot * Double(index) + (slot - barWidth) / 2
            let y = py(Double(column.ml))
            let centre = x + barWidth / 2
            svg += "<g class=\"bar\(column.inProgress ? " now" : "")\(column.noData ? " nodata" : "")\" role=\"img\" data-date=\"\(column.key)\" data-ml=\"\(column.noData ? "" : String(column.ml))\"><title>\(escape(column.name))</title>"
            if column.noData {
                svg += "<line x1=\"\(f(x))\" x2=\"\(f(x + barWidth))\" y1=\"\(f(height - bottom - 3))\" y2=\"\(f(height - bottom - 3))\"/></g>"
            } else {
                svg += "<rect class=\"\(column.ml >= goalML ? "met" : "below")\" x=\"\(f(x))\" y=\"\(f(y))\" width=\"\(f(barWidth))\" height=\"\(f(height - bottom - y))\"/></g>"
                if allValues {
                    // Above the bar; where that is on the goal line (a day near its goal), above the
                    // line. Values wider than their slot (four digits in a week's) take turns a row
                    // higher, so that two neighbours never run together.
                    let raised = Double(String(column.ml).count) * 7 + 6 > slot && index % 2 == 1 ? 13.0 : 0
                    var baseline = y - 4
                    if baseline > goalY - 3, baseline - 11 < goalY + 3 { baseline = goalY - 4 }
                    baseline = max(baseline - raised, 12)
                    values += "<text class=\"v\" x=\"\(f(min(max(centre, left + 14), right - 14)))\" y=\"\(f(baseline))\" text-anchor=\"middle\">\(column.ml)</text>"
                }
            }
            if let text = column.label {
                // A label near an end is aligned to that end, so it is not cut off.
                let half = Double(text.count) * 3.5
                let (x, anchor) = centre + half > width ? (right, "end") : centre - half < left - 40 ? (left, "start") : (centre, "middle")
                let row = labelRows == 2 && labelled % 2 == 1 ? 1.0 : 0.0
                svg += "<text x=\"\(f(x))\" y=\"\(f(height - bottom + 14 + row * 13))\" text-anchor=\"\(anchor)\">\(escape(text))</text>"
                labelled += 1
            }
        }
        svg += values
        svg += "<line class=\"goal\" x1=\"\(f(left))\" x2=\"\(f(right))\" y1=\"\(f(goalY))\" y2=\"\(f(goalY))\"/>"
        // The number alone: "2000 ml" is wider than the margin at 12 px, and the legend names the unit.
        svg += "<text x=\"\(f(left - 4))\" y=\"\(f(goalY + 4))\" text-anchor=\"end\">\(goalML)</text>"
        return svg + "</svg>"
    }

    private static func open(height: Double, role: String, label: String) -> String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"\(role)\" aria-label=\"\(escape(label))\" font-family=\"sans-serif\" font-size=\"12\">"
    }

    /// One decimal at most: small files, and the same text on every machine. Written from whole
    /// tenths (integer text is cheap; a page has a few thousand coordinates).
    static func f(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let tenths = Int((value * 10).rounded())
        let whole = tenths / 10, tenth = abs(tenths % 10)
        let sign = tenths < 0 && whole == 0 ? "-" : ""
        return tenth == 0 ? "\(whole)" : "\(sign)\(whole).\(tenth)"
    }
}

/// Text for HTML and SVG. Every string that comes from the history or the settings (a bottle's
/// name is whatever the bottle advertised) goes through it.
func escape(_ text: String) -> String { XMLText.escaped(text) }

/// Advice for HTML: escaped, and each `command` in backticks (as the journal and `status` write
/// it) set as code, so that a person can tell what to type from the sentence around it.
func escapeAdvice(_ text: String) -> String {
    let parts = escape(text).split(separator: "`", omittingEmptySubsequences: false)
    // An odd number of parts: the backticks pair up; else the text is shown as it is.
    guard parts.count % 2 == 1 else { return escape(text) }
    return parts.enumerated().map { $0.offset % 2 == 1 ? "<code>\($0.element)</code>" : String($0.element) }.joined()
}
