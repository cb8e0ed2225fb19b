// swift-tools-version:6.0
// aquavate-bridge: a Linux bridge for the Aquavate smart water bottle.
// Module layout: see docs/architecture.md ("Module map").
import PackageDescription

let package = Package(
    name: "aquavate-bridge",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "aquavate-bridge", targets: ["aquavate-bridge"]),
        .executable(name: "aquavate-sim", targets: ["aquavate-sim"]),
        .library(name: "AquavateProtocol", targets: ["AquavateProtocol"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", exact: "0.6.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", exact: "2.13.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
        // NIO itself (Hummingbird's), for the web server's request deadline (a channel handler).
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
        .package(url: "https://github.com/apple/swift-nio-extras", exact: "1.35.2"),
        .package(url: "https://github.com/swift-server/swift-prometheus", exact: "2.4.1"),
        // gzip of the web answers (zlib, through NIO's ByteBuffer).
        .package(url: "https://github.com/adam-fowler/compress-nio", exact: "1.5.0"),
        // HMAC-SHA-256 of the household's messages (the version Hummingbird's graph resolves too).
        .package(url: "https://github.com/apple/swift-crypto", exact: "4.5.2"),
    ],
    targets: [
        // C libraries, found through pkg-config (apt: libdbus-1-dev, libbluetooth-dev, libsystemd-dev).
        .systemLibrary(name: "CDBus", pkgConfig: "dbus-1", providers: [.apt(["libdbus-1-dev"])]),
        .systemLibrary(name: "CBluetooth", pkgConfig: "bluez", providers: [.apt(["libbluetooth-dev"])]),
        // adjtimex(2) from glibc's sys/timex.h: is the clock synchronised?
        .systemLibrary(name: "CTimex"),
        .systemLibrary(name: "CMalloc"),
        .target(name: "CLink"),
        // sd_notify / sd_watchdog_enabled: readiness, status and the watchdog of a Type=notify service.
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),

        // The no-I/O core: wire formats of docs/protocol.md.
        .target(name: "AquavateProtocol"),
        // Text the bridge writes for other programs, written once: `WireJSON` (the one Codable JSON
        // writer and reader of MQTT, the events and the web), `@Nullable` (the one way of writing
        // null) and `XMLText` (the one escaper of XML and HTML).
        .target(name: "WireText"),
        // Time, written once: the injected wall clock (system and manual), the monotonic clock, the
        // local day and its time zone, the civil calendar, ISO 8601 text; when this machine's clock
        // may set the bottle's (`SetTimePolicy`).
        .target(name: "Timekeeping", dependencies: ["Locking"]),
        // .aqcap capture files and btsnoop import.
        .target(name: "AquavateCapture", dependencies: ["AquavateProtocol", "Locking", "Timekeeping"]),
        // The drink history (GRDB / SQLite), and the bottle command queue with its one door
        // (`BottleControl`).
        .target(name: "History", dependencies: [
            "AquavateProtocol", "Timekeeping",
            .product(name: "GRDB", package: "GRDB.swift"),
            // SQLite's C API, for the one statement bound by hand (DrinkInsert.swift says why).
            .product(name: "GRDBSQLite", package: "GRDB.swift"),
        ]),
        // Swift face of libdbus.
        .target(name: "DBus", dependencies: ["CDBus", "Locking", "Timekeeping", "WireText"]),
        // BlueZ client over the DBus module.
        .target(name: "BlueZ", dependencies: [
            "DBus", "AquavateProtocol", "Locking", "Timekeeping", .product(name: "Logging", package: "swift-log"),
        ]),
        // One connection to one bottle: subscriptions, SET_TIME, the sync engine.
        .target(name: "BottleSession", dependencies: [
            "BlueZ", "AquavateProtocol", "AquavateCapture", "Locking", "Timekeeping", .product(name: "Logging", package: "swift-log"),
        ]),
        // Reminder rules (docs/reminders.md), driven by an injected clock.
        .target(name: "Reminders", dependencies: ["Timekeeping"]),
        // One HTTP POST through libcurl loaded with dlopen at first use (HTTP push), so that a
        // bridge without push never loads libcurl and its ~30 libraries (curl.h from libcurl4-openssl-dev).
        .target(name: "CCurlLoader"),
        // libmosquitto (MQTT) loaded with dlopen at the first MQTT client, so that a bridge without
        // MQTT never maps it and the libssl and libcrypto it brings (mosquitto.h from libmosquitto-dev).
        .target(name: "CMosquittoLoader"),
        // The MQTT client every MQTT user shares (the Home Assistant publisher in Sinks, the
        // household): libmosquitto through CMosquittoLoader, the broker URL, topic names, the JSON
        // of the payloads, and the errors of setting up and delivering.
        .target(name: "MQTT", dependencies: ["CMosquittoLoader", "Locking", "Timekeeping", "WireText", .product(name: "Logging", package: "swift-log")]),
        // The settings: typed keys (`SettingCatalog`), the TOML file, stored settings and `--set`,
        // per-bottle views, the listen address, host name and household key. Nothing of Bluetooth,
        // D-Bus or systemd, so that the web and every command may read them. (Not `Configuration`:
        // swift-configuration, which Hummingbird brings, has a module of that name.)
        .target(name: "Settings", dependencies: [
            "History", "Reminders", "Timekeeping",
            .product(name: "TOMLKit", package: "TOMLKit"),
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        // Notification sinks: journal, desktop, MQTT with Home Assistant discovery, HTTP push.
        .target(name: "Sinks", dependencies: ["AquavateProtocol", "MQTT", "DBus", "CCurlLoader", "Locking", "Timekeeping", .product(name: "Logging", package: "swift-log")]),
        // Several bridges on one broker (docs/household.md): the signed link, drink replication,
        // claims and reminder hand-over, membership.
        .target(name: "Household", dependencies: [
            "MQTT", "Settings", "HostClock", "History", "AquavateProtocol", "Locking", "Timekeeping",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        // The reminder engine run over the history: its ledger, settings from the configuration,
        // stored schedules, the runner that restores, ticks and saves it.
        .target(name: "Reminding", dependencies: [
            "Settings", "History", "Reminders", "Locking", "Timekeeping", .product(name: "Logging", package: "swift-log"),
        ]),
        // This machine's clock: synchronised (adjtimex), and trusted enough for SET_TIME.
        .target(name: "HostClock", dependencies: ["CTimex", "History", "Timekeeping"]),
        // What the bridge reports: the JSON events, `status`, `history`, the sync tally of /metrics,
        // and its log lines (`JournalLogHandler`: journal priorities, or plain on a terminal).
        .target(name: "Reports", dependencies: [
            "Settings", "Reminding", "HostClock", "History", "Reminders", "AquavateProtocol", "AquavateCapture", "Locking", "Timekeeping",
            "WireText", .product(name: "Logging", package: "swift-log"),
        ]),
        // The one path of bottle traffic into the history (`BottleIngest`: row, store, outcome,
        // reminder input, the session's command queue), and the replay of captures through it.
        .target(name: "Ingest", dependencies: [
            "AquavateProtocol", "AquavateCapture", "BottleSession", "History", "Reminders", "Reminding", "Reports", "Settings",
            "Locking", "Timekeeping", .product(name: "Logging", package: "swift-log"),
        ]),
        // Which sinks the configuration asks for, and what a reminder delivery becomes for them.
        .target(name: "Delivery", dependencies: [
            "Sinks", "Settings", "History", "Reminders", .product(name: "Logging", package: "swift-log"),
        ]),
        // `doctor`: each check of the machine, BlueZ, the service, the files, the broker and the
        // household, as findings with a fix.
        .target(name: "Diagnostics", dependencies: [
            "AquavateProtocol", "CBluetooth", "DBus", "Delivery", "History", "HostClock", "Household", "MQTT", "ProcessSupport",
            "Reports", "Settings", "Sinks", "Timekeeping",
        ]),
        // The daemon on Bluetooth and systemd: the loop that finds and syncs bottles, the live
        // session's events into the ingest, `ReminderDesk`, the watchdog and readiness, the
        // instance lock; `bottle info` and calibration, which find a bottle as the loop does.
        .target(name: "Daemon", dependencies: [
            "Ingest", "Delivery", "AquavateProtocol", "BlueZ", "BottleSession", "CLink", "CMalloc", "CSystemd", "DBus", "History",
            "HostClock", "Household", "Locking", "ProcessSupport", "Reminders", "Reminding", "Reports", "Settings", "Sinks", "Timekeeping",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        // The web page, JSON API and Prometheus metrics over the history (docs/design.md 3.6).
        // Nothing of Bluetooth, D-Bus or systemd.
        .target(name: "Web", dependencies: [
            "Settings", "Reports", "Reminding", "Household", "History", "Reminders", "AquavateProtocol", "Locking", "Timekeeping",
            "WireText", .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdCore", package: "hummingbird"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            .product(name: "Prometheus", package: "swift-prometheus"),
            .product(name: "CompressNIO", package: "compress-nio"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        // A lock ThreadSanitizer can see (Synchronization.Mutex is invisible to it on Linux), and the
        // waiting queue built on it that DBus and BlueZ share.
        .target(name: "Locking"),
        // Child processes started race-free and awaited without blocking a thread (dbus-daemon, tools).
        .target(name: "ProcessSupport", dependencies: ["Locking", "Timekeeping"]),
        // A BlueZ-faithful simulated bottle exported on D-Bus.
        .target(name: "BottleSimulator", dependencies: ["DBus", "AquavateProtocol", "Locking", "Timekeeping"]),

        .executableTarget(name: "aquavate-bridge", dependencies: [
            "Daemon", "Diagnostics", "Delivery", "Ingest", "Web", "Settings", "Household", "Reminding", "HostClock", "Reports", "AquavateProtocol", "AquavateCapture", "History", "BlueZ", "BottleSession", "DBus", "Reminders", "BottleSimulator", "Locking", "ProcessSupport", "Timekeeping",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        .executableTarget(name: "aquavate-sim", dependencies: [
            "BottleSimulator", "DBus", "AquavateProtocol", "Locking", "Timekeeping",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),

        // libFuzzer targets (build only with Fuzz/run.sh: -sanitize=fuzzer -DFUZZING).
        .target(name: "FuzzDriver", path: "Fuzz/FuzzDriver"),
        .executableTarget(name: "fuzz-chunk", dependencies: ["AquavateProtocol", "FuzzDriver"], path: "Fuzz/fuzz-chunk"),
        .executableTarget(name: "fuzz-aqcap", dependencies: ["AquavateCapture", "FuzzDriver"], path: "Fuzz/fuzz-aqcap"),
        .executableTarget(name: "fuzz-dbus", dependencies: ["DBus", "CDBus", "FuzzDriver"], path: "Fuzz/fuzz-dbus"),

        // Benchmarks (not tests): `swift run -c release aquavate-bench`.
        .executableTarget(name: "aquavate-bench", dependencies: [
            "AquavateProtocol", "AquavateCapture", "History", "Ingest", "Daemon", "Settings", "Reminders", "ProcessSupport", "BottleSimulator", "BlueZ", "DBus", "Timekeeping",
            .product(name: "Logging", package: "swift-log"),
        ], path: "Benchmarks/aquavate-bench"),

        .testTarget(name: "LockingTests", dependencies: ["Locking"]),
        .testTarget(name: "TimekeepingTests", dependencies: ["Timekeeping", "Locking"]),
        .testTarget(name: "ProcessSupportTests", dependencies: ["ProcessSupport"]),
        .testTarget(name: "AquavateProtocolTests", dependencies: ["AquavateProtocol", "BusTestSupport"]),
        .testTarget(name: "AquavateCaptureTests", dependencies: ["AquavateCapture", "AquavateProtocol", "Timekeeping", "BusTestSupport"]),
        // Fixtures/: a history written by a released bridge, and the script that made it.
        .testTarget(name: "HistoryTests", dependencies: ["History", "AquavateProtocol", "Timekeeping"], exclude: ["Fixtures"]),
        // Test helpers shared by the targets that run tools: private dbus-daemons, a mosquitto broker,
        // scratch folders, the built binary, values and log lines recorded from other threads.
        .target(name: "BusTestSupport", dependencies: ["ProcessSupport", "BottleSimulator", "Locking", .product(name: "Logging", package: "swift-log")],
                path: "Tests/BusTestSupport"),
        .testTarget(name: "DBusTests", dependencies: ["Locking", "DBus", "BusTestSupport", "ProcessSupport"]),
        .testTarget(name: "RemindersTests", dependencies: ["Reminders", "Timekeeping"]),
        .testTarget(name: "SinksTests", dependencies: ["Sinks", "AquavateProtocol", "MQTT", "Timekeeping", "DBus", "BusTestSupport", "ProcessSupport"]),
        .testTarget(name: "InstallTests", dependencies: ["Locking", "Daemon", "Settings", "HostClock", "DBus", "BusTestSupport", "ProcessSupport"]),
        // Bleak/sync_40.py: bleak, Home Assistant's BLE library, as a second client of the simulator.
        .testTarget(name: "BottleSimulatorTests", dependencies: ["Locking", "Timekeeping", "BottleSimulator", "DBus", "AquavateProtocol", "BusTestSupport", "ProcessSupport"],
                    exclude: ["Bleak"]),
        // The BlueZ client against python-dbusmock's BlueZ.
        .testTarget(name: "BlueZTests", dependencies: ["BlueZ", "DBus", "AquavateProtocol", "BusTestSupport", .product(name: "Logging", package: "swift-log")]),
        // Fakes of the bottle for tests without a bus: `FakeBottle` (the firmware's sync state machine,
        // its bugs and faults) behind `FakeLink` (a scripted `BottleLink`), the store and the clock they write to.
        .target(name: "TestSupport", dependencies: ["AquavateProtocol", "BlueZ", "BottleSession", "History", "Locking", "Timekeeping"],
                path: "Tests/TestSupport"),
        // The bottle session over a scripted link, and on the simulated bottle through the BlueZ client.
        .testTarget(name: "BottleSessionTests", dependencies: ["Locking", "Timekeeping", "BlueZ", "BottleSession", "DBus", "AquavateProtocol", "AquavateCapture",
                                                              "History", "BottleSimulator", "BusTestSupport", "TestSupport",
                                                              .product(name: "Logging", package: "swift-log")]),
        // Which module may import which (docs/architecture.md, "Module map"): reads the source tree, builds
        // against nothing of the product.
        .testTarget(name: "ArchitectureTests"),
        .testTarget(name: "WebTests", dependencies: ["Web", "Settings", "Reports", "History", "Reminders", "Reminding", "TestFixtures", "Locking", "Timekeeping", "ProcessSupport", "AquavateProtocol", "BusTestSupport", .product(name: "Logging", package: "swift-log")]),
        // Fixtures the ingest, report, daemon, web and end-to-end tests share: replaying captures, building
        // records, chunks and capture lines, keeping log lines, serving and reading the page.
        .target(name: "TestFixtures", dependencies: ["AquavateProtocol", "History", "Ingest", "Reports", "Settings", "Locking", "Timekeeping", "Web", .product(name: "Logging", package: "swift-log")],
                path: "Tests/TestFixtures"),
        // One unit-test target per module of the daemon's side (docs/architecture.md): in-process, no bus.
        .testTarget(name: "IngestTests", dependencies: ["Ingest", "BottleSession", "Reports", "Settings", "History", "AquavateProtocol", "Locking", "Timekeeping", "TestFixtures", "TestSupport", .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "ReportsTests", dependencies: ["Reports", "Settings", "History", "Timekeeping", "TestFixtures", "BusTestSupport"]),
        .testTarget(name: "HostClockTests", dependencies: ["HostClock", "Reports", "Settings", "History", "BottleSession", "AquavateProtocol"]),
        .testTarget(name: "DaemonTests", dependencies: ["Daemon", "BlueZ", "Reminding", "Reminders", "Reports", "Settings", "Sinks", "History", "AquavateProtocol", "Locking", "Timekeeping",
                                                        "BusTestSupport", "CLink", "TestFixtures", .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "HouseholdTests", dependencies: ["Household", "AquavateProtocol", "MQTT", "Sinks", "TestFixtures", .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "WireTextTests", dependencies: ["WireText", "BusTestSupport"]),
        .testTarget(name: "MQTTTests", dependencies: ["MQTT", "BusTestSupport", .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "SettingsTests", dependencies: ["Settings", "Reminders", "History"]),
        .testTarget(name: "RemindingTests", dependencies: ["Reminding", "Settings", "History", "Reminders", "Timekeeping", .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "DeliveryTests", dependencies: ["Delivery", "Sinks", "MQTT", "Settings", "History", "Reminders", "Timekeeping", "BusTestSupport",
                                                          .product(name: "Logging", package: "swift-log")]),
        // `doctor`'s checks, in process on private buses and fake sysfs trees, and the built binary's `doctor`.
        .testTarget(name: "DiagnosticsTests", dependencies: ["Diagnostics", "Household", "HostClock", "History", "Settings", "DBus", "BusTestSupport",
                                                             "TestFixtures"]),
        // The whole program as its users run it: the built binaries on private buses, brokers, several
        // bridges of a household, crashes, chaos seeds, a real Home Assistant (HomeAssistant/: its
        // DaysAhead/days-ahead.c is compiled by the tests themselves, into a library they preload).
        .testTarget(name: "EndToEndTests", dependencies: ["Locking", "Timekeeping", "Daemon", "Web", "Diagnostics", "Delivery", "Settings", "MQTT", "Household", "HostClock", "Reports",
                                                           "History", "AquavateProtocol", "Sinks", "BusTestSupport", "ProcessSupport", "TestFixtures", .product(name: "Logging", package: "swift-log")],
                    exclude: ["HomeAssistant/DaysAhead"]),
    ]
)
