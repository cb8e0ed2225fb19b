// The one place a wall instant meets SQLite: its columns stay REAL seconds since 1970 (the
// schema and every database written before are unchanged), and a `WallInstant` is bound and read
// as that number. Every query and record of this module goes through this conversion.

import GRDB
import Timekeeping

extension WallInstant: DatabaseValueConvertible {
    package var databaseValue: DatabaseValue { secondsSince1970.databaseValue }

    package static func fromDatabaseValue(_ dbValue: DatabaseValue) -> WallInstant? {
        Double.fromDatabaseValue(dbValue).map(WallInstant.init(secondsSince1970:))
    }
}
