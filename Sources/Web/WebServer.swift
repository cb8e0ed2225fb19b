// The web server (docs/design.md 3.6) on Hummingbird: `run --http` beside the daemon, `serve`
// over a history alone, `demo --serve` after the demo. It is a ServiceLifecycle service; `run`
// places it in its group so that a server that fails (port taken) is logged and the daemon goes on.

import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle
import Settings
import Timekeeping

/// The server refused to start: one line saying why and what to do.
package struct WebStartRefused: Error, CustomStringConvertible, Sendable {
    package var description: String
}

package struct WebServer: Sendable {
    package let address: ListenAddress
    let context: WebContext
    let guardian: AccessGuard
    let logger: Logger

    /// Bounds on what one client may hold (1,100 idle sockets once used up the daemon's
    /// descriptors and it stopped syncing). At most `connectionCap` connections are open; past it
    /// the server stops accepting and the kernel's backlog holds the rest, so a flood costs the
    /// process no descriptor. A connection must deliver each whole request within
    /// `requestDeadline` of its start or of the previous answer (RequestDeadline), so idle and
    /// slow-loris connections give their place up within that time.
    package static let connectionCap = 128
    package static let requestDeadline: TimeAmount = .seconds(5)

    /// Checks the address against the settings: any address but loopback needs `web.token`, and
    /// `web.behind_proxy` (a TLS reverse proxy carries the token and the cookie, not clear HTTP).
    package init(context: WebContext, address: ListenAddress, logger: Logger,
                monotonic: any MonotonicClock = SystemClock()) throws(WebStartRefused) {
        // The file, `--set` and `config set` all count; read once: a new token needs a restart.
        let configuration = try? context.configuration()
        let token = configuration?[Setting.webToken]
        let publicName = configuration?[Setting.webPublicName]
        let behindProxy = configuration?[Setting.webBehindProxy] ?? false
        try Self.checkAccess(address: address, token: token, publicName: publicName, behindProxy: behindProxy)
        self.address = address
        self.context = context
        self.guardian = AccessGuard(token: token, publicName: publicName, behindProxy: behindProxy, clock: monotonic, logger: logger)
        self.logger = logger
    }

    /// Any address but loopback needs a token and a TLS proxy in front; a public name needs a token.
    package static func checkAccess(address: ListenAddress, token: String?, publicName: String? = nil,
                                   behindProxy: Bool = false) throws(WebStartRefused) {
        let hasToken = token.map { !$0.isEmpty } ?? false
        guard address.isLoopback || hasToken else {
            throw WebStartRefused(description: "listening on \(address) (not loopback) needs web.token: set it with `aquavate-bridge config set web.token SECRET`, or listen on 127.0.0.1")
        }
        guard address.isLoopback || behindProxy else {
            throw WebStartRefused(description: "listening on \(address) (not loopback) would send the token and the session in clear text: serve the page through a TLS reverse proxy and set web.behind_proxy=true (docs/web.md), or listen on 127.0.0.1")
        }
        guard publicName == nil || hasToken else {
            throw WebStartRefused(description: "web.public_name is set but web.token is not: a page reachable by name needs the token (`aquavate-bridge config set web.token SECRET`)")
        }
    }

    /// Where to listen: `--http` when given, else `web.listen`; nil when neither (the server is off).
    package static func address(option: String?, configuration: Configuration) throws(WebStartRefused) -> ListenAddress? {
        guard let text = option ?? configuration[Setting.webListen] else { return nil }
        do {
            return try ListenAddress(parsing: text)
        } catch {
            throw WebStartRefused(description: "--http \(text): \(error.description)")
        }
    }

    /// The service to run; `onListening` hears the port bound (the real one when 0 was asked).
    package func service(onListening: @escaping @Sendable (Int) async -> Void = { _ in }) -> some Service {
        var quiet = logger
        quiet.logLevel = .warning
        let responder = WebResponder(context: context, guardian: guardian, logger: logger)
        let deadline = Self.requestDeadline
        return Application(
            responder: responder,
            server: .http1(configuration: HTTP1Channel.Configuration(
                additionalChannelHandlers: [RequestDeadline(limit: deadline)], idleTimeout: deadline)),
            configuration: ApplicationConfiguration(
                address: .hostname(address.host, port: address.port), serverName: nil,
                availableConnectionsDelegate: MaximumAvailableConnections(Self.connectionCap)),
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? 0) },
            logger: quiet)
    }
}

extension WebServer {
    /// The service for a group it must not bring down: a server that fails (the port is taken)
    /// is logged, and the group's other services (the daemon) go on.
    package func serviceBesideDaemon() -> some Service {
        BesideDaemon(inner: service { [logger, address] port in
            logger.info("web: serving http://\(ListenAddress(host: address.host, port: port))/")
        }, logger: logger)
    }

    private struct BesideDaemon<Inner: Service>: Service {
        let inner: Inner
        let logger: Logger

        func run() async throws {
            do {
                try await inner.run()
            } catch {
                logger.error("web: the server stopped: \(error); the daemon goes on without it")
            }
        }
    }
}
