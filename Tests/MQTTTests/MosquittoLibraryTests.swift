// libmosquitto is loaded at the first MQTT client (CMosquittoLoader): here, that loading says in
// one line what is missing, and that this machine's libmosquitto has every function the bridge uses.

@testable import MQTT
import Testing

@Suite("libmosquitto loaded at first use")
struct MosquittoLibraryTests {
    @Test("this machine's libmosquitto.so.1 loads, with every function the client calls")
    func theInstalledLibraryLoads() {
        #expect(MosquittoLibrary.name == "libmosquitto.so.1")
        #expect(MosquittoLibrary.problem == nil)
        #expect(MosquittoLibrary.check(MosquittoLibrary.name) == nil)
    }

    @Test("a library that is not there: one line naming it, dlopen's reason and the package to install")
    func aMissingLibraryIsOneLine() throws {
        let error = try #require(MosquittoLibrary.check("libmosquitto-absent.so.1"))
        #expect(error == .mqttLibraryUnavailable(
            library: "libmosquitto-absent.so.1",
            reason: "libmosquitto-absent.so.1: cannot open shared object file: No such file or directory"))
        #expect(error.description == "libmosquitto-absent.so.1 could not be loaded (libmosquitto-absent.so.1: cannot open "
            + "shared object file: No such file or directory): install the libmosquitto1 package")
        #expect(!error.description.contains("\n"))
    }

    @Test("a library without libmosquitto's functions is refused, naming the first one missing")
    func aLibraryWithoutTheFunctionsIsRefused() throws {
        let error = try #require(MosquittoLibrary.check("libc.so.6"))
        #expect(error == .mqttLibraryUnavailable(
            library: "libc.so.6", reason: "it has no mosquitto_lib_init: libmosquitto 1.6 or later is needed"))
    }
}
