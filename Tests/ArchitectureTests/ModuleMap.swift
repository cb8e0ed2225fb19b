// Which module may import which: the layering of docs/architecture.md ("Module map"),
// written as data so that `LayeringTests` can hold every source file to it.
//
// The floors and what each module holds are written once, in docs/architecture.md's table:
// `ModuleMapDocumentTests` holds this data to it, so the two cannot drift (this file keeps the
// why of each allowance, the document what the modules are).
// Package.swift's declared dependencies must lie inside this map (`ManifestTests`); the map may
// allow a module that comes only transitively (aquavate-bridge names Sinks, which Delivery brings).

enum ModuleMap {
    /// System modules any module with I/O may use.
    static let platform: Set<String> = ["Foundation", "Glibc", "Darwin", "Dispatch", "Synchronization"]

    /// Module → the modules its sources may import. A module missing here fails the check: a new
    /// module is placed on a floor when it is made.
    static let allowed: [String: Set<String>] = [
        // The wire formats: the standard library and Foundation only, so that anything may use
        // them and fuzzers and tests reach every byte without a bus or a disk.
        "AquavateProtocol": ["Foundation"],
        // The reminder rules: no I/O and no system time (an injected clock), so replay and tests
        // drive them; Foundation for calendars and time zones, Timekeeping for the local day.
        "Reminders": ["Foundation", "Timekeeping"],
        // The one lock type (and the waiting queue on it): pthread, and libdispatch for the
        // queue's time-outs.
        "Locking": ["Glibc", "Darwin"],
        // Time, written once: every module may use it. It holds the one place the system time is
        // read (`SystemClock`) and the manual clock's lock.
        "Timekeeping": ["Foundation", "Locking"],
        // Text for other programs, written once (JSON on the wire, null, XML escapes): Foundation
        // only, so that MQTT, the events, the web and D-Bus share one writer.
        "WireText": ["Foundation"],

        "AquavateCapture": platform.union(["AquavateProtocol", "Locking", "Timekeeping"]),
        "History": platform.union(["AquavateProtocol", "Timekeeping", "GRDB", "GRDBSQLite"]),
        "ProcessSupport": platform.union(["Locking", "Timekeeping"]),

        "DBus": platform.union(["CDBus", "Locking", "Timekeeping", "WireText"]),
        "BlueZ": platform.union(["DBus", "AquavateProtocol", "Locking", "Timekeeping", "Logging"]),
        // Stands in for bluetoothd: it must not share code with the client it is there to test.
        "BottleSimulator": platform.union(["DBus", "AquavateProtocol", "Locking", "Timekeeping"]),
        // Notifications go out; nothing of the bottle's transport comes in. HTTP goes through
        // CCurlLoader (libcurl loaded at first use), never FoundationNetworking: importing it
        // links libcurl and ~30 libraries into every start of the bridge (docs/performance.md).
        // MQTT likewise goes through CMosquittoLoader (libmosquitto, libssl, libcrypto at first use).
        "Sinks": platform.union(["AquavateProtocol", "CCurlLoader", "DBus", "MQTT", "Locking", "Timekeeping", "Logging"]),
        // The one MQTT client (libmosquitto through CMosquittoLoader, at the first client), shared
        // by the Home Assistant publisher in Sinks and by the household.
        // Its users' payloads are WireJSON, which it re-exports with the client.
        "MQTT": platform.union(["CMosquittoLoader", "Locking", "Timekeeping", "WireText", "Logging"]),

        // The settings: what the web and every command read, so nothing of Bluetooth, D-Bus or
        // systemd. The household key's check is swift-crypto's key.
        "Settings": platform.union(["History", "Reminders", "Timekeeping", "TOMLKit", "Crypto"]),
        // Is this machine's clock synchronised (adjtimex), and may SET_TIME be written from it.
        "HostClock": platform.union(["CTimex", "History", "Timekeeping"]),
        // The household (docs/household.md): on the MQTT client, not on the sinks, so that the web
        // may read its tally without D-Bus; its messages signed with swift-crypto's HMAC.
        "Household": platform.union([
            "MQTT", "Settings", "HostClock", "History", "AquavateProtocol", "Locking", "Timekeeping", "Logging",
            "ServiceLifecycle", "Crypto",
        ]),
        // The reminder engine run over the history and the configuration.
        "Reminding": platform.union(["Settings", "History", "Reminders", "Locking", "Timekeeping", "Logging"]),
        // What the bridge reports (JSON events, `status`, `history`, the sync tally): read by the
        // command line and the web alike.
        "Reports": platform.union([
            "Settings", "Reminding", "HostClock", "History", "Reminders", "AquavateProtocol", "AquavateCapture",
            "Locking", "Timekeeping", "WireText", "Logging",
        ]),

        // One bottle over BlueZ; everything it hears goes through its `BottleObserver` protocol,
        // so it knows nothing of the database (the bridge's ingest path is the observer).
        "BottleSession": platform.union(["BlueZ", "AquavateProtocol", "AquavateCapture", "Locking", "Timekeeping", "Logging"]),

        // The one path of bottle traffic into the history, and replay through it: the session's
        // `BottleObserver` and command queue, so BottleSession; no D-Bus of its own, no systemd.
        "Ingest": platform.union([
            "AquavateProtocol", "AquavateCapture", "BottleSession", "History", "Reminders", "Reminding", "Reports", "Settings",
            "Locking", "Timekeeping", "Logging",
        ]),
        // The sinks the configuration asks for.
        "Delivery": platform.union(["Sinks", "Settings", "History", "Reminders", "Logging"]),
        // `doctor`: asks BlueZ (D-Bus), the kernel (CBluetooth), the broker and the files.
        "Diagnostics": platform.union([
            "AquavateProtocol", "CBluetooth", "DBus", "Delivery", "History", "HostClock", "Household", "MQTT", "ProcessSupport",
            "Reports", "Settings", "Sinks", "Timekeeping",
        ]),
        // The daemon: Bluetooth, the bus and systemd (readiness, the watchdog); malloc_trim and the
        // loaded objects for the resident memory it gives back.
        "Daemon": platform.union([
            "Ingest", "Delivery", "AquavateProtocol", "BlueZ", "BottleSession", "CLink", "CMalloc", "CSystemd", "DBus", "History",
            "HostClock", "Household", "Locking", "ProcessSupport", "Reminders", "Reminding", "Reports", "Settings", "Sinks",
            "Timekeeping", "Logging", "ServiceLifecycle",
        ]),
        // The web page, JSON API and metrics: reads the history, the settings and the reports,
        // queues bottle commands through the history's one door (`BottleControl`); nothing of
        // Bluetooth, D-Bus or systemd (`OffTheBusTests`). Under Hummingbird, its core and NIO for
        // the server's bounds (the connection cap, the request deadline: a channel handler on
        // NIO's HTTP request parts); compress-nio's zlib for the answers of a client that takes gzip.
        "Web": platform.union([
            "Settings", "Reports", "Reminding", "Household", "History", "Reminders", "AquavateProtocol", "Locking",
            "Timekeeping", "WireText", "Logging", "ServiceLifecycle", "Hummingbird", "HummingbirdCore", "NIOCore", "NIOHTTPTypes", "Prometheus",
            "CompressNIO",
        ]),
        "aquavate-bridge": platform.union([
            "Daemon", "Diagnostics", "Delivery", "Ingest", "Web", "Settings", "Household", "Reminding", "HostClock", "Reports", "AquavateProtocol", "AquavateCapture", "History", "BlueZ", "BottleSession", "DBus", "Reminders",
            "Sinks", "BottleSimulator", "Locking", "ProcessSupport", "Timekeeping", "ArgumentParser", "Logging", "ServiceLifecycle",
        ]),
        "aquavate-sim": platform.union(["BottleSimulator", "DBus", "AquavateProtocol", "Locking", "Timekeeping", "ArgumentParser"]),
    ]

