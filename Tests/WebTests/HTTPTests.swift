// HTTP done properly (docs/design.md 3.6): HEAD wherever GET, gzip for clients that take it, and
// the checkers of the consumers themselves: curl decoding the gzip, openapi-spec-validator
// reading the document.

import BusTestSupport
import Foundation
import Hummingbird
import TestFixtures
import Testing
@testable import Web

@Suite struct HTTPTests {
    /// Every GET route, with a query where it takes one.
    static let getPaths = ["/", "/login", "/api/v1/status", "/api/v1/status?bottle=AQ-BEA-0002", "/api/v1/bottles",
                           "/api/v1/days?days=7", "/api/v1/drinks?days=8&limit=5", "/metrics", "/api/openapi.yaml",
                           "/api/v1/status?bottle=nobody", "/api/v1/drinks?limit=0",
                           "/events", "/page.js", "/manifest.webmanifest", "/icon.svg"]

    @Test func everyGetRouteAnswersHeadWithItsHeadersAndNoBody() async throws {
        let fixture = try WebFixture()
        defer { fixture.remove() }
        #expect(Set(WebRoute.allCases.filter { $0.method == "GET" }.map(\.path))
                .isSubset(of: Set(Self.getPaths.map { String($0.split(separator: "?")[0]) })), "a GET route missing from the list")
        try await fixture.withServer { port in
            for path in Self.getPaths {
                for encoding in [[], [("Accept-Encoding", "gzip")]] {
                    let get = try await RawHTTP.send(port: port, "GET", path, headers: encoding)
                    let head = try await RawHTTP.send(port: port, "HEAD", path, headers: encoding)
                    #expect(head.status == get.status, "\(path)")
                    #expect(head.body.isEmpty, "HEAD \(path) sent a body")
                    var getHeaders = get.headers, headHeaders = head.headers
                    for varying in ["date"] { getHeaders[varying] = nil; headHeaders[varying] = nil }
                    #expect(headHeaders == getHeaders, "\(path) \(encoding)")
                    #expect(Int(head.headers["content-length"] ?? "") == get.body.utf8.count || get.headers["content-encoding"] == "gzip",
                            "HEAD \(path) states the GET body's length")
                }
            }
            let put = try await RawHTTP.send(port: port, "PUT", "/metrics")
            #expect(put.status == 405)
            #expect(put.headers["allow"] == "GET, HEAD")
        }
    }

    /// curl asks for gzip and decodes it (`--compressed`): the bytes are those of the plain answer,
    /// fewer of them crossed the wire, and a client that does not ask gets them plain.
    @Test func answersAreGzippedForClientsThatTakeIt() async throws {
        let fixture = try WebFixture()
        defer { fixture.remove() }
        try await fixture.withServer { port in
            for path in ["/", "/api/v1/days?days=365", "/api/v1/drinks?days=8", "/metrics", "/api/openapi.yaml", "/api/v1/status"] {
                let plain = try await RawHTTP.send(port: port, "GET", path)
                #expect(plain.headers["content-encoding"] == nil, "\(path) compressed for a client that did not ask")
                #expect(plain.headers["vary"] == "Accept-Encoding")
                let curl = try await runTool("/usr/bin/curl", ["-sS", "--compressed", "-D", "-", "-o", "/dev/stderr",
                                                               "-w", "size_download=%{size_download}\n", "http://127.0.0.1:\(port)\(path)"])
                #expect(curl.status == 0, "\(curl)")
                #expect(curl.output.lowercased().contains("content-encoding: gzip"), "\(path): \(curl.output)")
                #expect(curl.error == plain.body, "\(path): curl's decoding differs from the plain answer")
                let wire = Int(curl.output.components(separatedBy: "size_download=").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? .max
                if plain.body.utf8.count > 2000 { #expect(wire * 2 < plain.body.utf8.count, "\(path): \(wire) bytes gzipped of \(plain.body.utf8.count)") }
            }
            let refused = try await RawHTTP.send(port: port, "GET", "/metrics", headers: [("Accept-Encoding", "gzip;q=0, identity")])
            #expect(refused.headers["content-encoding"] == nil)
        }
    }

    @Test func acceptEncodingIsReadAsRFC9110Says() {
        func accepts(_ value: String?) -> Bool {
            var fields = HTTPFields()
            if let value { fields[.acceptEncoding] = value }
            return GzipEncoding.accepted(fields)
        }
        #expect(accepts("gzip"))
        #expect(accepts("gzip, deflate, br, zstd"))
        #expect(accepts("br;q=1.0, GZIP;q=0.5"))
        #expect(accepts("*"))
        #expect(accepts("x-gzip"))
        #expect(!accepts(nil))
        #expect(!accepts("identity"))
        #expect(!accepts("br"))
        #expect(!accepts("gzip;q=0"))
        #expect(!accepts("gzip; q=0.000"))
        #expect(!accepts("*;q=0"))
        #expect(!accepts("gzip;q=0, *"), "gzip named and refused wins over *")
    }

    /// openapi-spec-validator (a validator nobody here wrote) finds the document valid, and does
    /// refuse a broken one (so that its "valid" means something).
    @Test func theOpenAPIDocumentIsValidOpenAPI() async throws {
        #expect(try await PythonCheckers.openAPIProblem(OpenAPIDocument.yaml) == nil)
        let broken = OpenAPIDocument.yaml.replacingOccurrences(of: "required: [error]", with: "required: error")
        #expect(try await PythonCheckers.openAPIProblem(broken) != nil)
    }
}
