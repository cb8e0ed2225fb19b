// The dashboard's pictures, as SVG drawn on the server (no script, nothing fetched): the gauge of
// today against the goal, today's intake as a curve against the pace line of docs/reminders.md
// 2.2, and day bars with the goal line. `history --chart` writes the same bars to a file, so each
// chart is a whole `<svg>` element with its namespace.

import Foundation
import History
import Reminders
import Timekeeping

enum Charts {
    /// A half-ring filled to `value / goal` (capped at the full ring), with the figures in words.
    static func gauge(valueML: Int, goalML: Int, caption: String) -> String {
        let fraction = goalML > 0 ? min(1, Double(valueML) / Double(goalML)) : 0
        let percent = goalML > 0 ? valueML * 100 / goalML : 0
        // The arc from the left end (180°) clockwise over the top by `fraction` of 180°.
        let angle = Double.pi * (1 - fraction)
        let x = 100 + 80 * cos(angle), y = 100 - 80 * sin(angle)
        let colour = fraction >= 1 ? "#1a7f37" : "#1f6feb"
        var svg = open(width: 200, height: 120, label: "\(percent)% \(caption)")
        svg += "<path d=\"M20 100 A80 80 0 0 1 180 100\" fill=\"none\" stroke=\"#d0d7de\" stroke-width=\"16\"/>"
        if fraction > 0 {
            svg += "<path d=\"M20 100 A80 80 0 0 1 \(f(x)) \(f(y))\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"16\"/>"
        }
        svg += "<text x=\"100\" y=\"88\" text-anchor=\"middle\" font-size=\"28\" font-weight=\"bold\">\(percent)%</text>"
        svg += "<text x=\"100\" y=\"114\" text-anchor=\"middle\" font-size=\"12\">\(escape(caption))</text>"
        return svg + "</svg>"
    }

    /// Today's intake summed drink by drink over the local day, against the pace line (expected
    /// intake from `active_start` to `active_end`) and the goal; the curve stops at `nowMinute`.
    static func dayCurve(drinks: [(minute: Int, amountML: Int)], goalML: Int, settings: HydrationSettings,
                         nowMinute: Int, words: WebWords) -> String {
        let width = 600.0, height = 230.0, left = 50.0, bottom = 26.0, top = 10.0
        let maxML = Double(max(goalML, drinks.reduce(0) { $0 + $1.amountML }, 1)) * 1.1
        func px(_ minute: Int) -> Double { left + (width - left - 8) * Double(minute) / 1440 }
        func py(_ ml: Double) -> Double { height - bottom - (height - bottom - top) * ml / maxML }
        var svg = open(width: Int(width), height: Int(height), label: "\(words.intake) / \(words.pace)")
        svg += axes(left: left, width: width, height: height, bottom: bottom)
        // Hours along the bottom.
        for hour in stride(from: 0, through: 24, by: 6) {
            let anchor = hour == 0 ? "start" : (hour == 24 ? "end" : "middle")
            svg += "<text x=\"\(f(px(hour * 60)))\" y=\"\(f(height - 4))\" font-size=\"15\" text-anchor=\"\(anchor)\">\(String(format: "%02d:00", hour % 24))</text>"
        }
        svg += "<text x=\"\(f(left - 4))\" y=\"\(f(py(Double(goalML)) + 4))\" font-size=\"15\" text-anchor=\"end\">\(goalML)</text>"
        svg += "<line class=\"goal\" x1=\"\(f(left))\" x2=\"\(f(width - 8))\" y1=\"\(f(py(Double(goalML))))\" y2=\"\(f(py(Double(goalML))))\" stroke=\"#8250df\" stroke-dasharray=\"4 4\"/>"
        // The pace line: the minutes where `Pace.expected` bends, joined by straight lines.
        let corners = [0, settings.activeStartMinute, settings.activeEndMinute, 1439].map { min(max($0, 0), 1439) }.sorted()
        let pace = corners.map { minute in
            "\(f(px(minute))),\(f(py(Double(Pace.expected(minuteOfDay: minute, goalML: goalML, activeStartMinute: settings.activeStartMinute, activeEndMinute: settings.activeEndMinute)))))"
        }
        svg += "<polyline class=\"pace\" points=\"\(pace.joined(separator: " "))\" fill=\"none\" stroke=\"#9a6700\" stroke-width=\"2\" stroke-dasharray=\"6 3\"/>"
        // The intake as steps.
        var points = ["\(f(px(0))),\(f(py(0)))"]
        var total = 0
        for drink in drinks.sorted(by: { $0.minute < $1.minute }) {
            points.append("\(f(px(drink.minute))),\(f(py(Double(total))))")
            total += drink.amountML
            points.append("\(f(px(drink.minute))),\(f(py(Double(total))))")
        }
        points.append("\(f(px(min(max(nowMinute, 0), 1439)))),\(f(py(Double(total))))")
        svg += "<polyline class=\"intake\" points=\"\(points.joined(separator: " "))\" fill=\"none\" stroke=\"#1f6feb\" stroke-width=\"3\"/>"
        svg += "<text x=\"\(f(left + 6))\" y=\"\(f(top + 12))\" font-size=\"15\" fill=\"#1f6feb\">— \(escape(words.intake))</text>"
        svg += "<text x=\"\(f(left + 110))\" y=\"\(f(top + 12))\" font-size=\"15\" fill=\"#9a6700\">- - \(escape(words.pace))</text>"
        return svg + "</svg>"
    }

