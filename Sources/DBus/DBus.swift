// DBus: the Swift face of libdbus-1 for aquavate-bridge (the BlueZ client, the simulated bottle,
// the desktop-notification sink).
//
// What is here
//   BusConnection      a private connection to the system bus, the session bus or an address;
//                      names, method calls with time-outs, signals, exported objects.
//   DBusValue          every D-Bus type, with its signature; encoding/decoding through
//                      DBusMessageIter; `DBusDecodable` for typed reads that throw on surprises.
//   MatchRule, SignalSubscription   signal subscriptions as AsyncSequences.
//   ExportedInterface  methods (immediate, task or deferred replies), properties, signals; the
//                      standard Properties, ObjectManager and Introspectable interfaces.
//   DBusFailure        an error reply (name + message); DBusCallTimedOut, DBusDisconnected, …
//
// Threading model
//   * One owner thread per connection. It opens the connection (dbus_connection_open_private +
//     dbus_bus_register), then loops: run queued jobs, dispatch incoming messages, poll() on the
//     descriptors libdbus asks for (watch functions) plus an eventfd. Every libdbus call on the
//     connection is made on that thread, so libdbus never sees two threads on one connection —
//     the mix that made blocking calls wait up to 400 ms behind a dispatch loop (docs/swift-linux.md
//     P5). No call here blocks on the bus; replies come back through pending-call notifies.
//   * Other threads talk to it through a locked FIFO job queue and a write to the eventfd. All
//     outgoing messages go through that queue, in the order they were produced, so a signal
//     emitted before a method reply reaches the peer before the reply. An idle connection sleeps
//     in poll() with no periodic wake-up.
//   * Public types are Sendable: `BusConnection` and friends are final classes whose mutable
//     state is either owner-thread-only (the class is `@unchecked Sendable` and says so), behind a
//     `Locked` (Locking: the job queue, the exported-object registry), or atomic. Results come back to
//     async callers through continuations; exported-method handlers run on the owner thread
//     (`.immediate`, `.deferred`) or in their own Task (`.task`).
//
// libdbus pitfalls handled here (docs/swift-linux.md): DBUS_TYPE_* come from the CDBus shim (P1); no
// varargs (P2); private connections only, never the cached `dbus_bus_get`, and no
// exit-on-disconnect (P10); the unicast NameAcquired reaches only a rule that asks for it (P10);
// the C `DBusError` struct stays internal and the Swift error is `DBusFailure` (P12). Anything
// libdbus would abort on (an invalid name, path, signature or value) is checked in Swift first.
