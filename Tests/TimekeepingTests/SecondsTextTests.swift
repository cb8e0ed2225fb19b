// `Duration.secondsText`, the one way a log line says how long: the sink's back-off and outage
// lines and the watchdog's stall line read alike, whole seconds rounded, tenths below a second.

import Testing
import Timekeeping

@Suite struct SecondsTextTests {
    @Test(arguments: [
        (Duration.seconds(1), "1 s"), (.seconds(300), "300 s"), (.milliseconds(12_400), "12 s"), (.milliseconds(12_500), "13 s"),
        (.milliseconds(500), "0.5 s"), (.milliseconds(250), "0.3 s"), (.zero, "0 s"), (.seconds(-3), "-3 s"),
    ])
    func wholeSecondsAndTenthsBelowOne(_ duration: Duration, _ text: String) {
        #expect(duration.secondsText == text)
    }
}
