// The push sink's URLSession delegate: it refuses every redirect and hands each task's response
// to the continuation waiting for it.
//
// Why a delegate and not the completion-handler data task: swift-corelibs-foundation follows
// redirects for a task with a completion handler without asking any delegate
// (HTTPURLProtocol.redirectFor: `.dataCompletionHandler` → "Follow the redirect"), and a 307 to
// another origin re-sends `Authorization: Bearer …` there. Only a delegate-driven task
// reaches `willPerformHTTPRedirection`, where nil keeps the 3xx as the final response.
//
// Why not `data(for:)`: see HTTPPushSink.response(to:) (a deadlock on Linux).

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Locking

final class PushTransfers: NSObject, URLSessionDataDelegate, Sendable {
    private struct Transfer {
        var continuation: CheckedContinuation<URLResponse, Error>
        var response: URLResponse?
    }

    private let transfers = Locked<[Int: Transfer]>([:])

    /// Starts `request` on `session` (whose delegate is this object) and waits for its response.
    func response(to request: URLRequest, on session: URLSession) async throws -> URLResponse {
        try await withCheckedThrowingContinuation { continuation in
            let task = session.dataTask(with: request)
            transfers.withLock { $0[task.taskIdentifier] = Transfer(continuation: continuation) }
            task.resume()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        transfers.withLock { $0[dataTask.taskIdentifier]?.response = response }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        guard let transfer = transfers.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        // Resumed outside the lock (Locking's rule).
        if let error {
            transfer.continuation.resume(throwing: error)
        } else if let response = transfer.response ?? task.response {
            transfer.continuation.resume(returning: response)
        } else {
            transfer.continuation.resume(throwing: URLError(.badServerResponse))
        }
    }
}