    /// The modules of Bluetooth, D-Bus and systemd: the Bluetooth stack and its bus, the
    /// service manager's notifications.
    static let bluetoothDBusSystemd: Set<String> = ["BlueZ", "BottleSession", "DBus", "CDBus", "CBluetooth", "CSystemd"]

    /// Modules that reach none of `bluetoothDBusSystemd`, not even through another module: the
    /// web (which serves the history to a network) and what it stands on, so that a bug there
    /// cannot touch the bus, and each can be built and tested without BlueZ.
    static let offTheBus: Set<String> = ["Web", "Settings", "Reports", "Reminding", "Household", "HostClock", "MQTT"]

    /// Every module `module` may reach through the map, itself excluded.
    static func reachable(from module: String, in map: [String: Set<String>] = allowed) -> Set<String> {
        var seen: Set<String> = []
        var next = Array(map[module] ?? [])
        while let current = next.popLast() {
            guard seen.insert(current).inserted else { continue }
            next.append(contentsOf: map[current] ?? [])
        }
        return seen
    }

    /// Imports the map allows although the design does not want them: module → import → why, and
    /// what removes it. Empty: every module keeps to the floors above. The check fails when an
    /// entry is no longer needed, so the list can only shrink.
    static let knownExceptions: [String: [String: String]] = [:]
}
