// Every page and endpoint, as data: the responder dispatches on it, answers 405 with `Allow` for
// a known path and another method, and the OpenAPI test holds the document to it.

enum WebRoute: Sendable, Hashable, CaseIterable {
    case dashboard, loginPage, login, logout, setGoal, deleteDrink, dailyLimit
    /// A drink the bottle did not measure, added by hand: the page's form and the API's.
    case addDrink, addDrinkAPI
    /// The page's own: undo a delete, its live updates, and what a phone's home screen needs.
    case undoDelete, events, script, manifest, icon
    case status, bottles, days, drinks, command, openAPI, metrics

    var method: String {
        switch self {
        case .login, .logout, .setGoal, .deleteDrink, .dailyLimit, .undoDelete, .command, .addDrink, .addDrinkAPI: return "POST"
        default: return "GET"
        }
    }

    var path: String {
        switch self {
        case .dashboard: return "/"
        case .loginPage, .login: return "/login"
        case .logout: return "/logout"
        case .setGoal: return "/actions/goal"
        case .deleteDrink: return "/actions/delete"
        case .dailyLimit: return "/actions/daily-limit"
        case .addDrink: return "/actions/drink"
        case .addDrinkAPI: return "/api/v1/drinks"
        case .undoDelete: return "/actions/undo"
        case .events: return "/events"
        case .script: return "/page.js"
        case .manifest: return "/manifest.webmanifest"
        case .icon: return "/icon.svg"
        case .status: return "/api/v1/status"
        case .bottles: return "/api/v1/bottles"
        case .days: return "/api/v1/days"
        case .drinks: return "/api/v1/drinks"
        case .command: return "/api/v1/commands"
        case .openAPI: return "/api/openapi.yaml"
        case .metrics: return "/metrics"
        }
    }

    /// Part of the JSON API (and so of /api/openapi.yaml), as opposed to the page's own forms.
    var isAPI: Bool {
        switch self {
        case .status, .bottles, .days, .drinks, .addDrinkAPI, .command, .openAPI, .metrics: return true
        default: return false
        }
    }

    /// The route of a request; HEAD is the GET route's (docs/design.md 3.6: every route that
    /// answers GET answers HEAD, with the same headers and no body).
    static func find(method: String, path: String) -> WebRoute? {
        let method = method == "HEAD" ? "GET" : method
        return allCases.first { $0.method == method && $0.path == path }
    }

    /// The methods a path answers, for 405: HEAD wherever GET.
    static func methods(path: String) -> [String] {
        allCases.filter { $0.path == path }.flatMap { $0.method == "GET" ? ["GET", "HEAD"] : [$0.method] }
    }
}
