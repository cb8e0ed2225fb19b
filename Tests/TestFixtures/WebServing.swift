// The web server in a test: on a free loopback port for the length of `body`, then stopped; and
// reading the rendered page back (a bottle's panel, an element's attribute). The web tests and the
// end-to-end tests serve the page the same way, so they share this.

import Foundation
import Logging
import Settings
import Web

package enum WebServing {
    package struct DidNotStart: Error, CustomStringConvertible {
        package var description: String { "the web server did not start" }
    }

    /// Runs `body` with the server of `context` listening on a free loopback port (bound to port
    /// 0, the port it got passed in), then stops the server, also when `body` throws.
    package static func withServer(_ context: WebContext, _ body: @Sendable (Int) async throws -> Void) async throws {
        let server = try WebServer(context: context, address: ListenAddress(port: 0), logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let service = server.service { port in continuation.yield(port) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await service.run() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else { throw DidNotStart() }
            do {
                try await body(port)
            } catch {
                group.cancelAll()
                throw error
            }
            group.cancelAll()
        }
    }
}

package enum PageReading {
    /// The page's section of `bottle` (`data-bottle="…"` to its `</section>`).
    package static func panel(of bottle: String, in page: String) -> String? {
        guard let start = page.range(of: "data-bottle=\"\(bottle)\"") else { return nil }
        let rest = page[start.lowerBound...]
        return String(rest[..<(rest.range(of: "</section>")?.lowerBound ?? rest.endIndex)])
    }

    /// The goal form's `<input …` (up to its `>`).
    package static func goalInput(_ page: String) -> String? {
        guard let start = page.range(of: "<input type=\"number\" name=\"daily_goal_ml\"") else { return nil }
        return String(page[start.lowerBound...].prefix { $0 != ">" })
    }

    /// The value of attribute `name` of `element` (its text up to `>`).
    package static func attribute(_ name: String, of element: String) -> String? {
        guard let at = element.range(of: " \(name)=\"") else { return nil }
        return String(element[at.upperBound...].prefix { $0 != "\"" })
    }

    /// The fields of the first form posting to `action` in `html`, as a browser sends them
    /// (`bottle=…&enabled=…`, in the order of the form); nil when there is no such form.
    package static func formFields(action: String, in html: String) -> String? {
        guard let start = html.range(of: "action=\"\(action)\""), let end = html[start.upperBound...].range(of: "</form>") else { return nil }
        var fields: [String] = []
        for input in html[start.upperBound..<end.lowerBound].components(separatedBy: "<input").dropFirst() {
            let element = String(input.prefix { $0 != ">" })
            if let name = attribute("name", of: element), let value = attribute("value", of: element) { fields.append("\(name)=\(value)") }
        }
        return fields.joined(separator: "&")
    }
}
