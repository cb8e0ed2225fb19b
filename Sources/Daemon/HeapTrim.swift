// Keeps the daemon's heap from creeping over weeks (docs/design.md 5: the last 1,000 of 10,000
// syncs within 1 MB of the first 1,000).
//
// glibc gives each thread that allocates its own malloc arena, up to eight per core, and returns
// little of a freed arena to the system: a session's buffers, freed on one libdispatch thread and
// allocated next time on another, leave each arena holding pages nobody uses. The soak
// (Benchmarks/soak.py) showed resident memory rising by a few hundred KiB per thousand syncs,
// all of it in those arenas. Two arenas are plenty for a daemon that is idle between sessions,
// and trimming after each session hands the freed pages back.

import CMalloc

package enum HeapTrim {
    /// At start, before the threads that would each take an arena.
    package static func limitArenas() {
        _ = mallopt(M_ARENA_MAX, 2)
    }

    /// After a session: free pages go back to the system (a few milliseconds of work).
    package static func returnFreedMemory() {
        _ = malloc_trim(0)
    }
}
