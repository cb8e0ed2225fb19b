// `GET /login`: the one page a visitor without the token sees (on an address other than loopback).
// The token is typed, never shown back; a good one sets the session cookie. The form's answer is
// a 303 (post/redirect/get, like the page's other forms): to the dashboard with the cookie, or back
// here with what went wrong as an enum in the query (`?outcome=wrong-token`), never what was typed,
// so the guess is in no address, history or log, and a reload never posts it again.

enum LoginPage {
    /// What the last try at the form came to, carried in the query of the redirect.
    enum Outcome: String, Sendable {
        case wrongToken = "wrong-token"

        /// Where the form's answer sends the browser.
        var location: String { "/login?outcome=\(rawValue)" }

        /// Back from the page's query; nil when there is none or it is unknown (ignored, never an error).
        init?(query: FormFields) {
            guard let outcome = query["outcome"].flatMap(Self.init(rawValue:)) else { return nil }
            self = outcome
        }
    }

    static func render(language: WebLanguage, outcome: Outcome?) -> String {
        let words = language.words
        var html = DashboardPage.head(title: words.login, language: language, appLinks: false)
        html += "<section><h1>\(escape(words.login))</h1>"
        switch outcome {
        case .wrongToken?: html += "<p class=\"notice\" role=\"alert\">\(escape(words.wrongToken))</p>"
        case nil: break
        }
        html += "<form method=\"post\" action=\"/login\"><label>\(escape(words.token)) <input type=\"password\" name=\"token\" autocomplete=\"current-password\" required></label> <button type=\"submit\">\(escape(words.logIn))</button></form>"
        return html + "</section></main></body></html>\n"
    }
}
