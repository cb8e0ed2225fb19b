// What the MQTT sink does with a message on its command topic before the bridge sees it: the
// rate limit, the length, the parser and the gate, in that order (cheapest first, so a flood
// costs as little as possible). Each verdict is logged and answered on `…/command/result`, where
// the sender can read it, a refusal with its reason; during a flood only the first refusal is
// answered and warned about. Every refusal is counted (CommandRefusals).

import Logging
import MQTT

struct CommandIntake: Sendable {
    let gate: SinkCommandGate
    let limiter: CommandRateLimiter
    let refusals: CommandRefusals
    let logger: Logger

    /// The command to hand on, or nil when it was refused (already logged and answered).
    func admit(_ payload: [UInt8], topics: MQTTTopics, on client: MosquittoClient) -> SinkCommand? {
        guard allowedByRate(topics: topics, on: client) else { return nil }
        let command: SinkCommand
        do {
            command = try SinkCommandParser.parse(payload)
        } catch {
            logger.warning("MQTT: refused command on \(topics.command): \(error)")
            let reason: SinkCommandRefusalReason
            if case .tooLong = error { reason = .tooLong } else { reason = .malformed }
            refuse(nil, SinkCommandRefusal(reason, error.description), topics: topics, on: client)
            return nil
        }
        if let refusal = gate.refusal(command) {
            logger.warning("MQTT: refused command \(Self.summary(command)): \(refusal.message)")
            refuse(command, refusal, topics: topics, on: client)
            return nil
        }
        logger.info("MQTT: command \(Self.summary(command))")
        // A bottle command is answered by the bridge once queued (or refused by its checks).
        if case .bottle = command { return command }
        answer(command, refusal: nil, topics: topics, on: client)
        return command
    }

    /// A message too long to be a command: refused from its length, never copied.
    func oversized(bytes: Int, topics: MQTTTopics, on client: MosquittoClient) {
        guard allowedByRate(topics: topics, on: client) else { return }
        let reason = SinkCommandError.tooLong(bytes: bytes, limit: SinkCommandParser.maximumBytes).description
        logger.warning("MQTT: refused a command of \(bytes) bytes on \(topics.command): \(reason)")
        refuse(nil, SinkCommandRefusal(.tooLong, reason), topics: topics, on: client)
    }

    private func allowedByRate(topics: MQTTTopics, on client: MosquittoClient) -> Bool {
        let rule = "at most \(Int(limiter.burst)) at once, then \(Self.rate(limiter.perSecond))"
        switch limiter.decide() {
        case let .accept(refusedBefore):
            if refusedBefore > 0 {
                logger.notice("MQTT: refused \(refusedBefore) commands on \(topics.command) over the rate limit (\(rule)); accepting again")
            }
            return true
        case .refuse(first: true):
            logger.warning("MQTT: refused command: rate limit on \(topics.command) (\(rule)); further refusals are counted until commands slow down")
            refuse(nil, SinkCommandRefusal(.rateLimit, "rate limit: \(rule)"), topics: topics, on: client)
            return false
        case .refuse(first: false):
            logger.debug("MQTT: refused command: rate limit")
            refusals.count(.rateLimit)
            return false
        }
    }

    /// Counts a refusal and answers it.
    private func refuse(_ command: SinkCommand?, _ refusal: SinkCommandRefusal, topics: MQTTTopics, on client: MosquittoClient) {
        refusals.count(refusal.reason)
        answer(command, refusal: refusal, topics: topics, on: client)
    }

    private func answer(_ command: SinkCommand?, refusal: SinkCommandRefusal?, topics: MQTTTopics, on client: MosquittoClient) {
        let payload = MQTTPayloads.commandResult(command, status: refusal == nil ? .accepted : .refused, message: refusal?.message,
                                                 reason: refusal?.reason)
        do {
            try client.publish(.init(topic: topics.commandResult, text: payload.text))
        } catch {
            logger.debug("MQTT: could not answer on \(topics.commandResult): \(error)")
        }
    }

    /// The command without a config value (which may be a secret), for logs.
    static func summary(_ command: SinkCommand) -> String {
        switch command {
        case let .configSet(key, _): return "config \(key)"
        case let .log(type, bottle): return "log \(type)" + (bottle.map { " (\($0))" } ?? "")
        case let .action(id, action): return "action \(id) \(action)"
        case let .bottle(command): return "bottle \(command.name)"
        case let .bottleOf(command, bottle): return "bottle \(command.name) (\(bottle))"
        }
    }

    private static func rate(_ perSecond: Double) -> String {
        perSecond >= 1 ? "\(Int(perSecond)) per second" : "1 every \(Int((1 / perSecond).rounded())) s"
    }
}
