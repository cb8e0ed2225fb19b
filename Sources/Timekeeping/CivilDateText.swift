// A civil date and time as fixed-width text (`2026-11-25 09:12:34`), written digit by digit into
// one string. The daemon logs a local time with every drink it stores (600 lines in a sync of
// 600 records); built from padded pieces, each time cost ~4,500 instructions in small strings,
// their appends and releases; written into one buffer, a few hundred.

extension CivilDate {
    /// `YYYY-MM-DD`, then `separator` and `hh:mm:ss` when `secondOfDay` is given, then `suffix`
    /// when given: the text of LocalDay, LocalTimeText and ISO8601Text. A year outside
    /// 0…9999 is written as `padded(year, 4)` writes it (a minus sign, or more digits).
    static func text(daysSince1970 days: Int, secondOfDay: Int? = nil, separator: UInt8 = UInt8(ascii: " "),
                     suffix: UInt8? = nil) -> String {
        let (year, month, day) = date(daysSince1970: days)
        guard (0...9999).contains(year) else {
            // Absurd instants only (clamped ±10^12 s): the same text, not the fast way.
            let rest = text(daysSince1970: daysSince1970(year: 2000, month: month, day: day), secondOfDay: secondOfDay,
                            separator: separator, suffix: suffix)
            return padded(year, 4) + rest.dropFirst(4)
        }
        let length = 10 + (secondOfDay == nil ? 0 : 9) + (suffix == nil ? 0 : 1)
        return String(unsafeUninitializedCapacity: length) { buffer in
            func digits(_ value: Int, _ width: Int, at index: Int) {
                var value = value
                for position in stride(from: index + width - 1, through: index, by: -1) {
                    buffer[position] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value % 10)
                    value /= 10
                }
            }
            digits(year, 4, at: 0)
            buffer[4] = UInt8(ascii: "-")
            digits(month, 2, at: 5)
            buffer[7] = UInt8(ascii: "-")
            digits(day, 2, at: 8)
            var end = 10
            if let secondOfDay {
                buffer[10] = separator
                digits(secondOfDay / 3600, 2, at: 11)
                buffer[13] = UInt8(ascii: ":")
                digits(secondOfDay % 3600 / 60, 2, at: 14)
                buffer[16] = UInt8(ascii: ":")
                digits(secondOfDay % 60, 2, at: 17)
                end = 19
            }
            if let suffix {
                buffer[end] = suffix
                end += 1
            }
            return end
        }
    }
}
