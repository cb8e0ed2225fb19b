// The typed tables' records name their columns as SQL does (`fire_time`) and their properties as
// Swift does (`fireTime`): one declaration of that mapping, which each such record adopts, rather
// than the two GRDB strategies repeated in every record.

import GRDB

/// A record whose columns are its properties' names in snake case.
package protocol SnakeCaseRecord: FetchableRecord, PersistableRecord {}

extension SnakeCaseRecord {
    package static var databaseColumnDecodingStrategy: DatabaseColumnDecodingStrategy { .convertFromSnakeCase }
    package static var databaseColumnEncodingStrategy: DatabaseColumnEncodingStrategy { .convertToSnakeCase }
}
