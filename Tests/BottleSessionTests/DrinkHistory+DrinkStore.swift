// The history as the session's store, for tests that run a session straight onto a database.
// The product never does this: the session knows only `DrinkStore`, and the bridge's ingest path
// (`BottleIngest`) is the store in production; BottleSession may not import History
// (docs/architecture.md), so the conformance lives with the tests that want it.

import BottleSession
import History

extension DrinkHistory: DrinkStore {}
