#!/usr/bin/env bash
# Runs N seeds of the household's chaos (Tests/EndToEndTests/HouseholdChaosTests.swift): two or
# three members and a real mosquitto joined by a lossy MQTT relay that drops and duplicates
# PUBLISH packets and cuts connections at random; random drinks and deletions on every member; a
# seed fails when the histories are not all equal within 5 minutes (the household's clock) of the
# path healing. `scripts/household-chaos.sh 200 [FIRST_SEED]`. Prints the seed of every failure;
# replay one with
#   AQUAVATE_HOUSEHOLD_CHAOS_SEEDS=S swift test --skip-build --filter HouseholdChaosTests
# Seeds run 10 to a `swift test` process, one process at a time (a seed is one broker, a relay
# and the members inside the test process).
set -uo pipefail
cd "$(dirname "$0")/.."
count=${1:?usage: scripts/household-chaos.sh N [FIRST_SEED]}
first=${2:-$(( (RANDOM << 15 | RANDOM) ))}
swift build --build-tests > /dev/null || { swift build --build-tests; exit 1; }
passed=0 failed=0 failures=()
echo "household chaos: $count seeds from $first"
batch_size=10
started=$SECONDS
for ((batch = 0; batch < count; batch += batch_size)); do
    seeds=()
    for ((i = batch; i < batch + batch_size && i < count; i++)); do seeds+=($((first + i))); done
    list=$(IFS=,; echo "${seeds[*]}")
    log=$(mktemp)
    AQUAVATE_HOUSEHOLD_CHAOS_SEEDS=$list timeout 900 swift test --skip-build --filter 'HouseholdChaosTests' > "$log" 2>&1
    for seed in "${seeds[@]}"; do
        # Swift Testing names the argument of a failed case; a batch that did not finish (hang,
        # crash) fails all its seeds.
        if grep -q "recorded an issue with 1 argument seed → $seed at" "$log" || ! grep -q "Test run with" "$log"; then
            failed=$((failed + 1)); failures+=("$seed")
            echo "household chaos: seed $seed FAILED"
            grep "argument seed → $seed at" "$log" | cut -c1-400 | head -5
        else
            passed=$((passed + 1))
            grep -o "household chaos seed $seed: [0-9]* changes; every history equal.*" "$log" | cut -c1-300
        fi
    done
    rm -f "$log"
done
[ ${#failures[@]} -gt 0 ] && echo "household chaos: failed seeds: ${failures[*]}"
echo "household chaos: $passed passed, $failed failed in $((SECONDS - started)) s"
[ "$failed" -eq 0 ]
