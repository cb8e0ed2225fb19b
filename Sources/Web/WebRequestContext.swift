// What the responder knows of a request beyond its bytes: the client's address, which the login
// back-off counts attempts under (LoginThrottle). Taken from the connection, never from a header a
// client could forge (`X-Forwarded-For`).

import Hummingbird
import NIOCore

struct WebRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The peer's IP address, as text.
    let client: String

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        client = source.channel.remoteAddress?.ipAddress ?? "unknown"
    }
}
