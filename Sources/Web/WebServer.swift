// The web server (docs/design.md 3.6) on Hummingbird: `run --http` beside the daemon, `serve`
// over a history alone, `demo --serve` after the demo. It is a ServiceLifecycle service; `run`
// places it in its group so that a server that fails (port taken) is logged and the daemon goes on.

import Bridge
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

/// The server refused to start: one line saying why and what to do.
public struct WebStartRefused: Error, CustomStringConvertible, Sendable {
    public var description: String
}

public struct WebServer: Sendable {
    public let address: ListenAddress
    let context: WebContext
    let guardian: AccessGuard
    let logger: Logger

    /// Checks the address against the token: any address but loopback needs `web.token`.
    public init(context: WebContext, address: ListenAddress, logger: Logger) throws(WebStartRefused) {
        // The file, `--set` and `config set` all count; read once: a new token needs a restart.
        let token = (try? context.configuration())?.value("web.token")
        try Self.checkAccess(address: address, token: token)
        self.address = address
        self.context = context
        self.guardian = AccessGuard(token: token)
        self.logger = logger
    }

    /// Any address but loopback needs a token.
    public static func checkAccess(address: ListenAddress, token: String?) throws(WebStartRefused) {
        guard address.isLoopback || (token.map { !$0.isEmpty } ?? false) else {
            throw WebStartRefused(description: "listening on \(address) (not loopback) needs web.token: set it with `aquavate-bridge config set web.token SECRET`, or listen on 127.0.0.1")
        }
    }

    /// Where to listen: `--http` when given, else `web.listen`; nil when neither (the server is off).
    public static func address(option: String?, configuration: Configuration) throws(WebStartRefused) -> ListenAddress? {
        guard let text = option ?? configuration.value("web.listen") else { return nil }
        do {
            return try ListenAddress(parsing: text)
        } catch {
            throw WebStartRefused(description: "--http \(text): \(error.description)")
        }
    }

    /// The service to run; `onListening` hears the port bound (the real one when 0 was asked).
    public func service(onListening: @escaping @Sendable (Int) async -> Void = { _ in }) -> some Service {
        var quiet = logger
        quiet.logLevel = .warning
        let responder = WebResponder(context: context, guardian: guardian, logger: logger)
        return Application(
            responder: responder,
            configuration: ApplicationConfiguration(address: .hostname(address.host, port: address.port), serverName: nil),
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? 0) },
            logger: quiet)
    }
}

extension WebServer {
    /// The service for a group it must not bring down: a server that fails (the port is taken)
    /// is logged, and the group's other services (the daemon) go on.
    public func serviceBesideDaemon() -> some Service {
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
