// Sends notifications to a phone through an ntfy-style HTTP push service (NtfyMessage).
//
// Outcomes: 2xx delivered; no answer, a time-out, 429 or 5xx → `.unavailable`, retried by the
// hub with back-off; any other status → `.rejected` with what to check, dropped (retrying a 401
// or a 404 cannot help). A redirect is never followed (PushTransfers): a 3xx is `.rejected`
// naming where the server pointed, and the request with its token goes nowhere else.

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

public final class HTTPPushSink: NotificationSink {
    public let name = "push"
    public let configuration: HTTPPushConfiguration
    private let session: URLSession
    private let transfers = PushTransfers()

    public init(configuration: HTTPPushConfiguration) {
        self.configuration = configuration
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.timeoutIntervalForRequest = configuration.timeoutSeconds
        sessionConfiguration.timeoutIntervalForResource = configuration.timeoutSeconds * 2
        sessionConfiguration.httpMaximumConnectionsPerHost = 1
        session = URLSession(configuration: sessionConfiguration, delegate: transfers, delegateQueue: nil)
    }

    public func stop() async {
        // Ends a request still in flight, so the hub's worker can finish.
        session.invalidateAndCancel()
    }

    public func deliver(_ notification: SinkNotification) async throws {
        let message = NtfyMessage(notification, configuration: configuration)
        var request = URLRequest(url: configuration.url, cachePolicy: .reloadIgnoringLocalCacheData,
                                 timeoutInterval: configuration.timeoutSeconds)
        request.httpMethod = "POST"
        request.httpBody = Data(message.body.utf8)
        for (field, value) in message.headers { request.setValue(value, forHTTPHeaderField: field) }

        let response: URLResponse
        do {
            response = try await self.response(to: request)
        } catch {
            throw SinkDeliveryError.unavailable("push server \(host) did not answer: \(Self.describe(error))")
        }
        guard let status = (response as? HTTPURLResponse)?.statusCode else {
            throw SinkDeliveryError.unavailable("push server \(host) gave no HTTP response")
        }
        switch status {
        case 200..<300:
            return
        case 300..<400:
            let target = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Location").map(Redirect.shown) ?? "nowhere"
            throw SinkDeliveryError.rejected("push server \(host) answered \(status) \(Self.reason(status)): it redirected to \(target); "
                + "redirects are not followed (the token would go with them): set push.url to the final URL")
        case 429, 500..<600:
            throw SinkDeliveryError.unavailable("push server \(host) answered \(status) \(Self.reason(status))")
        default:
            throw SinkDeliveryError.rejected("push server \(host) answered \(status) \(Self.reason(status)): \(Self.advice(status))")
        }
    }

    /// The response to `request`, through a delegate-driven data task and a continuation rather
    /// than `URLSession.data(for:)`. On Linux that method's cancellation handler cancels the URLSession
    /// task synchronously on the session's queue while holding the Swift task's status lock, and
    /// the session's queue, finishing the same request, waits for that lock to resume the task: a
    /// deadlock (seen as `SinkHub.stop()` hanging forever, gdb showing both threads). Here the Swift
    /// task's cancellation does not reach URLSession; a request in flight ends at `stop()`
    /// (`invalidateAndCancel`) or at its time-out.
    private func response(to request: URLRequest) async throws -> URLResponse {
        try await transfers.response(to: request, on: session)
    }

    /// A Location as it may be logged: one line, no credentials, not endless.
    private enum Redirect {
        static func shown(_ location: String) -> String {
            let line = location.filter { !$0.isNewline && $0 != "\r" }
            return String(MQTTBrokerURL.redacted(line).prefix(200))
        }
    }

    private var host: String { configuration.url.host ?? configuration.url.absoluteString }

    static func reason(_ status: Int) -> String {
        HTTPURLResponse.localizedString(forStatusCode: status)
    }

    /// What to check for a status that will not get better by retrying.
    static func advice(_ status: Int) -> String {
        switch status {
        case 401: return "the topic needs credentials: set push.token (Bearer) or user:password in push.url"
        case 403: return "the credentials may not publish to this topic: check the token and the topic's access rights"
        case 404: return "no such topic or endpoint: check push.url (the full topic URL, e.g. https://ntfy.sh/my-topic)"
        case 413: return "the message is larger than the server accepts"
        case 400: return "the server refused the request: check that push.url is an ntfy-compatible topic URL"
        default: return "check push.url and the server's logs"
        }
    }

    static func describe(_ error: Error) -> String {
        if let urlError = error as? URLError {
            switch urlError.code {
            case .timedOut: return "timed out"
            case .cannotConnectToHost: return "connection refused"
            case .cannotFindHost, .dnsLookupFailed: return "host not found"
            case .notConnectedToInternet, .networkConnectionLost: return "network unavailable"
            case .cancelled: return "cancelled"
            default: return urlError.localizedDescription
            }
        }
        return String(describing: error)
    }
}