    /// One bar per day (oldest on the left) and the goal as a dashed line; `labels` dates under
    /// the first and last bar (and the middle one for long spans).
    /// Each bar names its day and amount (`<title>`, a tooltip) unless there are more than 60:
    /// a year's bars are too thin to point at, and the titles would double the page.
    static func bars(days: [DayTotal], goalML: Int, title: String, dateText: (LocalDay) -> String) -> String {
        let titled = days.count <= 60
        let width = 600.0, height = 210.0, left = 50.0, bottom = 26.0, top = 26.0
        let maxML = Double(max(days.map(\.totalML).max() ?? 0, goalML, 1)) * 1.1
        let slot = (width - left - 8) / Double(max(days.count, 1))
        func py(_ ml: Double) -> Double { height - bottom - (height - bottom - top) * ml / maxML }
        var svg = open(width: Int(width), height: Int(height), label: title)
        svg.reserveCapacity(200 * days.count)
        svg += "<text x=\"\(f(left))\" y=\"18\" font-size=\"17\" font-weight=\"bold\">\(escape(title))</text>"
        svg += axes(left: left, width: width, height: height, bottom: bottom)
        for (index, day) in days.enumerated() where day.totalML > 0 {
            let x = left + slot * Double(index) + (slot > 4 ? slot * 0.15 : 0)
            let y = py(Double(day.totalML))
            let colour = day.totalML >= goalML ? "#1a7f37" : "#1f6feb"
            svg += "<rect class=\"bar\" data-date=\"\(day.date)\" data-ml=\"\(day.totalML)\" x=\"\(f(x))\" y=\"\(f(y))\" width=\"\(f(slot > 4 ? slot * 0.7 : max(slot, 0.5)))\" height=\"\(f(height - bottom - y))\" fill=\"\(colour)\">" + (titled ? "<title>\(day.date): \(day.totalML) ml</title></rect>" : "</rect>")
        }
        let goalY = py(Double(goalML))
        svg += "<line class=\"goal\" x1=\"\(f(left))\" x2=\"\(f(width - 8))\" y1=\"\(f(goalY))\" y2=\"\(f(goalY))\" stroke=\"#8250df\" stroke-dasharray=\"4 4\"/>"
        svg += "<text x=\"\(f(left - 4))\" y=\"\(f(goalY + 4))\" font-size=\"15\" text-anchor=\"end\">\(goalML)</text>"
        if let first = days.first, let last = days.last {
            svg += "<text x=\"\(f(left))\" y=\"\(f(height - 6))\" font-size=\"15\">\(escape(dateText(first.date)))</text>"
            svg += "<text x=\"\(f(width - 8))\" y=\"\(f(height - 6))\" font-size=\"15\" text-anchor=\"end\">\(escape(dateText(last.date)))</text>"
        }
        return svg + "</svg>"
    }

    private static func open(width: Int, height: Int, label: String) -> String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(width) \(height)\" role=\"img\" aria-label=\"\(escape(label))\" font-family=\"sans-serif\">"
    }

    private static func axes(left: Double, width: Double, height: Double, bottom: Double) -> String {
        "<line x1=\"\(f(left))\" x2=\"\(f(width - 8))\" y1=\"\(f(height - bottom))\" y2=\"\(f(height - bottom))\" stroke=\"#57606a\"/>"
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
