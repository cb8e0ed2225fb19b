// `doctor` on a broker that lets anyone write (AnonymousAccessProbe, BrokerAccessCheck): against a
// real mosquitto, one that allows anonymous clients without an ACL warns that a client without a
// login may write the household's and the command topics; one with `allow_anonymous false` and
// passwords does not.

import BusTestSupport
@testable import Diagnostics
import Foundation
import Household
import Testing

@Suite("doctor: who may write on the broker", .serialized)
struct BrokerAccessCheckTests {
    @Test("a broker open to anonymous clients: doctor warns that they may write household and command topics")
    func anonymousBrokerWarns() async throws {
        let broker = try MosquittoBroker()
        try await broker.start()
        let probed = await AnonymousAccessProbe.probe(url: broker.url, timeout: .seconds(5))
        #expect(probed == .writes(["command", "household"]), "\(broker.log)")
        let finding = BrokerAccessCheck.finding(probed)
        #expect(finding.status == .warn && finding.detail.contains("command topics") && finding.detail.contains("household"))
        withExtendedLifetime(broker) {}
    }

    @Test("a broker with passwords and no anonymous clients: no warning, also when the bridge logs in")
    func closedBrokerPasses() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("access-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let passwords = folder.appendingPathComponent("passwd").path
        #expect(FileManager.default.createFile(atPath: passwords, contents: Data()))
        let made = try await runTool("/usr/bin/mosquitto_passwd", ["-b", passwords, "kitchen", "pw-kitchen"], timeout: .seconds(10))
        #expect(made.status == 0, "\(made)")
        let broker = try MosquittoBroker(extraConfiguration: ["allow_anonymous false", "password_file \(passwords)"])
        try await broker.start()
        let probed = await AnonymousAccessProbe.probe(url: "mqtt://kitchen:pw-kitchen@127.0.0.1:\(broker.port)", timeout: .seconds(3))
        #expect(probed == .refused, "\(broker.log)")
        #expect(BrokerAccessCheck.finding(probed).status == .ok)
        withExtendedLifetime(broker) {}
    }
}
