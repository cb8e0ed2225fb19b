// Method calls awaiting their reply, on the owner thread: `dbus_connection_send_with_reply`
// plus a pending-call notify that hands the reply (or the time-out) to a completion.
//
// libdbus runs the time-out itself (a DBusTimeout the watch loop fires) and then completes the
// call with a locally made `org.freedesktop.DBus.Error.NoReply` that has no sender; that one, and
// only that one, becomes `DBusCallTimedOut`. A NoReply from the bus (the peer left without
// answering) carries the bus as sender and stays a `DBusFailure`.
import CDBus

final class PendingCall {
    let id: UInt64
    var handle: OpaquePointer?
    let timedOut: DBusCallTimedOut?
    let completion: (Result<Message, any Error>) -> Void

    init(id: UInt64, timedOut: DBusCallTimedOut?, completion: @escaping (Result<Message, any Error>) -> Void) {
        self.id = id
        self.timedOut = timedOut
        self.completion = completion
    }
}

/// What libdbus passes back to the notify function.
private final class NotifyContext {
    let core: ConnectionCore
    let id: UInt64
    init(core: ConnectionCore, id: UInt64) {
        self.core = core
        self.id = id
    }
}

extension ConnectionCore {
    /// Sends `message` and calls `completion` (on the owner thread) with the reply message,
    /// which may be an error reply, or with `DBusCallTimedOut` / `DBusDisconnected`.
    func startCall(
        _ message: Message, id: UInt64, timeoutMilliseconds: Int32, timedOut: DBusCallTimedOut?,
        completion: @escaping (Result<Message, any Error>) -> Void
    ) {
        guard isOpen, let connection else {
            completion(.failure(closedError))
            return
        }
        var handle: OpaquePointer? = nil
        guard dbus_connection_send_with_reply(connection, message.pointer, &handle, timeoutMilliseconds) != 0,
            let handle
        else {
            completion(.failure(DBusDisconnected(reason: "the connection is not connected")))
            return
        }
        let call = PendingCall(id: id, timedOut: timedOut, completion: completion)
        call.handle = handle
        pendingCalls[id] = call
        let context = Unmanaged.passRetained(NotifyContext(core: self, id: id)).toOpaque()
        let notifySet = dbus_pending_call_set_notify(
            handle,
            { _, data in
                guard let data else { return }
                let context = Unmanaged<NotifyContext>.fromOpaque(data).takeUnretainedValue()
                context.core.completeCall(context.id)
            },
            context,
            { data in
                guard let data else { return }
                Unmanaged<NotifyContext>.fromOpaque(data).release()
            })
        if notifySet == 0 {
            Unmanaged<NotifyContext>.fromOpaque(context).release()
            cancelCall(id, with: DBusDisconnected(reason: "libdbus ran out of memory"))
            return
        }
        // The reply may have been read already while sending.
        if dbus_pending_call_get_completed(handle) != 0 { completeCall(id) }
    }

    /// Called by the notify function when the reply (or the time-out) is there.
    func completeCall(_ id: UInt64) {
        guard let call = pendingCalls.removeValue(forKey: id), let handle = call.handle else { return }
        let raw = dbus_pending_call_steal_reply(handle)
        dbus_pending_call_unref(handle)
        guard let raw else {
            call.completion(.failure(DBusDisconnected(reason: "the call ended without a reply")))
            return
        }
        let reply = Message(adopting: raw)
        if reply.type == DBUS_MESSAGE_TYPE_ERROR, reply.errorName == DBusFailure.noReplyName, reply.sender == nil {
            if let connection, dbus_connection_get_is_connected(connection) == 0 {
                call.completion(.failure(DBusDisconnected(reason: "the bus closed the connection")))
            } else if let timedOut = call.timedOut {
                call.completion(.failure(timedOut))
            } else {
                call.completion(.success(reply))
            }
            return
        }
        call.completion(.success(reply))
    }

    /// Abandons a call: libdbus forgets it, the completion gets `error`.
    func cancelCall(_ id: UInt64, with error: any Error) {
        guard let call = pendingCalls.removeValue(forKey: id) else { return }
        if let handle = call.handle {
            dbus_pending_call_cancel(handle)
            dbus_pending_call_unref(handle)
        }
        call.completion(.failure(error))
    }

    func failAllPendingCalls(_ error: any Error) {
        for id in Array(pendingCalls.keys) { cancelCall(id, with: error) }
    }

    /// A call to the bus driver (`org.freedesktop.DBus`) from the owner thread.
    func callBusDriver(
        _ method: String, _ arguments: [DBusValue],
        completion: @escaping (Result<[DBusValue], any Error>) -> Void
    ) {
        do {
            let message = try Message.methodCall(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                interface: "org.freedesktop.DBus", method: method, arguments: arguments)
            startCall(message, id: nextID(), timeoutMilliseconds: CDBUS_TIMEOUT_USE_DEFAULT, timedOut: nil) { result in
                completion(result.flatMap { reply in Result { try reply.replyBody() } })
            }
        } catch {
            completion(.failure(error))
        }
    }
}

extension Message {
    /// The body of a method return, or the `DBusFailure` an error reply carries.
    func replyBody() throws -> [DBusValue] {
        if type == DBUS_MESSAGE_TYPE_ERROR {
            let text = (try? arguments())?.first?.string ?? ""
            throw DBusFailure(name: errorName ?? DBusFailure.failedName, message: text)
        }
        return try arguments()
    }
}
