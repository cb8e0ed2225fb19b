// /api/openapi.yaml and the server must agree: the same paths and methods, the answers the
// document promises, and every field it calls required present in the real answers.

import BusTestSupport
import Foundation
import TestFixtures
import Testing
@testable import Web

@Suite struct OpenAPIAgreementTests {
    /// `path → method → [status]`, read from the document's `paths:` block (two-space YAML).
    static func operations(_ yaml: String) -> [String: [String: Set<Int>]] {
        var result: [String: [String: Set<Int>]] = [:]
        var inPaths = false, path = "", method = "", inResponses = false
        for line in yaml.split(separator: "\n", omittingEmptySubsequences: false) {
            let indent = line.prefix { $0 == " " }.count
            let text = line.trimmingCharacters(in: .whitespaces)
            if indent == 0 { inPaths = text == "paths:"; continue }
            guard inPaths, !text.isEmpty else { continue }
            if indent == 2, text.hasSuffix(":") { path = String(text.dropLast()); result[path] = [:] }
            else if indent == 4, text.hasSuffix(":") { method = String(text.dropLast()).uppercased(); result[path]?[method] = []; inResponses = false }
            else if indent == 4, let colon = text.firstIndex(of: ":"), let answers = text.range(of: "responses: {") {
                // An operation on one line (`head: {summary: …, responses: {"200": …}}`).
                method = String(text[..<colon]).uppercased()
                result[path]?[method] = Set(text[answers.upperBound...].matches(of: /"(\d{3})":/).compactMap { Int($0.output.1) })
                inResponses = false
            }
            else if indent == 6 { inResponses = text == "responses:" }
            else if indent == 8, inResponses, text.hasPrefix("\""), let code = Int(text.dropFirst().prefix(3)) {
                result[path]?[method]?.insert(code)
            }
        }
        return result
    }

    /// `schema name → required fields`, from `components.schemas`.
    static func requiredFields(_ yaml: String) -> [String: [String]] {
        var result: [String: [String]] = [:]
        var inSchemas = false, name = ""
        for line in yaml.split(separator: "\n") {
            let indent = line.prefix { $0 == " " }.count
            let text = line.trimmingCharacters(in: .whitespaces)
            if indent == 2 { inSchemas = text == "schemas:"; continue }
            guard inSchemas else { continue }
            if indent == 4 { name = String(text.dropLast()) }
            if indent == 6, text.hasPrefix("required: [") {
                result[name] = text.dropFirst("required: [".count).dropLast().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            }
        }
        return result
    }

    @Test func theDocumentListsExactlyTheServedAPI() {
        let documented = Self.operations(OpenAPIDocument.yaml)
        let pairs = Set(documented.flatMap { path, methods in methods.keys.map { "\($0) \(path)" } })
        // Every GET answers HEAD too (docs/design.md 3.6), and the document says so per path.
        let served = Set(WebRoute.allCases.filter(\.isAPI).flatMap { route in
            (route.method == "GET" ? ["GET", "HEAD"] : [route.method]).map { "\($0) \(route.path)" }
        })
        #expect(pairs == served)
        #expect(documented["/api/v1/status"]?["GET"] == [200, 400, 401, 404])
        #expect(documented["/api/v1/status"]?["HEAD"] == [200], "a HEAD written on one line is read: \(documented)")
        #expect(documented["/api/v1/bottles"]?["GET"] == [200, 401])
        #expect(documented["/api/v1/commands"]?["POST"] == [202, 400, 401, 403, 413, 415, 422])
        #expect(documented["/api/v1/drinks"]?["POST"] == [201, 400, 401, 403, 413, 415])
        #expect(documented["/api/v1/days"]?["GET"] == [200, 400, 401, 404])
    }

    @Test func theServerServesTheDocumentAndItsSchemasFitTheAnswers() async throws {
        let fixture = try WebFixture()
        defer { fixture.remove() }
        let required = Self.requiredFields(OpenAPIDocument.yaml)
        #expect(Set(required.keys).isSuperset(of: ["Status", "Day", "Drink", "Command", "Error", "CommandRequest"]))
        try await fixture.withServer { port in
            let document = try await RawHTTP.send(port: port, "GET", "/api/openapi.yaml")
            #expect(document.status == 200)
            #expect(document.body == OpenAPIDocument.yaml)
            let status = try await RawHTTP.send(port: port, "GET", "/api/v1/status").jsonObject
            let day = try #require(try await RawHTTP.send(port: port, "GET", "/api/v1/days?days=2").jsonArray.first)
            let drink = try #require(try await RawHTTP.send(port: port, "GET", "/api/v1/drinks?days=2&limit=3").jsonArray.first)
            let everyStatus = try await RawHTTP.send(port: port, "GET", "/api/v1/bottles").jsonArray
            #expect(everyStatus.count == 2)
            let command = try await RawHTTP.send(port: port, "POST", "/api/v1/commands", headers: [("Content-Type", "application/json")],
                                                 body: #"{"command":"tare","bottle":"AQ-ANA-0001"}"#).jsonObject
            let error = try await RawHTTP.send(port: port, "GET", "/api/v1/days?days=0").jsonObject
            _ = try await RawHTTP.send(port: port, "POST", "/api/v1/commands", headers: [("Content-Type", "application/json")],
                                       body: #"{"command":"goal","goal_ml":2400,"bottle":"AQ-ANA-0001"}"#)
            let withPending = try await RawHTTP.send(port: port, "GET", "/api/v1/status?bottle=AQ-ANA-0001").jsonObject
            let pending = try #require((withPending["pending_commands"] as? [[String: Any]])?.first)
            let answers = [("Status", status), ("Day", day), ("Drink", drink), ("Command", command), ("Error", error), ("Command", pending)]
                + everyStatus.map { ("Status", $0) }
            for (schema, answer) in answers {
                for field in required[schema] ?? [] {
                    #expect(answer.keys.contains(field), "\(schema).\(field) is required by the document but missing from \(answer)")
                }
            }
        }
    }
}
