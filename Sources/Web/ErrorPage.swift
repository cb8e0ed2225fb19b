// A refusal as a browser should see it: a browser that asks for HTML (`Accept: text/html`) outside
// the API gets a small page in the person's language with the status and a way back; the API,
// `/metrics` and every client that does not ask for HTML get the JSON `error` (docs/design.md 3.6).

import Foundation
import Hummingbird

enum ErrorPage {
    static func wantsHTML(_ request: Request) -> Bool {
        let path = request.uri.path
        guard !path.hasPrefix("/api/"), path != "/metrics", path != "/events" else { return false }
        return request.headers[.accept]?.contains("text/html") ?? false
    }

    static func response(_ error: WebError, language: WebLanguage) -> Response {
        let words = language.words
        // A 404's own sentence names a path and the API's document: a person needs neither.
        let heading = error.status == .notFound ? words.notFound : words.somethingWrong
        let text = error.status == .notFound ? words.notFoundText : error.message
        var html = DashboardPage.head(title: heading, language: language, appLinks: false)
        html += "<section><h1>\(escape(heading))</h1><p class=\"error-text\">\(escape(text))</p>"
        html += "<p><a href=\"/\">\(escape(words.back))</a></p></section></main></body></html>\n"
        var headers = error.headers
        headers[.contentType] = "text/html; charset=utf-8"
        return Response(status: error.status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }
}
