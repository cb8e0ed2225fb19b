// Benchmarks (not tests). Each prints its figures; docs/performance.md quotes them.
//
//   swift run -c release aquavate-bench decode      # chunk decoding vs Python struct
//   swift run -c release aquavate-bench replay      # replay of a 1,000,000-record capture
//   swift run -c release aquavate-bench capture-read # reading that capture alone (CaptureReader)
//   swift run -c release aquavate-bench day-totals  # day totals over 5 years of history
//   swift run -c release aquavate-bench reminders   # a year of minute ticks through the engine
//   swift run -c release aquavate-bench live        # connect latency and per-chunk cost, simulator
//   swift run -c release aquavate-bench web-history --db PATH  # 5 years x 4 bottles for Benchmarks/web.sh
//   swift run -c release aquavate-bench all

import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
let which = arguments.first ?? "all"
let options = Array(arguments.dropFirst())

switch which {
case "decode":
    await DecodeBenchmark.run(options)
case "replay":
    ReplayBenchmark.run(options)
case "capture-read":
    CaptureReadBenchmark.run(options)
case "day-totals":
    DayTotalsBenchmark.run(options)
case "reminders":
    ReminderYearBenchmark.run(options)
case "live":
    await LiveSyncBenchmark.run(options)
case "web-history":
    WebHistoryGenerator.run(options)
case "all":
    await DecodeBenchmark.run([])
    ReminderYearBenchmark.run([])
    DayTotalsBenchmark.run([])
    ReplayBenchmark.run([])
    CaptureReadBenchmark.run([])
    await LiveSyncBenchmark.run([])
default:
    print("usage: aquavate-bench [decode | replay [--records N] | capture-read [--records N] | day-totals | reminders [--days N] | live [--runs N] | web-history --db PATH | all]")
    exit(2)
}
