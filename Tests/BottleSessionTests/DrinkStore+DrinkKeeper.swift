// The history's drink store as the session's observer, for tests that run a session straight
// onto a database.
// The product never does this: the session knows only `BottleObserver`, and the bridge's ingest
// path (`BottleIngest`) is the observer in production; BottleSession may not import History
// (docs/architecture.md), so the conformance lives with the tests that want it.

import BottleSession
import History

extension DrinkStore: DrinkKeeper {}
