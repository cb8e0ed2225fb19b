// The numbers of the connect state machine, from bleak and bleak-retry-connector (docs/bluez.md 2, 3),
// and the back-off after each kind of failure — the one place that decides how long to wait.

/// Time-outs, retry counts and back-offs for connecting and for GATT operations.
package struct ConnectPolicy: Sendable {
    /// One Connect + service resolution attempt (brc `BLEAK_TIMEOUT` = 20 s; F18).
    package var attemptTimeout: Duration
    /// The whole connect, all attempts included (brc `BLEAK_SAFETY_TIMEOUT` = 60 s, "since the
    /// dbus connection can stall"; F18).
    package var safetyTimeout: Duration
    /// Attempts that failed for a non-transient reason (brc `MAX_CONNECT_ATTEMPTS` = 4).
    package var maxAttempts: Int
    /// Transient failures such as `le-connection-abort-by-local` (brc `MAX_TRANSIENT_ERRORS` = 9).
    package var maxTransientErrors: Int
    /// Back-off after a transient failure or a D-Bus error (brc: 0.25 s).
    package var transientBackoff: Duration
    /// Back-off after the device vanished (brc `BACKOFF_TIME` for DeviceNotFound: 4 s; F5).
    package var deviceGoneBackoff: Duration
    /// How long to wait for `Connected=false` after an abort before retrying anyway (F1).
    package var abortSettleTimeout: Duration
    /// How long the GATT objects may lag behind `ServicesResolved` (docs/bluez.md 7.4).
    package var gattObjectsTimeout: Duration
    /// A `Disconnect` call (BlueZ replies about 2 s later, docs/bluez.md 7.8).
    package var disconnectTimeout: Duration
    /// Deadline of one read or write, `InProgress` retries included (F2).
    package var gattOperationTimeout: Duration
    /// Pause between `InProgress` retries (bleak: 10 ms; F2).
    package var inProgressRetryInterval: Duration

    package init(
        attemptTimeout: Duration = .seconds(20), safetyTimeout: Duration = .seconds(60), maxAttempts: Int = 4,
        maxTransientErrors: Int = 9, transientBackoff: Duration = .milliseconds(250),
        deviceGoneBackoff: Duration = .seconds(4), abortSettleTimeout: Duration = .seconds(5),
        gattObjectsTimeout: Duration = .seconds(5), disconnectTimeout: Duration = .seconds(5),
        gattOperationTimeout: Duration = .seconds(10), inProgressRetryInterval: Duration = .milliseconds(10)
    ) {
        self.attemptTimeout = attemptTimeout
        self.safetyTimeout = safetyTimeout
        self.maxAttempts = maxAttempts
        self.maxTransientErrors = maxTransientErrors
        self.transientBackoff = transientBackoff
        self.deviceGoneBackoff = deviceGoneBackoff
        self.abortSettleTimeout = abortSettleTimeout
        self.gattObjectsTimeout = gattObjectsTimeout
        self.disconnectTimeout = disconnectTimeout
        self.gattOperationTimeout = gattOperationTimeout
        self.inProgressRetryInterval = inProgressRetryInterval
    }

    package static let standard = ConnectPolicy()

    /// How long to wait before looking for the bottle again after `error` ended a connect or a
    /// session (brc `calculate_backoff_time`): 4 s when the device object is gone (F5, F7),
    /// 0 after a normal disconnect, 0.25 s otherwise.
    package func backoff(after error: (any Error)?) -> Duration {
        switch error {
        case nil: return .zero
        case is DeviceVanished, is StaleGATTCache: return deviceGoneBackoff
        case let lost as LinkLost where lost.reason == .vanished: return deviceGoneBackoff
        case is LinkLost: return .zero
        default: return transientBackoff
        }
    }
}
