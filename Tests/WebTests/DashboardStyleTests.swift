// Today's bar of the charts (still filling, `.now`) against the panel, in the light and the dark
// scheme and in the chart file: its fill, composited over the panel as the browser does (in sRGB),
// and its dashed outline hold WCAG's non-text contrast of 3:1. axe-core checks only text; at 35 %
// opacity the fill was 1.7:1 in both schemes. The figures come from the page's own style sheet.

import Foundation
import Testing
@testable import Web

@Suite struct DashboardStyleTests {
    /// WCAG 2's relative luminance of an sRGB colour (0…1 a channel).
    static func luminance(_ rgb: [Double]) -> Double {
        let linear = rgb.map { $0 <= 0.03928 ? $0 / 12.92 : pow(($0 + 0.055) / 1.055, 2.4) }
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    }

    /// `#rrggbb` or `#rgb`.
    static func rgb(_ hex: String) throws -> [Double] {
        var digits = String(try #require(hex.hasPrefix("#") && [4, 7].contains(hex.count) ? hex.dropFirst() : nil, "\(hex)"))
        if digits.count == 3 { digits = digits.map { "\($0)\($0)" }.joined() }
        let value = try #require(Int(digits, radix: 16))
        return [value >> 16, (value >> 8) & 0xff, value & 0xff].map { Double($0) / 255 }
    }

    static func contrast(_ a: [Double], _ b: [Double]) -> Double {
        let (x, y) = (luminance(a), luminance(b))
        return (max(x, y) + 0.05) / (min(x, y) + 0.05)
    }

    /// `colour` at `opacity` over `background`, rounded to whole 8-bit values as a screen shows it.
    static func composite(_ colour: [Double], _ opacity: Double, over background: [Double]) -> [Double] {
        zip(colour, background).map { (($0 * opacity + $1 * (1 - opacity)) * 255).rounded() / 255 }
    }

    /// The custom properties of the first `:root{…}` at or after `start`.
    static func variables(in css: String, after start: String.Index) throws -> [String: String] {
        let open = try #require(css.range(of: ":root{", range: start..<css.endIndex))
        let close = try #require(css.range(of: "}", range: open.upperBound..<css.endIndex))
        var values: [String: String] = [:]
        for declaration in css[open.upperBound..<close.lowerBound].split(separator: ";") {
            let parts = declaration.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            if parts.count == 2, parts[0].hasPrefix("--") { values[parts[0]] = parts[1] }
        }
        return values
    }

    /// The declarations of rule `selector` (`name` → value).
    static func rule(_ selector: String, in css: String) throws -> [String: String] {
        let open = try #require(css.range(of: selector + "{"), "no \(selector) rule")
        let close = try #require(css.range(of: "}", range: open.upperBound..<css.endIndex))
        var values: [String: String] = [:]
        for declaration in css[open.upperBound..<close.lowerBound].split(separator: ";") {
            let parts = declaration.split(separator: ":", maxSplits: 1).map(String.init)
            if parts.count == 2 { values[parts[0]] = parts[1] }
        }
        return values
    }

    @Test("today's bar and its dashed outline hold 3:1 against the panel in the light and the dark scheme")
    func todaysBarContrast() throws {
        let css = DashboardStyle.css
        let light = try Self.variables(in: css, after: css.startIndex)
        let darkStart = try #require(css.range(of: "prefers-color-scheme:dark")).upperBound
        let dark = try Self.variables(in: css, after: darkStart)
        let now = try Self.rule(".now rect", in: css)
        let opacity = try #require(now["fill-opacity"].flatMap(Double.init))
        let outline = try #require(now["stroke"])
        #expect(outline.hasPrefix("var(--") && outline.hasSuffix(")"), "\(outline)")
        let outlineName = String(outline.dropFirst(4).dropLast())
        for (scheme, colours) in [("light", light), ("dark", dark)] {
            let panel = try Self.rgb(try #require(colours["--card"]))
            for fill in ["--met", "--below"] {
                let bar = Self.composite(try Self.rgb(try #require(colours[fill])), opacity, over: panel)
                let figure = Self.contrast(bar, panel)
                #expect(figure >= 3, "\(scheme) \(fill) today's fill: \(figure):1")
                let edge = try Self.rgb(try #require(colours[outlineName]))
                #expect(Self.contrast(edge, panel) >= 3 && Self.contrast(edge, bar) >= 3, "\(scheme) \(fill) outline")
            }
        }
        // The legend's swatch is mixed as the bar is composited.
        let swatch = try Self.rule(".sw.now", in: css)
        #expect(swatch["background"] == "color-mix(in srgb,var(--below) \(Int(opacity * 100))%,var(--card))", "\(swatch)")
    }

    @Test("the chart file's today's bar holds 3:1 against its white background")
    func chartFileContrast() throws {
        let css = ChartFile.standaloneStyle
        let now = try Self.rule(".now rect", in: css)
        let opacity = try #require(now["fill-opacity"].flatMap(Double.init))
        let white = try Self.rgb("#ffffff")
        for fill in [".met", ".below"] {
            let colour = try Self.rgb(try #require(try Self.rule(fill, in: css)["fill"]))
            #expect(Self.contrast(Self.composite(colour, opacity, over: white), white) >= 3, "\(fill)")
        }
        #expect(Self.contrast(try Self.rgb(try #require(now["stroke"])), white) >= 3)
    }
}

extension DashboardStyleTests {
    @Test("each person's colour holds 3:1 against the panel and the page in the light and the dark scheme")
    func personColoursContrast() throws {
        let css = DashboardStyle.css
        let light = try Self.variables(in: css, after: css.startIndex)
        let dark = try Self.variables(in: css, after: try #require(css.range(of: "prefers-color-scheme:dark")).upperBound)
        #expect(DashboardStyle.personColours.count >= 4)
        #expect(Set(DashboardStyle.personColours).count == DashboardStyle.personColours.count)
        for colour in DashboardStyle.personColours {
            #expect(css.contains("{--person:\(colour)}"), "\(colour) has no class")
            for (scheme, colours) in [("light", light), ("dark", dark)] {
                for background in ["--card", "--bg"] {
                    let figure = Self.contrast(try Self.rgb(colour), try Self.rgb(try #require(colours[background])))
                    #expect(figure >= 3, "\(colour) on \(scheme) \(background): \(figure):1")
                }
            }
        }
    }
}
