#!/usr/bin/env bash
# The bytes a household exchanges on the broker to repair a loss (docs/household.md,
# "Anti-entropy"): the kitchen holds DAYS of its drinks (20 a day), the office the same less k of
# the last 14 days' ones, and believes it heard everything (its hello asks for nothing). A real
# mosquitto, both members' replication (EndToEndTests' HouseholdRepairTrafficTests) and a relay
# between them and the broker that counts every byte of every packet both ways, from the moment
# both are connected and quiet through 330 s of the household's clock (the first digests 60 s
# after the connection, the repair, and the next round of digests finding nothing more).
#
#   swift build --build-tests
#   Benchmarks/household-repair.sh [DAYS] [K,K,…]        # default 365 1,10,100 (and 0: the digests alone)
set -euo pipefail
cd "$(dirname "$0")/.."
days=${1:-365}
losses=${2:-0,1,10,100}
AQUAVATE_REPAIR_DAYS=$days AQUAVATE_REPAIR_LOST=$losses \
    swift test --skip-build --filter 'HouseholdRepairTrafficTests' 2>&1 | grep -E "^repair traffic|recorded an issue|Test run with"
