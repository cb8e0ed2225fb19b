// The dashboard's pictures, as SVG drawn on the server (no script, nothing fetched): the gauge of
// today against the goal, today's intake as a curve against the pace line of docs/reminders.md
// 2.2, and bars (days, or months for the year) with the goal line. They are drawn at the size a
// phone shows them (340 units wide, 12 px text at 390 px), styled by class so they follow the
// page's light and dark colours, and carry their data for screen readers: each bar is focusable
// and named ("Friday 20 November: 1150 ml, so far"), its value shown on focus and hover.
// `history --chart` writes the same bars to a file, with a style of its own.

import Foundation
import History
import Reminders
import Timekeeping

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
}

enum Charts {
    static let width = 340.0

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
        let height = 160.0, left = 52.0, bottom = 20.0, top = 8.0, right = width - 6
        let maxML = Double(max(goalML, drinks.reduce(0) { $0 + $1.amountML }, 1)) * 1.1
        func px(_ minute: Int) -> Double { left + (right - left) * Double(minute) / 1440 }
        func py(_ ml: Double) -> Double { height - bottom - (height - bottom - top) * ml / maxML }
        var svg = open(height: height, role: "img", label: label)
        svg += "<line class=\"axis\" x1=\"\(f(left))\" x2=\"\(f(right))\" y1=\"\(f(height - bottom))\" y2=\"\(f(height - bottom))\"/>"
        for hour in stride(from: 0, through: 24, by: 6) {
            let anchor = hour == 0 ? "start" : (hour == 24 ? "end" : "middle")
            svg += "<text x=\"\(f(px(hour * 60)))\" y=\"\(f(height - 5))\" text-anchor=\"\(anchor)\">\(String(format: "%02d:00", hour % 24))</text>"
        }
        let goalY = py(Double(goalML))
        svg += "<text x=\"\(f(left - 4))\" y=\"\(f(goalY + 4))\" text-anchor=\"end\">\(goalML) ml</text>"
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
    /// Every bar is focusable and named; `allValues` writes every value above its bar (the week),
    /// else a bar's value shows on focus and hover. `title`, when given, is drawn inside (the file
    /// of `history --chart`; the page has its own heading).
    static func bars(_ columns: [BarColumn], goalML: Int, label: String, allValues: Bool, title: String? = nil) -> String {
        let top = title == nil ? 18.0 : 40.0
        let height = top + 132, left = 52.0, bottom = 20.0, right = width - 6
        let maxML = Double(max(columns.map(\.ml).max() ?? 0, goalML, 1)) * 1.12
        let slot = (right - left) / Double(max(columns.count, 1))
        let barWidth = max(slot * 0.72, 1)
        func py(_ ml: Double) -> Double { height - bottom - (height - bottom - top) * ml / maxML }
        var svg = open(height: height, role: "group", label: label, extraClass: allValues ? "all" : nil)
        svg.reserveCapacity(200 * columns.count + 600)
        if let title { svg += "<text x=\"\(f(left))\" y=\"18\" font-size=\"15\" font-weight=\"bold\">\(escape(title))</text>" }
        svg += "<line class=\"axis\" x1=\"\(f(left))\" x2=\"\(f(right))\" y1=\"\(f(height - bottom))\" y2=\"\(f(height - bottom))\"/>"
        for (index, column) in columns.enumerated() {
            let x = left + slot * Double(index) + (slot - barWidth) / 2
            let y = py(Double(column.ml))
            let centre = x + barWidth / 2
            svg += "<g class=\"bar\(column.inProgress ? " now" : "")\" tabindex=\"0\" role=\"img\" data-date=\"\(column.key)\" data-ml=\"\(column.ml)\"><title>\(escape(column.name))</title>"
            svg += "<rect class=\"\(column.ml >= goalML ? "met" : "below")\" x=\"\(f(x))\" y=\"\(f(y))\" width=\"\(f(barWidth))\" height=\"\(f(height - bottom - y))\"/>"
            svg += "<text class=\"v\" x=\"\(f(min(max(centre, left + 14), right - 14)))\" y=\"\(f(max(y - 4, 12)))\" text-anchor=\"middle\">\(column.ml)</text></g>"
            if let text = column.label {
                // A label near an end is aligned to that end, so it is not cut off (12 px text is
                // about 7 units a character).
                let half = Double(text.count) * 3.5
                let (x, anchor) = centre + half > width ? (right, "end") : centre - half < left - 40 ? (left, "start") : (centre, "middle")
                svg += "<text x=\"\(f(x))\" y=\"\(f(height - 5))\" text-anchor=\"\(anchor)\">\(escape(text))</text>"
            }
        }
        let goalY = py(Double(goalML))
        svg += "<line class=\"goal\" x1=\"\(f(left))\" x2=\"\(f(right))\" y1=\"\(f(goalY))\" y2=\"\(f(goalY))\"/>"
        svg += "<text x=\"\(f(left - 4))\" y=\"\(f(goalY + 4))\" text-anchor=\"end\">\(goalML) ml</text>"
        return svg + "</svg>"
    }

    private static func open(height: Double, role: String, label: String, extraClass: String? = nil) -> String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(Int(width)) \(Int(height))\"\(extraClass.map { " class=\"\($0)\"" } ?? "") role=\"\(role)\" aria-label=\"\(escape(label))\" font-family=\"sans-serif\" font-size=\"12\">"
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

/// Text for HTML and SVG: `&`, `<`, `>`, `"` and `'` as entities. Every string that comes from the
/// history or the settings (a bottle's name is whatever the bottle advertised) goes through it.
func escape(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for character in text {
        switch character {
        case "&": out += "&amp;"
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "\"": out += "&quot;"
        case "'": out += "&#39;"
        default: out.append(character)
        }
    }
    return out
}

/// Advice for HTML: escaped, and each `command` in backticks (as the journal and `status` write
/// it) set as code, so that a person can tell what to type from the sentence around it.
func escapeAdvice(_ text: String) -> String {
    let parts = escape(text).split(separator: "`", omittingEmptySubsequences: false)
    // An odd number of parts: the backticks pair up; else the text is shown as it is.
    guard parts.count % 2 == 1 else { return escape(text) }
    return parts.enumerated().map { $0.offset % 2 == 1 ? "<code>\($0.element)</code>" : String($0.element) }.joined()
}
