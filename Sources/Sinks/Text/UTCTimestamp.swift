// ISO 8601 UTC text for a time in seconds since 1970 (docs/design.md 3.4: `…Z`). Home Assistant's
// `timestamp` sensors need the zone, which `Z` gives.

import Foundation

enum UTCTimestamp {
    /// `2026-11-21T08:00:00Z`; fractions of a second are dropped.
    static func iso8601(_ seconds: Double) -> String {
        var time = time_t(seconds.rounded(.down))
        var parts = tm()
        gmtime_r(&time, &parts)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02dZ",
                      Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
                      Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
    }
}
