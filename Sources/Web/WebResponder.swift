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
        // HEAD: the GET answer's status and headers (its Content-Length and Content-Encoding
        // included), without the body (RFC 9110 9.3.2).
        return request.method == .head ? response.createHeadResponse() : response
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
        let gzip = GzipEncoding.accepted(request.headers)
        switch route {
        case .dashboard:
            let canLogOut = guardian.token != nil
            let outcome = PageOutcome(query: query)
            return try await html(key: outcome?.location ?? "/", gzip: gzip) {
                DashboardPage.render(try DashboardModel.make(context), outcome: outcome, canLogOut: canLogOut)
            }
        case .events:
            // One event per request, never compressed: an event stream is read as it arrives.
            let event = try await WebWork.run { PageVersion.event(try PageVersion.make(context, configuration: try context.configuration(), at: context.clock.now)) }
            return Response(status: .ok, headers: [.contentType: "text/event-stream; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: event)))
        case .manifest:
            let language = try await WebWork.run { context.language(try context.configuration()) }
            return try await Self.payload(Array(WebManifest.json(language: language).utf8), type: "application/manifest+json", gzip: gzip)
        case .script:
            return try await Self.payload(Array(DashboardStyle.script.utf8), type: "text/javascript; charset=utf-8", gzip: gzip)
        case .icon:
            return try await Self.payload(Array(WebManifest.icon.utf8), type: "image/svg+xml", gzip: gzip)
        case .loginPage:
            // Nothing to log in to without a token.
            guard guardian.token != nil else { return Redirect(to: "/").response }
            let outcome = LoginPage.Outcome(query: query)
            return Self.html(LoginPage.render(language: try await WebWork.run { context.language(try context.configuration()) }, outcome: outcome), status: .ok)
        case .login:
            let form = FormFields(try await body(request, type: "application/x-www-form-urlencoded"))
            guard guardian.token != nil else { return Redirect(to: "/").response }
            switch guardian.logIn(form["token"] ?? "", client: client) {
            case .accepted(let session):
                var response = Redirect(to: "/").response
                response.headers[.setCookie] = guardian.cookie(session)
                return response
            case .refused:
                // Post/redirect/get: the outcome as an enum, never the guess; the API's clients
                // (Bearer) still get 401 from the guard.
                return Redirect(to: LoginPage.Outcome.wrongToken.location).response
            case .wait(let wait):
                throw AccessGuard.tooManyTries(wait)
            }
        case .logout:
            guardian.logOut(request)
            var response = Redirect(to: guardian.token == nil ? "/" : "/login").response
            response.headers[.setCookie] = guardian.cookie(nil)
            return response
        case .setGoal, .deleteDrink, .dailyLimit, .undoDelete, .addDrink:
            let form = FormFields(try await body(request, type: "application/x-www-form-urlencoded"))
            let outcome = try await WebWork.run { try PageActions.perform(route, form, context: context) }
            // A browser follows the 303 and the page says what happened (post/redirect/get, refusals
            // included); any other client gets a refusal as design 3.6's 4xx JSON error.
            if !ErrorPage.wantsHTML(request), let refusal = outcome.refusal(await language().words) {
                throw refusal
            }
            return Redirect(to: outcome.location).response
        case .status:
            return try await json(key: "\(path)?\(request.uri.query ?? "")", gzip: gzip) { try JSONAPI.status(context, query: query) }
        case .bottles:
            return try await json(key: path, gzip: gzip) { try JSONAPI.bottles(context) }
        case .days:
            return try await json(key: "\(path)?\(request.uri.query ?? "")", gzip: gzip) { try JSONAPI.days(context, query: query) }
        case .drinks:
            let page = try await WebWork.run { try JSONAPI.drinks(context, query: query) }
            var response = try await Self.payload(Array(page.json.utf8), type: "application/json; charset=utf-8", gzip: gzip)
            // The next (older) page, as RFC 8288 links it.
            if let next = page.next { response.headers[.link] = "<\(path)?\(next)>; rel=\"next\"" }
            return response
        case .command:
            let data = Data((try await body(request, type: "application/json")).utf8)
            return try await json(status: .accepted, gzip: gzip) { try JSONAPI.command(context, body: data) }
        case .addDrinkAPI:
            let data = Data((try await body(request, type: "application/json")).utf8)
            return try await json(status: .created, gzip: gzip) { try ManualDrinkAPI.add(context, body: data) }
        case .openAPI:
            return try await Self.payload(Array(OpenAPIDocument.yaml.utf8), type: "application/yaml; charset=utf-8", gzip: gzip)
        case .metrics:
            let bytes = try await shared.bytes(for: gzip ? "gzip \(path)" : path) {
                try await WebWork.run { try Self.encoded(try MetricsPage.render(context, drinkCounts: drinkCounts), gzip: gzip) }
            }
            return Self.response(bytes, type: "text/plain; version=0.0.4; charset=utf-8", gzip: gzip)
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

    /// A page rendered off the concurrency pool, shared with simultaneous requests for `key`
    /// (gzipped ones among themselves: the compression is shared too).
    private func html(key: String, gzip: Bool, _ render: @escaping @Sendable () throws -> String) async throws -> Response {
        let bytes = try await shared.bytes(for: gzip ? "gzip \(key)" : key) {
            try await WebWork.run { try Self.encoded(Array(try render().utf8), gzip: gzip) }
        }
        return Self.response(bytes, type: "text/html; charset=utf-8", gzip: gzip)
    }

    /// JSON rendered off the concurrency pool; with a `key`, shared with simultaneous requests.
    private func json(key: String? = nil, status: HTTPResponse.Status = .ok, gzip: Bool,
                      _ render: @escaping @Sendable () throws -> String) async throws -> Response {
        let bytes: [UInt8]
        if let key {
            bytes = try await shared.bytes(for: gzip ? "gzip \(key)" : key) {
                try await WebWork.run { try Self.encoded(Array(try render().utf8), gzip: gzip) }
            }
        } else {
            bytes = try await WebWork.run { try Self.encoded(Array(try render().utf8), gzip: gzip) }
        }
        return Self.response(bytes, status: status, type: "application/json; charset=utf-8", gzip: gzip)
    }

    /// Bytes already in hand, compressed off the concurrency pool when the client takes gzip.
    private static func payload(_ bytes: [UInt8], type: String, gzip: Bool) async throws -> Response {
        let body = gzip ? try await WebWork.run { try Self.encoded(bytes, gzip: true) } : bytes
        return response(body, type: type, gzip: gzip)
    }

    /// The body as sent: gzipped when the client takes it.
    private static func encoded(_ bytes: [UInt8], gzip: Bool) throws -> [UInt8] {
        gzip ? try GzipEncoding.compress(bytes) : bytes
    }

    /// An answer whose body may be compressed: `Vary` tells caches the encoding depends on the
    /// request's `Accept-Encoding`.
    private static func response(_ bytes: [UInt8], status: HTTPResponse.Status = .ok, type: String, gzip: Bool) -> Response {
        var headers: HTTPFields = [.contentType: type, .vary: "Accept-Encoding"]
        if gzip { headers[.contentEncoding] = "gzip" }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
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
