// The server's one responder: the access guard first, then the route, and whatever goes wrong
// becomes a 4xx (or 503) answer with a JSON `error`, never a crash. Handlers that read the
// database run on `WebWork`'s queues.

import Foundation
import History
import Hummingbird
import Logging

struct WebResponder: HTTPResponder {
    typealias Context = WebRequestContext

    let context: WebContext
    let guardian: AccessGuard
    let logger: Logger
    /// GET answers are the same for everyone allowed in: simultaneous ones share a rendering.
    let shared = SharedRenders()
    /// The metrics' drink counts, brought up to date at each scrape.
    let drinkCounts = DrinkCounts()

    func respond(to request: Request, context requestContext: WebRequestContext) async throws -> Response {
        var response: Response
        do {
            try guardian.check(request, client: requestContext.client)
            response = try await route(request, client: requestContext.client)
        } catch let error as WebError {
            response = ErrorPage.wantsHTML(request) ? ErrorPage.response(error, language: await language()) : error.response
        } catch let redirect as Redirect {
            response = redirect.response
        } catch {
            // The history could not be read (busy, gone): the page's fault is not the visitor's.
            logger.warning("web: \(request.method) \(request.uri.path): \(error)")
            response = WebError(status: .serviceUnavailable, message: "the history could not be read: \(error)").response
        }
        Self.secure(&response.headers)
        return response
    }

