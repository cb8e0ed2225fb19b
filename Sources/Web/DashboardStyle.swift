// The page's style and its one script, and the Content-Security-Policy that allows exactly them.
// Colours are variables, set again for `prefers-color-scheme: dark`; every pair of text and
// background holds WCAG AA contrast in both (the suite runs axe-core on the page). The charts use
// classes, not colours of their own, so they follow the scheme too. Today's bar, still filling, is
// lighter than a finished day's and outlined dashed in the text colour; its fill keeps the 3:1 of
// WCAG's non-text contrast against the panel in both schemes (at least 3.2:1 at 75 % opacity,
// `DashboardStyleTests`): at 35 % it was 1.7:1, and a faint dashed blue edge in dark mode.
//
// The script (`GET /page.js`) only asks `/events` for the page's version (PageVersion) and
// reloads the page when a sync, a command or a setting changed it; it does nothing else, and the
// page works without it. Scripts may come from the bridge's own address only, never inline
// ('unsafe-inline' stays off for scripts), so no markup injected into the page could run one.

enum DashboardStyle {
    /// One colour per person (their row in the family strip, their panel's edge, their gauge and
    /// day curve), given by the bottle's key. Each holds WCAG's non-text contrast of 3:1 against
    /// the panel and the page in both schemes (`DashboardStyleTests`); none is the green or red
    /// that the urgency and the met goal mean.
    static let personColours = ["#0a7ea4", "#cc3d99", "#b35900", "#7c5cd6", "#1d8a8a", "#9e6a03"]

