// `aquavate-bridge serve`: the web page, JSON API and metrics over the history, without Bluetooth
// (docs/design.md 3.6).

import ArgumentParser
import Foundation
import Reports
import Settings
import Timekeeping
import Web

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the dashboard, the JSON API and Prometheus metrics over the history.",
        discussion: """
            Serves, until SIGTERM or SIGINT, over the history database (--db) without touching \
            Bluetooth, so it can run beside `run` or on another machine with a copy of the history:

              GET  /                      the dashboard: today against the goal and the pace line, \
            urgency, bottle level, battery, last sync, today's drinks, 7/30/365-day charts, \
            reminders today, pending bottle commands; set the goal, delete a drink, switch the \
            daily reminder limit. One panel per person, by owner name. Works without JavaScript \
            (a small script of the bridge's own reloads it after each sync); nothing loaded from \
            the internet.
              GET  /api/v1/status         the object of `status --json` (?bottle=SERIAL|ADDRESS: \
            that bottle's; an unknown one is a 404)
              GET  /api/v1/bottles        the status object of every bottle (JSON array)
              GET  /api/v1/days?days=N    the `day` events of the last N days (JSON array)
              GET  /api/v1/drinks?days=N  the `drink` events of the last N days, in pages: \
            &limit=N (1-10000) and &before=TIME; a Link: rel="next" header names the next page
              POST /api/v1/commands       a bottle command, e.g. {"command":"goal","bottle_goal_ml":2200}
              GET  /api/openapi.yaml      the API's OpenAPI document
              GET  /metrics               Prometheus text (aquavate_today_liters, aquavate_urgency, …)

            Where it listens: --http [ADDR:]PORT, else the setting web.listen, else 127.0.0.1:8080. \
            On loopback anyone on this machine may use it. Any other address needs the setting \
            web.token (`config set web.token SECRET`) and web.behind_proxy=true (a TLS reverse \
            proxy serves the page: the token never crosses the network in clear); without them \
            the server refuses to start. With a token every request carries it (Authorization: \
            Bearer TOKEN), or the browser logs in at /login (a session of its own, 7 days, ended \
            by POST /logout; the token is never shown); wrong tokens are slowed per address and \
            logged. Requests must name this bridge in Host (127.0.0.1, localhost, [::1]; with a \
            token also numeric addresses and web.public_name). A POST from a browser must come \
            from the page itself, so no other site can act through it. docs/web.md says more.

            Every GET also answers HEAD, and answers are gzipped for a client that accepts it.

            The page is in the language of messages.locale (en, es) and the time zone of \
            `timezone`. `run --http` serves the same beside the daemon.
            """
    )

    @Option(help: ArgumentHelp("Listen on [ADDR:]PORT (default: web.listen, else 127.0.0.1:8080; port 0 picks a free one).", valueName: "[ADDR:]PORT"))
    var http: String?

    @OptionGroup var common: CommonOptions

    func run() async throws {
        let logger = common.makeLogger()
        let context: WebContext
        let address: ListenAddress
        do {
            guard FileManager.default.fileExists(atPath: common.databasePath) else {
                throw CommandFailure("no history database at \(common.databasePath); sync a bottle or `replay --db \(common.databasePath) FILE` first")
            }
            let history = try common.openHistory(path: common.databasePath)
            let base = try common.loadConfiguration(history: nil, logger: logger)
            context = WebContext(history: history, baseConfiguration: base, clock: SystemClock())
            address = try WebServer.address(option: http, configuration: try context.configuration()) ?? ListenAddress(port: 8080)
        } catch let failure as CommandFailure {
            StandardError.writeLine("aquavate-bridge serve: \(failure.description)")
            throw ExitCode.failure
        } catch let refused as WebStartRefused {
            StandardError.writeLine("aquavate-bridge serve: \(refused.description)")
            throw ExitCode.failure
        }
        try await WebServing.serveUntilSignal(context: context, address: address, logger: logger, command: "serve")
    }
}
