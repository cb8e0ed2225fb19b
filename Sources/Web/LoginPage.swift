// `GET /login`: the one page a visitor without the token sees (on an address other than loopback).
// The token is typed, never shown back; a good one sets the session cookie.

enum LoginPage {
    static func render(language: WebLanguage, failed: Bool) -> String {
        let words = language.words
        var html = DashboardPage.head(title: words.login, language: language, appLinks: false)
        html += "<section><h1>\(escape(words.login))</h1>"
        if failed { html += "<p class=\"notice\" role=\"alert\">\(escape(words.wrongToken))</p>" }
        html += "<form method=\"post\" action=\"/login\"><label>\(escape(words.token)) <input type=\"password\" name=\"token\" autocomplete=\"current-password\" required></label> <button type=\"submit\">\(escape(words.logIn))</button></form>"
        return html + "</section></main></body></html>\n"
    }
}