    static let css = personColours.enumerated().map { ".c\($0.offset){--person:\($0.element)}" }.joined() + """

        :root{color-scheme:light dark;--bg:#f6f8fa;--card:#fff;--fg:#1f2328;--muted:#57606a;--line:#d0d7de;--head:#0969da;\
        --met:#1a7f37;--below:#0969da;--goal:#8250df;--pace:#9a6700;--warn:#9a6700;--bad:#cf222e;--note:#fff8c5;--noteline:#d4a72c;\
        --ok:#dafbe1;--okline:#4ac26b;--btn:#f6f8fa;--btnline:#8c959f}
        @media(prefers-color-scheme:dark){:root{--bg:#0d1117;--card:#161b22;--fg:#e6edf3;--muted:#9198a1;--line:#30363d;--head:#0c3d8a;\
        --met:#3fb950;--below:#4493f8;--goal:#b392f0;--pace:#d29922;--warn:#d29922;--bad:#ff7b72;--note:#3b2e00;--noteline:#9e6a03;\
        --ok:#0f2e1a;--okline:#2ea043;--btn:#21262d;--btnline:#6e7681}}
        body{font-family:system-ui,sans-serif;margin:0;background:var(--bg);color:var(--fg);line-height:1.4}
        main{display:grid;grid-template-columns:1fr;gap:12px;padding:12px;max-width:1400px;margin:auto}
        @media(min-width:900px){main{grid-template-columns:1fr 1fr}}
        header,.notice,.logout,.family{grid-column:1/-1}
        .family ul{list-style:none;margin:0;padding:0;display:grid;gap:6px}
        @media(min-width:900px){.family ul{grid-template-columns:repeat(auto-fill,minmax(300px,1fr))}}
        .family a{display:block;min-height:44px;box-sizing:border-box;padding:5px 10px;background:var(--card);border:1px solid var(--line);\
        border-left:8px solid var(--person);border-radius:8px;text-decoration:none}
        .family .line{display:flex;flex-wrap:wrap;justify-content:space-between;gap:0 10px}.family .who{font-weight:bold}
        .family .state{font-weight:bold}.family .next{color:var(--muted)}.urgency-none{color:var(--muted)}
        section.bottle{border-top:6px solid var(--person)}
        header{border-radius:8px;padding:10px 16px;background:var(--head);color:#fff}header h1{margin:0;font-size:1.4em}header p{margin:2px 0 0}
        section{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:12px;min-width:0}
        h2{margin:0;font-size:1.3em}h3{font-size:1em;margin:16px 0 6px}.sub{margin:0 0 8px;color:var(--muted)}
        .today{display:flex;flex-wrap:wrap;gap:8px 16px;align-items:center}.gauge{width:160px}
        dl{display:grid;grid-template-columns:auto 1fr;gap:4px 10px;margin:0}dt{color:var(--muted)}dd{margin:0}
        .chart svg{width:100%;max-width:420px;height:auto;display:block}.chart{margin-top:10px}.chart h4{margin:0;font-size:1em}
        svg text{fill:var(--fg)}.axis{stroke:var(--muted)}.goal{stroke:var(--goal);stroke-dasharray:4 4}.pace{stroke:var(--pace);fill:none}
        .intake{stroke:var(--person);fill:none}.met{fill:var(--met)}.below{fill:var(--below)}.arc{fill:none;stroke-width:14}
        .arc.rest{stroke:var(--line)}.arc.met,.arc.below{stroke:var(--person)}
        .now rect{fill-opacity:.75;stroke:var(--fg);stroke-width:1.5;stroke-dasharray:3 2}
        .nodata line{stroke:var(--muted);stroke-width:2;stroke-dasharray:2 2}
        .legend{display:flex;flex-wrap:wrap;gap:2px 14px;padding:0;margin:6px 0 0;list-style:none;font-size:.9em}
        .sw{display:inline-block;width:12px;height:12px;border-radius:2px;margin-right:5px;vertical-align:-1px}
        .sw.met{background:var(--met)}.sw.intake{height:0;border-top:3px solid var(--person);vertical-align:3px}.sw.below{background:var(--below)}.sw.now{box-sizing:border-box;border:1px dashed var(--fg);background:color-mix(in srgb,var(--below) 75%,var(--card))}
        .sw.goal,.sw.pace{height:0;border-top:2px dashed var(--goal);vertical-align:3px}.sw.pace{border-top-color:var(--pace)}
        .sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
        table{width:100%;border-collapse:collapse}td,th{padding:6px 4px;text-align:left;border-bottom:1px solid var(--line)}
        tr.deleted td{text-decoration:line-through;color:var(--muted)}
        .urgency-on-track{color:var(--met)}.urgency-attention{color:var(--warn)}.urgency-overdue{color:var(--bad);font-weight:bold}
        button{font:inherit;color:var(--fg);min-height:44px;min-width:44px;padding:6px 14px;border-radius:6px;border:1px solid var(--btnline);background:var(--btn);cursor:pointer}
        button.danger{background:#cf222e;border-color:#a40e26;color:#fff}
        details.del{display:inline}details.del summary{display:inline-block;cursor:pointer;color:var(--bad);list-style:none;padding:11px 10px}
        details.del[open]{display:block}details.more summary,details.older summary,details.add-drink summary{cursor:pointer;padding:11px 0}
        @media(min-width:900px){details.older>summary{display:none}details.older::details-content{content-visibility:visible;display:block}}
        input[type=number],input[type=time]{width:6em;min-height:44px;box-sizing:border-box;font:inherit;padding:5px;background:var(--card);color:var(--fg);border:1px solid var(--btnline);border-radius:6px}
        .notice{background:var(--note);border:1px solid var(--noteline);padding:8px 12px;border-radius:6px;margin:0}
        .notice.done{background:var(--ok);border-color:var(--okline)}.notice form{display:inline;margin-left:8px}
        .notice code{padding:0 3px;border-radius:3px;overflow-wrap:anywhere;background:var(--card)}
        .empty-state{padding:12px;border:1px dashed var(--line);border-radius:6px}
        a{color:inherit}
        """

    /// Asks for the page's version every `PageVersion.retryMilliseconds` (the event stream's own
    /// reconnection) and reloads the page once it changed, unless the person is typing a goal or
    /// confirming a delete.
    static let script = """
        (function(){var v=document.body.getAttribute("data-version");if(!v||!window.EventSource)return;\
        var s=new EventSource("/events");s.addEventListener("version",function(e){\
        if(e.data===v||document.querySelector("details.del[open],input:focus"))return;s.close();location.replace("/")})})()
        """

    static let contentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; script-src 'self'; "
        + "connect-src 'self'; manifest-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
}
