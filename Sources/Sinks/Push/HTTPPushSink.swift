// Sends notifications to a phone through an ntfy-style HTTP push service (NtfyMessage).
//
// Outcomes: 2xx delivered; no answer, a time-out, 429 or 5xx → `.unavailable`, retried by the
// hub with back-off; any other status → `.rejected` with what to check, dropped (retrying a 401
// or a 404 cannot help). A redirect is never followed (CurlTransport): a 3xx is `.rejected`
// naming where the server pointed, and the request with its token goes nowhere else.

import Foundation
import MQTT

package final class HTTPPushSink: NotificationSink {
    package let name = "push"
    package let configuration: HTTPPushConfiguration
    private let transport = CurlTransport()

    package init(configuration: HTTPPushConfiguration) {
        self.configuration = configuration
    }

    package func stop() async {
        // Ends a request still in flight, so the hub's worker can finish.
        transport.stop()
    }

    package func deliver(_ notification: SinkNotification) async throws {
        let message = NtfyMessage(notification, configuration: configuration)
        // Sorted: the same request for the same notification, whatever the dictionary's order.
        let headers = message.headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        let answer = await transport.post(url: configuration.url.absoluteString, headers: headers,
                                          body: Array(message.body.utf8), timeout: configuration.timeout)
        let status: Int
        let location: String?
        switch answer {
        case let .answered(answeredStatus, answeredLocation):
            (status, location) = (answeredStatus, answeredLocation)
        case let .noAnswer(why):
            throw SinkDeliveryError.unavailable("push server \(host) did not answer: \(why)")
        }
        switch status {
        case 200..<300:
            return
        case 300..<400:
            let target = location.map(Redirect.shown) ?? "nowhere"
            throw SinkDeliveryError.rejected("push server \(host) answered \(status) \(Self.reason(status)): it redirected to \(target); "
                + "redirects are not followed (the token would go with them): set push.url to the final URL")
        case 429, 500..<600:
            throw SinkDeliveryError.unavailable("push server \(host) answered \(status) \(Self.reason(status))")
        default:
            throw SinkDeliveryError.rejected("push server \(host) answered \(status) \(Self.reason(status)): \(Self.advice(status))")
        }
    }

    /// A Location as it may be logged: one line, no credentials, not endless.
    private enum Redirect {
        static func shown(_ location: String) -> String {
            let line = location.filter { !$0.isNewline && $0 != "\r" }
            return String(MQTTBrokerURL.redacted(line).prefix(200))
        }
    }

    private var host: String { configuration.url.host ?? configuration.url.absoluteString }

    /// The reason phrase of a status (RFC 9110), as FoundationNetworking's
    /// `HTTPURLResponse.localizedString(forStatusCode:)` gave it.
    static func reason(_ status: Int) -> String {
        switch status {
        case 301: return "moved permanently"
        case 302: return "found"
        case 303: return "see other"
        case 307: return "temporary redirect"
        case 308: return "permanent redirect"
        case 400: return "bad request"
        case 401: return "unauthorized"
        case 403: return "forbidden"
        case 404: return "not found"
        case 405: return "method not allowed"
        case 413: return "payload too large"
        case 429: return "too many requests"
        case 500: return "internal server error"
        case 502: return "bad gateway"
        case 503: return "service unavailable"
        case 504: return "gateway timeout"
        case 300..<400: return "redirection"
        case 400..<500: return "client error"
        case 500..<600: return "server error"
        default: return "unknown status"
        }
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
}
