// What a phone needs to put the dashboard on its home screen: the web app manifest (its name,
// the page to open, its colours) and an icon, a drop drawn in SVG like the charts (nothing to
// download, any size). Both are served by the bridge itself, behind the same login as the page.

enum WebManifest {
    static func json(language: WebLanguage) -> String {
        """
        {"name":"Aquavate","short_name":"Aquavate","lang":"\(language.rawValue)","start_url":"/","scope":"/",\
        "display":"standalone","background_color":"#f6f8fa","theme_color":"#0969da",\
        "icons":[{"src":"/icon.svg","sizes":"any","type":"image/svg+xml","purpose":"any"}]}
        """
    }

    static let icon = """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 96 96"><rect width="96" height="96" rx="20" fill="#0969da"/>\
        <path d="M48 14C38 30 26 44 26 58a22 22 0 0 0 44 0C70 44 58 30 48 14z" fill="#fff"/></svg>
        """
}
