// Incoming method calls, on the owner thread: route them through the registry, run the handler
// the way its kind asks, and reply through a `DBusResponder`.
//
// Every reply is queued, never sent on the spot: a signal a handler emits before returning was
// queued first, so it reaches the caller before the reply (BlueZ's order for Disconnect).
import Synchronization

/// Replies to one method call, exactly once, from any thread.
package final class DBusResponder: Sendable {
    private let core: ConnectionCore
    private let call: Message
    private let member: String
    private let outputSignature: DBusSignature
    private let answered = Atomic<Bool>(false)

    init(core: ConnectionCore, call: Message, member: String, outputSignature: DBusSignature) {
        self.core = core
        self.call = call
        self.member = member
        self.outputSignature = outputSignature
    }

    /// Replies with `values`, which must have the method's declared output types; otherwise
    /// the caller gets `org.freedesktop.DBus.Error.Failed` saying so. Later replies are ignored.
    package func reply(_ values: [DBusValue]) {
        guard claim() else { return }
        guard values.signature == outputSignature else {
            send(Message.errorReply(to: call, .failed(
                "the handler of \(member) replied with type '\(values.signature)' where '\(outputSignature)' is declared")))
            return
        }
        do {
            send(try Message.methodReturn(to: call, arguments: values))
        } catch {
            send(Message.errorReply(to: call, .failed("the handler of \(member) replied with an invalid value: \(error)")))
        }
    }

    /// Replies with an error: a `DBusFailure` as it is, anything else as
    /// `org.freedesktop.DBus.Error.Failed` with its description.
    package func fail(_ error: any Error) {
        guard claim() else { return }
        let failure = error as? DBusFailure ?? .failed(String(describing: error))
        send(Message.errorReply(to: call, failure))
    }

    deinit {
        if !answered.load(ordering: .acquiring) {
            send(Message.errorReply(to: call, .failed("the handler of \(member) finished without replying")))
        }
    }

    private func claim() -> Bool {
        !answered.exchange(true, ordering: .acquiringAndReleasing)
    }

    private func send(_ message: Message?) {
        guard call.expectsReply, let message else { return }
        core.enqueue { $0.sendNow(message) }
    }
}

extension ConnectionCore {
    func dispatchMethodCall(_ message: Message) {
        let member = message.member ?? ""
        let arguments: [DBusValue]
        do {
            arguments = try message.arguments()
        } catch {
            DBusResponder(core: self, call: message, member: member, outputSignature: "")
                .fail(DBusFailure.invalidArgs("\(error)"))
            return
        }
        let call = DBusMethodCall(
            sender: message.sender ?? "", path: message.path ?? .root, interface: message.interface,
            member: member, arguments: arguments)

        switch registry.route(call, signature: message.signature) {
        case .reply(let values):
            DBusResponder(core: self, call: message, member: member, outputSignature: values.signature).reply(values)
        case .failure(let failure):
            DBusResponder(core: self, call: message, member: member, outputSignature: "").fail(failure)
        case .setProperty(let property, let interface, let value):
            do {
                try property.onSet?(value, call)
            } catch {
                DBusResponder(core: self, call: message, member: member, outputSignature: "").fail(error)
                return
            }
            registry.commitSet(
                call.path, interface: interface, name: property.name, value: value, call: message,
                send: { reply in enqueue { $0.sendNow(reply) } })
        case .method(let method):
            let responder = DBusResponder(
                core: self, call: message, member: member, outputSignature: method.outputSignature)
            switch method.handler {
            case .immediate(let handler):
                do { responder.reply(try handler(call)) } catch { responder.fail(error) }
            case .task(let handler):
                Task {
                    do { responder.reply(try await handler(call)) } catch { responder.fail(error) }
                }
            case .deferred(let handler):
                handler(call, responder)
            }
        }
    }
}
