// The date formatters of one rendering, one per pattern. Making a formatter (an ICU one behind
// it) costs more than the dates it then writes: a page of four people made 27, one per chart
// and pattern, about a seventh of the page's time (perf over Benchmarks/web.sh's history); now it
// makes seven. Kept for one rendering only, on the one thread that renders.

import Foundation

final class DateFormats {
    let language: WebLanguage
    let timeZone: TimeZone
    private var made: [String: DateFormatter] = [:]

    init(language: WebLanguage, timeZone: TimeZone) {
        self.language = language
        self.timeZone = timeZone
    }

    /// The formatter of `template` (a `setLocalizedDateFormatFromTemplate` pattern) in the
    /// language and zone, made at its first use.
    func callAsFunction(_ template: String) -> DateFormatter {
        if let formatter = made[template] { return formatter }
        let formatter = language.formatter(template, timeZone)
        made[template] = formatter
        return formatter
    }
}
