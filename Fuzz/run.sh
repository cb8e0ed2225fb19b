#!/usr/bin/env bash
# Build one fuzz target with libFuzzer and run it.
#   Fuzz/run.sh fuzz-chunk 600      # ten minutes on the drink-data chunk decoder
#   Fuzz/run.sh fuzz-aqcap 600      # ten minutes on the .aqcap line reader
# The build uses its own scratch folder (.build-fuzz): -sanitize=fuzzer must never reach a
# normal build (docs/swift-linux.md P9). Crashes land in Fuzz/artifacts/.
set -euo pipefail
target=${1:?usage: Fuzz/run.sh TARGET [SECONDS]}
seconds=${2:-60}
cd "$(dirname "$0")/.."
swift build --scratch-path .build-fuzz --product "$target" \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xswiftc -O
corpus="Fuzz/corpus-$target"
mkdir -p "$corpus" Fuzz/artifacts
".build-fuzz/debug/$target" --write-seeds "$corpus"
# The Swift backtracer would swallow the crash before libFuzzer writes it (docs/swift-linux.md P9).
SWIFT_BACKTRACE=enable=no ".build-fuzz/debug/$target" -max_total_time="$seconds" \
    -artifact_prefix=Fuzz/artifacts/ "$corpus"
