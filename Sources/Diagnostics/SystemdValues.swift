// The value syntaxes of systemd the doctor reads back: time spans (`WatchdogSec=2min`, and
// `systemctl show`'s `WatchdogUSec=2min`) and sizes (`MemoryMax=256M`, and `systemctl show`'s
// bytes). systemd.time(7), systemd.resource-control(5).

import Foundation
import Timekeeping

enum SystemdValues {
    /// A time span: `120`, `120s`, `2min`, `1min 30s`, `500ms`, `0`; nil for what is not one
    /// (`infinity` too: no finite limit).
    /// - Parameter bareUnit: what a number without a unit means (seconds in unit files).
    static func timeSpan(_ text: String, bareUnit: Duration = .seconds(1)) -> Duration? {
        let units: [(String, Duration)] = [
            ("usec", .microseconds(1)), ("us", .microseconds(1)), ("µs", .microseconds(1)),
            ("msec", .milliseconds(1)), ("ms", .milliseconds(1)),
            ("seconds", .seconds(1)), ("second", .seconds(1)), ("sec", .seconds(1)), ("s", .seconds(1)),
            ("minutes", .seconds(60)), ("minute", .seconds(60)), ("min", .seconds(60)), ("m", .seconds(60)),
            ("hours", .seconds(3600)), ("hour", .seconds(3600)), ("hr", .seconds(3600)), ("h", .seconds(3600)),
            ("days", .seconds(86400)), ("day", .seconds(86400)), ("d", .seconds(86400)),
        ]
        var rest = Substring(text.trimmingCharacters(in: .whitespaces))
        guard !rest.isEmpty else { return nil }
        // Double also reads `infinity` and `nan`, and Duration traps on what it cannot hold.
        if let bare = Double(rest) { return sane(bare) ? bareUnit * bare : nil }
        var total = Duration.zero
        while !rest.isEmpty {
            rest = rest.drop { $0 == " " }
            let number = rest.prefix { $0.isNumber || $0 == "." }
            guard let value = Double(number), sane(value) else { return nil }
            rest = rest.dropFirst(number.count).drop { $0 == " " }
            let word = rest.prefix { $0.isLetter }
            guard let unit = units.first(where: { $0.0 == word })?.1 else { return nil }
            total += unit * value
            rest = rest.dropFirst(word.count)
        }
        return total
    }

    /// A size in bytes: `268435456`, `256M`, `1.5G`, `512K`; nil for `infinity`, a percentage
    /// or anything else (no fixed limit).
    static func bytes(_ text: String) -> UInt64? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let factors: [Character: Double] = ["K": 1024, "M": 1024 * 1024, "G": 1024 * 1024 * 1024, "T": 1024 * 1024 * 1024 * 1024]
        if let plain = UInt64(trimmed) { return plain }
        guard let suffix = trimmed.last, let factor = factors[suffix], let value = Double(trimmed.dropLast()), sane(value)
        else { return nil }
        return UInt64(value * factor)
    }

    /// `256 MiB`, `1.5 GiB`.
    static func describe(bytes: UInt64) -> String {
        let mib = Double(bytes) / (1024 * 1024)
        if mib >= 1024 { return "\(rounded(mib / 1024)) GiB" }
        return "\(rounded(mib)) MiB"
    }

    /// `2min`, `90s`, `1.5s`: as a unit file would say it.
    static func describe(_ duration: Duration) -> String {
        let seconds = duration.inSeconds
        if seconds >= 60, seconds.truncatingRemainder(dividingBy: 60) == 0 { return "\(Int(seconds / 60))min" }
        return "\(rounded(seconds))s"
    }

    /// Finite, not negative, and far inside what Duration and UInt64 hold (a billion units).
    private static func sane(_ value: Double) -> Bool {
        value.isFinite && value >= 0 && value < 1e9
    }

    private static func rounded(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value))" : "\((value * 10).rounded() / 10)"
    }
}
