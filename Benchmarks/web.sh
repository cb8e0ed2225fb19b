#!/usr/bin/env bash
# The web dashboard's budgets (docs/design.md 5): the page and /api/v1/days?days=365 in < 50 ms
# each over 5 years of history with 4 bottles, /metrics in < 10 ms, 100 concurrent clients served
# without error. Release build; `serve` over a generated history on a loopback port; each URL
# timed by curl (time_total, 50 requests one after another: median and worst), then wrk with 100
# connections for 10 s on each.
#
#   Benchmarks/web.sh            # needs curl and wrk (scripts/install-deps.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
port=${PORT:-18480}
work=$(mktemp -d)
trap 'kill "${server:-}" 2>/dev/null || true; rm -rf "$work"' EXIT

swift build -c release --product aquavate-bridge >/dev/null
swift build -c release --product aquavate-bench >/dev/null
bin=$(swift build -c release --show-bin-path)
"$bin/aquavate-bench" web-history --db "$work/history.sqlite"

touch "$work/config.toml"
"$bin/aquavate-bridge" serve --db "$work/history.sqlite" --config "$work/config.toml" --http "127.0.0.1:$port" --set timezone=Europe/Madrid \
    >"$work/serve.log" 2>&1 &
server=$!
for _ in $(seq 100); do curl -fs "http://127.0.0.1:$port/metrics" >/dev/null && break; sleep 0.1; done
curl -fs "http://127.0.0.1:$port/metrics" >/dev/null || { cat "$work/serve.log"; exit 1; }

for path in / "/api/v1/days?days=365" /metrics; do
    url="http://127.0.0.1:$port$path"
    curl -fs -o /dev/null "$url"  # warm
    times=$(for _ in $(seq 50); do curl -fs -o /dev/null -w '%{time_total}\n' "$url"; done | sort -n)
    median=$(echo "$times" | sed -n 25p)
    worst=$(echo "$times" | tail -1)
    bytes=$(curl -fs "$url" | wc -c)
    printf 'web: %-24s %7d bytes  median %6.1f ms  worst %6.1f ms (curl, 50 requests)\n' "$path" "$bytes" \
        "$(awk "BEGIN {print $median * 1000}")" "$(awk "BEGIN {print $worst * 1000}")"
done
for path in / "/api/v1/days?days=365" /metrics; do
    out=$(wrk -t2 -c100 -d10s "http://127.0.0.1:$port$path")
    requests=$(echo "$out" | awk '/requests in/ {print $1}')
    rate=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
    latency=$(echo "$out" | awk '/Latency/ {print $2}')
    errors=$(echo "$out" | grep -E 'Socket errors|Non-2xx' | tr '\n' ' ' || true)
    printf 'web: wrk -t2 -c100 -d10s %-24s %7s requests, %8s req/s, mean latency %s, errors: %s\n' "$path" "$requests" "$rate" "$latency" "${errors:-none}"
done
