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
        // Time, written once: the injected wall clock (system and manual), the monotonic clock, the
        // local day and its time zone, the civil calendar, ISO 8601 text.
        .target(name: "Timekeeping", dependencies: ["Locking"]),
        // .aqcap capture files and btsnoop import.
        .target(name: "AquavateCapture", dependencies: ["AquavateProtocol", "Locking", "Timekeeping"]),
        // The drink history (GRDB / SQLite).
        .target(name: "History", dependencies: [
            "AquavateProtocol", "Timekeeping",
            .product(name: "GRDB", package: "GRDB.swift"),
            // SQLite's C API, for the one statement bound by hand (DrinkInsert.swift says why).
            .product(name: "GRDBSQLite", package: "GRDB.swift"),
        ]),
        // Swift face of libdbus.
        .target(name: "DBus", dependencies: ["CDBus", "Locking", "Timekeeping"]),
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
        // Notification sinks: journal, desktop, MQTT, HTTP push.
        .target(name: "Sinks", dependencies: ["DBus", "CMosquittoLoader", "CCurlLoader", "Locking", "Timekeeping", .product(name: "Logging", package: "swift-log"),
                                     .product(name: "Crypto", package: "swift-crypto")]),
        // Configuration, replay, the daemon's wiring.
        .target(name: "Bridge", dependencies: [
            "AquavateProtocol", "AquavateCapture", "History", "Reminders", "Sinks", "DBus", "CBluetooth", "CSystemd", "CTimex", "CMalloc", "CLink", "BlueZ", "BottleSession", "ProcessSupport", "Locking", "Timekeeping",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "TOMLKit", package: "TOMLKit"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        // The web page, JSON API and Prometheus metrics over the history (docs/design.md 3.6).
        .target(name: "Web", dependencies: [
            "Bridge", "History", "Reminders", "AquavateProtocol", "Locking", "Timekeeping",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdCore", package: "hummingbird"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            .product(name: "Prometheus", package: "swift-prometheus"),
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
            "Bridge", "Web", "AquavateProtocol", "AquavateCapture", "History", "BlueZ", "BottleSession", "DBus", "Reminders", "BottleSimulator", "Locking", "Timekeeping",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        .executableTarget(name: "aquavate-sim", dependencies: [
            "BottleSimulator", "DBus", "AquavateProtocol", "Locking", "Timekeeping",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),

        // libFuzzer targets (build only with Fuzz/run.sh: -sanitize=fuzzer -DFUZZING).
        .executableTarget(name: "fuzz-chunk", dependencies: ["AquavateProtocol"], path: "Fuzz/fuzz-chunk"),
        .executableTarget(name: "fuzz-aqcap", dependencies: ["AquavateCapture"], path: "Fuzz/fuzz-aqcap"),
        .executableTarget(name: "fuzz-dbus", dependencies: ["DBus", "CDBus"], path: "Fuzz/fuzz-dbus"),

        // Benchmarks (not tests): `swift run -c release aquavate-bench`.
        .executableTarget(name: "aquavate-bench", dependencies: [
            "AquavateProtocol", "AquavateCapture", "History", "Bridge", "Reminders", "ProcessSupport", "BottleSimulator", "BlueZ", "DBus", "Timekeeping",
            .product(name: "Logging", package: "swift-log"),
        ], path: "Benchmarks/aquavate-bench"),

        .testTarget(name: "LockingTests", dependencies: ["Locking"]),
        .testTarget(name: "TimekeepingTests", dependencies: ["Timekeeping", "Locking"]),
        .testTarget(name: "ProcessSupportTests", dependencies: ["ProcessSupport"]),
        .testTarget(name: "AquavateProtocolTests", dependencies: ["AquavateProtocol", "BusTestSupport"]),
        .testTarget(name: "AquavateCaptureTests", dependencies: ["AquavateCapture", "AquavateProtocol"]),
        .testTarget(name: "HistoryTests", dependencies: ["History", "AquavateProtocol", "Timekeeping"]),
        // Test helpers shared by the targets that need a private dbus-daemon.
        .target(name: "BusTestSupport", dependencies: ["ProcessSupport", "BottleSimulator", "Locking"], path: "Tests/BusTestSupport"),
        .testTarget(name: "DBusTests", dependencies: ["Locking", "DBus", "BusTestSupport", "ProcessSupport"]),
        .testTarget(name: "RemindersTests", dependencies: ["Reminders", "Timekeeping"]),
        .testTarget(name: "SinksTests", dependencies: ["Sinks", "Timekeeping", "DBus", "BusTestSupport", "ProcessSupport"]),
        .testTarget(name: "InstallTests", dependencies: ["Locking", "Bridge", "DBus", "BusTestSupport", "ProcessSupport"]),
        // Bleak/sync_40.py: bleak, Home Assistant's BLE library, as a second client of the simulator.
        .testTarget(name: "BottleSimulatorTests", dependencies: ["Locking", "Timekeeping", "BottleSimulator", "DBus", "AquavateProtocol", "BusTestSupport", "ProcessSupport"],
                    exclude: ["Bleak"]),
        // The BlueZ client against python-dbusmock's BlueZ.
        .testTarget(name: "BlueZTests", dependencies: ["BlueZ", "DBus", "AquavateProtocol", "BusTestSupport", .product(name: "Logging", package: "swift-log")]),
        // The bottle session over a scripted link, and on the simulated bottle through the BlueZ client.
        .testTarget(name: "BottleSessionTests", dependencies: ["Locking", "Timekeeping", "BlueZ", "BottleSession", "DBus", "AquavateProtocol", "AquavateCapture",
                                                              "History", "BottleSimulator", "BusTestSupport", .product(name: "Logging", package: "swift-log")]),
        // Which module may import which (docs/architecture.md, "Module map"): reads the source tree, builds
        // against nothing of the product.
        .testTarget(name: "ArchitectureTests"),
        // DaysAhead/days-ahead.c: compiled by the tests themselves, into a library they preload (FakeDays.swift).
        .testTarget(name: "HomeAssistantTests", dependencies: ["BusTestSupport", "Locking", "ProcessSupport", "Timekeeping"],
                    exclude: ["DaysAhead"]),
        .testTarget(name: "WebTests", dependencies: ["Web", "Bridge", "History", "Locking", "Timekeeping", "ProcessSupport", "AquavateProtocol", "BusTestSupport", .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "BridgeTests", dependencies: ["Locking", "Timekeeping", "Bridge", "AquavateCapture", "History", "AquavateProtocol", "Reminders", "Sinks", "BusTestSupport", "ProcessSupport", "CLink"]),
    ]
)
