// The push sink's HTTP: one POST at a time through libcurl, loaded with dlopen on the first
// notification (CCurlLoader), on a thread of its own.
//
// Why not URLSession: on Linux it lives in FoundationNetworking, which links libcurl, and
// libcurl brings some thirty libraries (OpenSSL, GnuTLS, Kerberos, LDAP, SSH, …) that every start of
// the bridge then had to load, relocate and initialise, push configured or not: measured on the
// release binary, `aquavate-bridge --version` took 12.2 ms of CPU and 26.5 MB resident with them,
// 7.7 ms and 21.9 MB without (docs/performance.md). Now a bridge without HTTP push never maps
// them, and one with it maps them at its first notification.
//
// libcurl blocks the calling thread, so each POST runs on a new thread (notifications are rare) and
// the awaiting task is resumed from there; no thread of Swift's cooperative pool ever blocks.
// A redirect is never followed (the token would go with it), only http and https are spoken.

import CCurlLoader
import Foundation

/// What became of one POST.
enum CurlAnswer: Equatable, Sendable {
    /// The server answered; `location` is where a 3xx pointed.
    case answered(status: Int, location: String?)
    /// No answer; the words say why ("timed out", "connection refused", …).
    case noAnswer(String)
}

final class CurlTransport: Sendable {
    /// Shared with the C side, freed with the transport: every POST ends once it is fired.
    private nonisolated(unsafe) let cancel: OpaquePointer

    init() {
        cancel = aq_http_cancel_create()
    }

    deinit {
        aq_http_cancel_destroy(cancel)
    }

    /// Ends a POST in flight (within about a second, libcurl's progress tick) and refuses later ones.
    func stop() {
        aq_http_cancel_fire(cancel)
    }

    func post(url: String, headers: [(String, String)], body: [UInt8], timeout: Duration) async -> CurlAnswer {
        let lines = headers.map { "\($0.0): \($0.1)" }
        let timeout = max(1, Int(timeout.inSeconds.rounded(.up)))
        return await withCheckedContinuation { (continuation: CheckedContinuation<CurlAnswer, Never>) in
            let thread = Thread { [self] in
                continuation.resume(returning: self.perform(url: url, lines: lines, body: body, timeout: timeout))
            }
            thread.name = "aquavate-push"
            thread.start()
        }
    }

    private func perform(url: String, lines: [String], body: [UInt8], timeout: Int) -> CurlAnswer {
        var result = aq_http_result()
        let cStrings = lines.map { strdup($0) }
        defer { cStrings.forEach { free($0) } }
        let outcome = cStrings.map { UnsafePointer($0) }.withUnsafeBufferPointer { headerPointers in
            body.withUnsafeBufferPointer { bytes in
                bytes.baseAddress!.withMemoryRebound(to: CChar.self, capacity: max(bytes.count, 1)) { text in
                    aq_http_post(url, headerPointers.baseAddress, Int32(headerPointers.count), text, bytes.count,
                                 timeout, cancel, &result)
                }
            }
        }
        let error = Self.text(of: &result.error)
        switch outcome {
        case AQ_HTTP_ANSWERED:
            let location = Self.text(of: &result.location)
            return .answered(status: result.status, location: location.isEmpty ? nil : location)
        case AQ_HTTP_TIMED_OUT: return .noAnswer("timed out")
        case AQ_HTTP_REFUSED: return .noAnswer("connection refused")
        case AQ_HTTP_HOST_NOT_FOUND: return .noAnswer("host not found")
        case AQ_HTTP_CANCELLED: return .noAnswer("cancelled")
        default: return .noAnswer(error.isEmpty ? "failed" : error)
        }
    }

    /// A NUL-terminated C array field as a String.
    private static func text<T>(of field: inout T) -> String {
        withUnsafeBytes(of: &field) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
    }
}
