# What scripts/chaos.sh and scripts/household-chaos.sh share (sourced, not run): runs COUNT seeds
# from FIRST of a Swift Testing suite whose argument is the seed, BATCH seeds to a `swift test`
# process (the seeds passed in the environment variable SEEDS_VARIABLE, comma-separated), one
# process at a time, each given TIMEOUT seconds. A seed fails when Swift Testing reports an issue
# with its argument ("recorded an issue with 1 argument seed → S at"); a batch that did not finish
# (a hang, a crash) fails all its seeds, and so does a seed the filter never ran. Prints every failed seed with its issues, and for each
# seed that passed the lines SUMMARY matches (a grep -o pattern, SEED standing for the seed).
#
#   run_seeds NAME FILTER SEEDS_VARIABLE BATCH TIMEOUT COUNT FIRST [SUMMARY]
run_seeds() {
    local name=$1 filter=$2 variable=$3 batch_size=$4 limit=$5 count=$6 first=$7 summary=${8:-}
    swift build --build-tests > /dev/null || { swift build --build-tests; return 1; }
    local passed=0 failed=0 failures=() started=$SECONDS batch i seed list log seeds
    echo "$name: $count seeds from $first"
    for ((batch = 0; batch < count; batch += batch_size)); do
        seeds=()
        for ((i = batch; i < batch + batch_size && i < count; i++)); do seeds+=($((first + i))); done
        list=$(IFS=,; echo "${seeds[*]}")
        log=$(mktemp)
        env "$variable=$list" timeout "$limit" swift test --skip-build --filter "$filter" > "$log" 2>&1
        for seed in "${seeds[@]}"; do
            if grep -q "recorded an issue with 1 argument seed → $seed at" "$log" || ! grep -q "Test run with" "$log" \
                || ! grep -q "passing 1 argument seed → $seed to" "$log"; then
                failed=$((failed + 1)); failures+=("$seed")
                echo "$name: seed $seed FAILED"
                grep "argument seed → $seed at" "$log" | cut -c1-400 | head -5
            else
                passed=$((passed + 1))
                if [ -n "$summary" ]; then grep -o "${summary//SEED/$seed}" "$log" | cut -c1-300; fi
            fi
        done
        rm -f "$log"
    done
    [ ${#failures[@]} -gt 0 ] && echo "$name: failed seeds: ${failures[*]}"
    echo "$name: $passed passed, $failed failed in $((SECONDS - started)) s"
    [ "$failed" -eq 0 ]
}
