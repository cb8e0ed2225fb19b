#!/usr/bin/env bash
# The web dashboard's budgets (docs/design.md 5): the page and /api/v1/days?days=365 in < 50 ms
# each over 5 years of history with 4 bottles, /metrics and /api/v1/drinks?days=30 in < 10 ms,
# the page < 30 KiB over the wire, 100 concurrent clients served without error. Release build;
# `serve` over a generated history on a loopback port; each URL timed by curl (time_total, 50
# requests one after another: median and worst), plain and gzipped (`--compressed`, with the
# bytes that crossed the wire) and with the server's CPU time per request (from /proc, which a
# busy machine distorts far less), then wrk with 100 connections for 10 s on each.
#
#   Benchmarks/web.sh [BIN_DIR]  # needs curl and wrk (scripts/install-deps.sh); BIN_DIR holds a
#                                # release build's aquavate-bridge and aquavate-bench (default:
#                                # built here, `swift build -c release`, into .build)
set -euo pipefail
cd "$(dirname "$0")/.."
# A free port: the kernel's choice for a socket bound to port 0.
port=${PORT:-$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}
work=$(mktemp -d)
trap 'kill "${server:-}" 2>/dev/null || true; rm -rf "$work"' EXIT

if [ -n "${1:-}" ]; then
    bin=$1
else
    swift build -c release --product aquavate-bridge >/dev/null
    swift build -c release --product aquavate-bench >/dev/null
    bin=$(swift build -c release --show-bin-path)
fi
for program in aquavate-bridge aquavate-bench; do
    [ -x "$bin/$program" ] || { echo "web.sh: no $bin/$program (a release build: see the header)" >&2; exit 2; }
done
"$bin/aquavate-bench" web-history --db "$work/history.sqlite"

touch "$work/config.toml"
"$bin/aquavate-bridge" serve --db "$work/history.sqlite" --config "$work/config.toml" --http "127.0.0.1:$port" --set timezone=Europe/Madrid \
    >"$work/serve.log" 2>&1 &
server=$!
for _ in $(seq 100); do curl -fs "http://127.0.0.1:$port/metrics" >/dev/null && break; sleep 0.1; done
curl -fs "http://127.0.0.1:$port/metrics" >/dev/null || { cat "$work/serve.log"; exit 1; }

# The server's CPU time so far, in clock ticks (/proc/PID/stat fields 14 and 15: utime, stime;
# the command name, field 2, is in parentheses and has no space here).
ticks=$(getconf CLK_TCK)
server_cpu_ticks() { awk '{print $14 + $15}' "/proc/$server/stat"; }

paths=(/ "/api/v1/days?days=365" "/api/v1/drinks?days=30" /metrics)
for path in "${paths[@]}"; do
    url="http://127.0.0.1:$port$path"
    for compressed in "" --compressed; do
        curl -fs $compressed -o /dev/null "$url"  # warm
        cpu_before=$(server_cpu_ticks)
        times=$(for _ in $(seq 50); do curl -fs $compressed -o /dev/null -w '%{time_total}\n' "$url"; done | sort -n)
        cpu_after=$(server_cpu_ticks)
        median=$(echo "$times" | sed -n 25p)
        worst=$(echo "$times" | tail -1)
        # size_download: the body's bytes as they crossed the wire (gzipped with --compressed).
        bytes=$(curl -fs $compressed -o /dev/null -w '%{size_download}' "$url")
        printf 'web: %-24s %-5s %8d bytes on the wire  median %6.1f ms  worst %6.1f ms (curl, 50 requests)\n' "$path" \
            "${compressed:+gzip}" "$bytes" "$(awk "BEGIN {print $median * 1000}")" "$(awk "BEGIN {print $worst * 1000}")"
        # The server's own CPU time (user + system, from /proc) per request over those 50: what a
        # request costs, which a busy machine distorts far less than the time curl waits.
        printf 'web: %-24s %-5s server CPU %6.2f ms a request (user + system over the 50 requests)\n' "$path" "${compressed:+gzip}" \
            "$(awk "BEGIN {print ($cpu_after - $cpu_before) * 1000 / $ticks / 50}")"
    done
done
for path in "${paths[@]}"; do
    out=$(wrk -t2 -c100 -d10s "http://127.0.0.1:$port$path")
    requests=$(echo "$out" | awk '/requests in/ {print $1}')
    rate=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
    latency=$(echo "$out" | awk '/Latency/ {print $2}')
    errors=$(echo "$out" | grep -E 'Socket errors|Non-2xx' | tr '\n' ' ' || true)
    printf 'web: wrk -t2 -c100 -d10s %-24s %7s requests, %8s req/s, mean latency %s, errors: %s\n' "$path" "$requests" "$rate" "$latency" "${errors:-none}"
done
# The page as browsers ask for it.
out=$(wrk -t2 -c100 -d10s -H 'Accept-Encoding: gzip' "http://127.0.0.1:$port/")
errors=$(echo "$out" | grep -E 'Socket errors|Non-2xx' | tr '\n' ' ' || true)
printf 'web: wrk -t2 -c100 -d10s %-24s %7s requests, %8s req/s, mean latency %s, errors: %s\n' "/ (gzip)" \
    "$(echo "$out" | awk '/requests in/ {print $1}')" "$(echo "$out" | awk '/Requests\/sec/ {print $2}')" \
    "$(echo "$out" | awk '/Latency/ {print $2}')" "${errors:-none}"
