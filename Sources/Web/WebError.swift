// A refused request: a 4xx status and one line saying why, sent as `{"error": "..."}`
// (docs/design.md 3.6). Thrown anywhere in a handler; the responder turns it into the answer, so
// bad input never reaches a crash.

import Foundation
import Hummingbird
import WireText

struct WebError: Error, Sendable {
    var status: HTTPResponse.Status
    var message: String
    /// Extra headers of the answer (e.g. `WWW-Authenticate`, `Allow`).
    var headers: HTTPFields = [:]

    static func badRequest(_ message: String) -> WebError { WebError(status: .badRequest, message: message) }
    static func notFound(_ path: String) -> WebError {
        WebError(status: .notFound, message: "no such page or endpoint: \(path); see /api/openapi.yaml")
    }
    static func unprocessable(_ message: String) -> WebError { WebError(status: .unprocessableContent, message: message) }

    /// The JSON answer.
    var response: Response {
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(string: Body(error: message).text)))
    }

    /// `{"error":"…"}`, by the one wire writer.
    struct Body: Encodable {
        var error: String

        var text: String { WireJSON.text(self, apostrophes: .asIs) }
    }
}
