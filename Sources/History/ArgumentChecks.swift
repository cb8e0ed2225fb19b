// Arguments refused before they reach SQL: bad input never half-stores.

import Foundation
import Timekeeping

enum ArgumentChecks {
    /// A bottle key must name something (an address or a serial).
    static func bottle(_ bottle: String) throws -> String {
        guard !bottle.isEmpty else {
            throw HistoryError.invalidArgument(what: "empty bottle id", expected: "the bottle's address or serial number")
        }
        return bottle
    }

    /// A bridge-clock instant: finite UTC seconds.
    static func instant(_ value: WallInstant, _ name: String) throws -> WallInstant {
        guard value.secondsSince1970.isFinite else {
            throw HistoryError.invalidArgument(what: "\(name) \(value)", expected: "finite UTC seconds since 1970")
        }
        return value
    }

    /// An instant as whole seconds (floor), clamped far outside any u32 record timestamp so that
    /// range arithmetic cannot overflow.
    static func seconds(_ value: WallInstant, _ name: String) throws -> Int64 {
        let limit = Double(Int64(1) << 40)
        return Int64(min(max(try instant(value, name).secondsSince1970, -limit), limit).rounded(.down))
    }
}
