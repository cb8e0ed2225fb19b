// How a sink says a delivery failed, so the hub knows whether to retry.

package enum SinkDeliveryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The destination cannot be reached now (broker down, connection refused, 5xx, time-out).
    /// The hub keeps the item and retries with back-off. Any other error a sink throws is
    /// treated the same way.
    case unavailable(String)
    /// The destination answered and refused this item (e.g. HTTP 401, 404); retrying cannot
    /// help, so the hub logs the reason and drops the item.
    case rejected(String)

    package var description: String {
        switch self {
        case let .unavailable(reason): return reason
        case let .rejected(reason): return reason
        }
    }
}
