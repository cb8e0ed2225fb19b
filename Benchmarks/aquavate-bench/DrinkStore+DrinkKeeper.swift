// The history's drink store as the session's observer: the live benchmark runs a session
// straight onto a database so that the per-chunk figure is the session and the commit, without
// the ingest's events and reminders. BottleSession may not import History
// (docs/architecture.md), so the conformance lives here.

import BottleSession
import History

extension DrinkStore: DrinkKeeper {}
