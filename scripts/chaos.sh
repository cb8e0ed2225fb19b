#!/usr/bin/env bash
# Runs N random seeds of the fault injector against the real bridge (Tests/EndToEndTests/
# ChaosTests.swift): `scripts/chaos.sh 500`. Each seed is a private bus, `aquavate-sim --fault
# chaos=SEED` and `aquavate-bridge run --once` started until the sync completes; a seed fails when
# a run hangs, exits uncleanly, uses ≥ 2 s of CPU or ≥ 96 MiB, or a drink is missing or stored
# twice. Prints the seed of every failure; replay one with
#   AQUAVATE_CHAOS_SEED=S swift test --skip-build --filter ChaosTests
# Seeds run four at a time (the bridge, a simulator and a dbus-daemon each: 2 cores are enough);
# AQUAVATE_CHAOS_PARALLEL=N changes that.
set -uo pipefail
cd "$(dirname "$0")/.."
count=${1:?usage: scripts/chaos.sh N [FIRST_SEED]}
first=${2:-$(( (RANDOM << 15 | RANDOM) ))}
swift build --build-tests > /dev/null || { swift build --build-tests; exit 1; }
passed=0 failed=0 failures=()
echo "chaos: $count seeds from $first"
parallel=${AQUAVATE_CHAOS_PARALLEL:-4}
for ((batch = 0; batch < count; batch += parallel)); do
    seeds=()
    for ((i = batch; i < batch + parallel && i < count; i++)); do seeds+=($((first + i))); done
    list=$(IFS=,; echo "${seeds[*]}")
    log=$(mktemp)
    AQUAVATE_CHAOS_SEEDS=$list timeout 600 swift test --skip-build --filter 'ChaosTests' > "$log" 2>&1
    for seed in "${seeds[@]}"; do
        # Swift Testing names the argument of a failed case: "… recorded an issue with 1 argument
        # seed → S at …"; a batch that did not finish (hang, crash) fails all its seeds.
        if grep -q "recorded an issue with 1 argument seed → $seed at" "$log" || ! grep -q "Test run with" "$log"; then
            failed=$((failed + 1)); failures+=("$seed")
            echo "chaos: seed $seed FAILED"
            grep "argument seed → $seed at" "$log" | cut -c1-400 | head -5
        else
            passed=$((passed + 1))
        fi
    done
    rm -f "$log"
done
[ ${#failures[@]} -gt 0 ] && echo "chaos: failed seeds: ${failures[*]}"
echo "chaos: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