    private func route(_ request: Request, client: String) async throws -> Response {
        let path = request.uri.path
        guard let route = WebRoute.find(method: request.method.rawValue, path: path) else {
            let allowed = WebRoute.methods(path: path)
            if allowed.isEmpty { throw WebError.notFound(String(path.prefix(80))) }
            var error = WebError(status: .methodNotAllowed, message: "\(request.method) is not allowed on \(path): use \(allowed.joined(separator: ", "))")
            error.headers[.allow] = allowed.joined(separator: ", ")
            throw error
        }
        let query = FormFields(request.uri.query)
        let context = self.context
        switch route {
        case .dashboard:
            let canLogOut = guardian.token != nil
            let outcome = PageOutcome(query: query)
            return try await html(key: outcome?.location ?? "/") {
                DashboardPage.render(try DashboardModel.make(context), outcome: outcome, canLogOut: canLogOut)
            }
        case .events:
            let event = try await WebWork.run { PageVersion.event(try PageVersion.make(context, configuration: try context.configuration(), at: context.clock.now)) }
            return Response(status: .ok, headers: [.contentType: "text/event-stream; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: event)))
        case .manifest:
            let language = try await WebWork.run { context.language(try context.configuration()) }
            return Response(status: .ok, headers: [.contentType: "application/manifest+json"],
                            body: .init(byteBuffer: ByteBuffer(string: WebManifest.json(language: language))))
        case .script:
            return Response(status: .ok, headers: [.contentType: "text/javascript; charset=utf-8"],
                            body: .init(byteBuffer: ByteBuffer(string: DashboardStyle.script)))
        case .icon:
            return Response(status: .ok, headers: [.contentType: "image/svg+xml"], body: .init(byteBuffer: ByteBuffer(string: WebManifest.icon)))
        case .loginPage:
            // Nothing to log in to without a token.
            guard guardian.token != nil else { return Redirect(to: "/").response }
            return Self.html(LoginPage.render(language: try await WebWork.run { context.language(try context.configuration()) }, failed: false), status: .ok)
        case .login:
            let form = FormFields(try await body(request, type: "application/x-www-form-urlencoded"))
            let language = try await WebWork.run { context.language(try context.configuration()) }
            guard guardian.token != nil else { return Self.html(LoginPage.render(language: language, failed: false), status: .ok) }
            switch guardian.logIn(form["token"] ?? "", client: client) {
            case .accepted(let session):
                var response = Redirect(to: "/").response
                response.headers[.setCookie] = guardian.cookie(session)
                return response
            case .refused:
                return Self.html(LoginPage.render(language: language, failed: true), status: .unauthorized)
            case .wait(let wait):
                throw AccessGuard.tooManyTries(wait)
            }
        case .logout:
            guardian.logOut(request)
            var response = Redirect(to: guardian.token == nil ? "/" : "/login").response
            response.headers[.setCookie] = guardian.cookie(nil)
            return response
        case .setGoal, .deleteDrink, .dailyLimit, .undoDelete:
            let form = FormFields(try await body(request, type: "application/x-www-form-urlencoded"))
            let outcome = try await WebWork.run { try PageActions.perform(route, form, context: context) }
            return Redirect(to: outcome.location).response
        case .status:
            return try await json(key: path) { try JSONAPI.status(context) }
        case .days:
            return try await json(key: "\(path)?\(request.uri.query ?? "")") { try JSONAPI.days(context, query: query) }
        case .drinks:
            return try await json(key: "\(path)?\(request.uri.query ?? "")") { try JSONAPI.drinks(context, query: query) }
        case .command:
            let data = Data((try await body(request, type: "application/json")).utf8)
            return try await json(status: .accepted) { try JSONAPI.command(context, body: data) }
        case .openAPI:
            return Response(status: .ok, headers: [.contentType: "application/yaml; charset=utf-8"],
                            body: .init(byteBuffer: ByteBuffer(string: OpenAPIDocument.yaml)))
        case .metrics:
            let bytes = try await shared.bytes(for: path) { try await WebWork.run { try MetricsPage.render(context, drinkCounts: drinkCounts) } }
            return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                            body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
        }
    }

    /// The body, up to `AccessGuard.maxBodyBytes`, of the one content type the endpoint takes.
    private func body(_ request: Request, type: String) async throws -> String {
        let given = request.headers[.contentType]?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard given == type else {
            throw WebError(status: .unsupportedMediaType, message: "send the body as \(type)")
        }
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > AccessGuard.maxBodyBytes {
            throw WebError(status: .contentTooLarge, message: "the body is over \(AccessGuard.maxBodyBytes) bytes")
        }
        var request = request
        do {
            let buffer = try await request.collectBody(upTo: AccessGuard.maxBodyBytes)
            return String(buffer: buffer)
        } catch {
            throw WebError(status: .contentTooLarge, message: "the body is over \(AccessGuard.maxBodyBytes) bytes")
        }
    }

    /// A page rendered off the concurrency pool, shared with simultaneous requests for `key`.
    private func html(key: String, _ render: @escaping @Sendable () throws -> String) async throws -> Response {
        let bytes = try await shared.bytes(for: key) { Array(try await WebWork.run(render).utf8) }
        return Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// JSON rendered off the concurrency pool; with a `key`, shared with simultaneous requests.
    private func json(key: String? = nil, status: HTTPResponse.Status = .ok,
                      _ render: @escaping @Sendable () throws -> String) async throws -> Response {
        let bytes: [UInt8]
        if let key {
            bytes = try await shared.bytes(for: key) { Array(try await WebWork.run(render).utf8) }
        } else {
            bytes = Array(try await WebWork.run(render).utf8)
        }
        return Response(status: status, headers: [.contentType: "application/json; charset=utf-8"],
                        body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// The page's language for an error page (English when the settings cannot be read).
    private func language() async -> WebLanguage {
        let context = self.context
        return (try? await WebWork.run { context.language(try context.configuration()) }) ?? .en
    }

    static func html(_ text: String, status: HTTPResponse.Status) -> Response {
        Response(status: status, headers: [.contentType: "text/html; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// Every answer: nothing of the page may load from anywhere, run script, be framed or cached.
    /// `same-origin` referrers, not `no-referrer`: with the latter a browser sends `Origin: null`
    /// on the page's own form posts, and the same-origin check could not tell them from a forgery.
    static func secure(_ headers: inout HTTPFields) {
        headers[.contentSecurityPolicy] = DashboardStyle.contentSecurityPolicy
        headers[.xContentTypeOptions] = "nosniff"
        headers[.referrerPolicy] = "same-origin"
        if headers[.cacheControl] == nil { headers[.cacheControl] = "no-store" }
    }
}
