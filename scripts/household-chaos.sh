#!/usr/bin/env bash
# Runs N seeds of the household's chaos (Tests/EndToEndTests/HouseholdChaosTests.swift): two or
# three members and a real mosquitto joined by a lossy MQTT relay that drops and duplicates
# PUBLISH packets and cuts connections at random; random drinks and deletions on every member; a
# seed fails when the histories are not all equal within 5 minutes (the household's clock) of the
# path healing. `scripts/household-chaos.sh 200 [FIRST_SEED]`. Prints the seed of every failure;
# replay one with
#   AQUAVATE_HOUSEHOLD_CHAOS_SEEDS=S swift test --skip-build --filter HouseholdChaosTests
# Seeds run 10 to a `swift test` process, one process at a time (a seed is one broker, a relay
# and the members inside the test process). The batches are scripts/seeds.sh's.
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/seeds.sh
count=${1:?usage: scripts/household-chaos.sh N [FIRST_SEED]}
first=${2:-$(( (RANDOM << 15 | RANDOM) ))}
run_seeds "household chaos" HouseholdChaosTests AQUAVATE_HOUSEHOLD_CHAOS_SEEDS 10 900 "$count" "$first" \
    "household chaos seed SEED: [0-9]* changes; every history equal.*"
