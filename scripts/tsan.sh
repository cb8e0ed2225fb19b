#!/usr/bin/env bash
# The whole suite under ThreadSanitizer, one test target at a time (as scripts/test.sh), in its
# own scratch folder. Child processes the tests start (aquavate-bridge, aquavate-sim) are the
# TSan builds too, and inherit TSAN_OPTIONS. Tests/tsan.supp says what is suppressed and why.
#
# Not part of scripts/test.sh: the TSan build takes minutes more, and a false positive of the
# uninstrumented Swift runtime must not turn CI red. Exit status: non-zero if any target failed
# or printed a ThreadSanitizer warning.
set -uo pipefail
cd "$(dirname "$0")/.."
scratch=.build-tsan
swift build --build-tests --sanitize=thread --scratch-path "$scratch" || exit 1
export TSAN_OPTIONS="suppressions=$PWD/Tests/tsan.supp ${TSAN_OPTIONS:-}"
source scripts/test-targets.sh
bad=0
for target in "${targets[@]}"; do
    log=$(mktemp)
    timeout 900 swift test --skip-build --sanitize=thread --scratch-path "$scratch" $(target_selection "$target") > "$log" 2>&1
    status=$?
    warnings=$(grep -c "WARNING: ThreadSanitizer" "$log")
    echo "$target: exit $status, $warnings ThreadSanitizer warning(s); $(grep -E 'Test run with' "$log" | tail -1)"
    if [ "$status" -ne 0 ] || [ "$warnings" -ne 0 ]; then
        bad=1
        grep -A14 "WARNING: ThreadSanitizer" "$log" | head -60
    fi
    rm -f "$log"
done
exit $bad
