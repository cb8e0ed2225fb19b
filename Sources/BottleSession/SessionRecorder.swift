// `run --record FILE`: everything a session hears and says, as an `.aqcap` capture that
// `aquavate-bridge replay` drives through the same decoder and history (docs/design.md 3.3).
//
// The file is created at the first connection, when the bottle's name, address and MTU — the
// header's fields — are known; later sessions of the same run append to it. Events are stamped
// with the session's clock, held back from going backwards (captures are in time order).

import AquavateCapture
import AquavateProtocol
import Foundation
import Logging
import Locking
import Timekeeping

package final class SessionRecorder: Sendable {
    package let path: String
    private let source: String
    private let logger: Logger
    private let state = Locked(RecorderState())

    private struct RecorderState {
        var writer: CaptureWriter?
        var lastTime: WallInstant = .epoch
        var failed = false
    }

    package init(path: String, source: String, logger: Logger) {
        self.path = path
        self.source = source
        self.logger = logger
    }

    /// Opens the file (once) with a header describing the bottle.
    package func begin(name: String?, address: String, mtu: Int?, at time: WallInstant) {
        state.withLock { state in
            guard state.writer == nil, !state.failed else { return }
            let header = CaptureHeader(
                created: ISO8601Text.format(time), source: source,
                deviceName: name, deviceAddress: address, mtu: mtu)
            do {
                state.writer = try CaptureWriter(path: path, header: header)
            } catch {
                state.failed = true
                logger.error("cannot record to \(path): \(error); the run continues without recording")
            }
        }
    }

    package func connect(at time: WallInstant) { write(.connect(at: time)) }
    package func disconnect(at time: WallInstant, reason: String) { write(.disconnect(at: time, reason: reason)) }
    package func read(_ characteristic: Characteristic, _ value: [UInt8], at time: WallInstant) { write(.read(at: time, characteristic, value: value)) }
    package func wrote(_ characteristic: Characteristic, _ value: [UInt8], at time: WallInstant) { write(.write(at: time, characteristic, value: value)) }
    package func notified(_ characteristic: Characteristic, _ value: [UInt8], at time: WallInstant) { write(.notify(at: time, characteristic, value: value)) }
    /// A read of a characteristic the bottle protocol does not name (Device Information), by UUID.
    package func read(uuid: String, _ value: [UInt8], at time: WallInstant) { write(.read(at: time, .uuid(uuid.lowercased()), value: value)) }
    package func note(_ text: String, at time: WallInstant) { write(.note(at: time, text)) }

    private func write(_ event: CaptureEvent) {
        state.withLock { state in
            guard let writer = state.writer else { return }
            var event = event
            event.time = max(event.time, state.lastTime)
            state.lastTime = event.time
            do {
                try writer.write(event)
            } catch {
                logger.warning("recording to \(path) failed: \(error)")
            }
        }
    }

    /// Flushes and closes the file.
    package func close() {
        state.withLock { state in
            state.writer?.close()
            state.writer = nil
        }
    }
}
