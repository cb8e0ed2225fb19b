#!/usr/bin/env bash
# Runs N random seeds of the fault injector against the real bridge (Tests/EndToEndTests/
# ChaosTests.swift): `scripts/chaos.sh 500`. Each seed is a private bus, `aquavate-sim --fault
# chaos=SEED` and `aquavate-bridge run --once` started until the sync completes; a seed fails when
# a run hangs, exits uncleanly, uses ≥ 2 s of CPU or ≥ 96 MiB, or a drink is missing or stored
# twice. Prints the seed of every failure; replay one with
#   AQUAVATE_CHAOS_SEED=S swift test --skip-build --filter '^EndToEndTests\.ChaosTests'
# Seeds run four to a process (the bridge, a simulator and a dbus-daemon each: 2 cores are
# enough); AQUAVATE_CHAOS_PARALLEL=N changes that. The batches are scripts/seeds.sh's.
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/seeds.sh
count=${1:?usage: scripts/chaos.sh N [FIRST_SEED]}
first=${2:-$(( (RANDOM << 15 | RANDOM) ))}
run_seeds chaos '^EndToEndTests\.ChaosTests' AQUAVATE_CHAOS_SEEDS "${AQUAVATE_CHAOS_PARALLEL:-4}" 600 "$count" "$first"
