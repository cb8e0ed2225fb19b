// The web server as `serve` and `demo --serve` run it: alone in a service group until SIGTERM or
// SIGINT, its address printed once it listens (with the port the system chose for `--http 0`).

import ArgumentParser
import Foundation
import Logging
import Reports
import ServiceLifecycle
import Settings
import Web

enum WebServing {
    /// The server of `context` at `address` until a signal; one line on failure (exit 1).
    static func serveUntilSignal(context: WebContext, address: ListenAddress, logger: Logger, command: String) async throws {
        let server: WebServer
        do {
            server = try WebServer(context: context, address: address, logger: logger)
        } catch {
            StandardError.writeLine("aquavate-bridge \(command): \(error.description)")
            throw ExitCode.failure
        }
        let service = server.service { port in
            var shown = address
            shown.port = port
            // Unbuffered, after what `print` still holds (the demo's story): a script or test
            // reading the pipe learns the port at once, in order.
            fflush(nil)
            FileHandle.standardOutput.write(Data("\(command): serving http://\(shown)/ (Ctrl-C stops)\n".utf8))
        }
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(
            services: [.init(service: service)], gracefulShutdownSignals: [.sigterm, .sigint],
            logger: Logger(label: "aquavate-bridge.web") { _ in SwiftLogNoOpLogHandler() }))
        do {
            try await group.run()
        } catch {
            StandardError.writeLine("aquavate-bridge \(command): the web server stopped: \(error)")
            throw ExitCode.failure
        }
    }
}
