#!/usr/bin/env bash
# Bumps the Home Assistants of the suite to what PyPI has now: each release of
# scripts/home-assistant-versions to the newest patch of its series (2024.11.x stays 2024.11), and
# the `newest` line to the newest release on PyPI; each with the Python it runs on (`host` when
# this machine's 3.12 runs it, else `forky`). Prints what changed. Then: scripts/test.sh (it makes
# the new environments and runs them) and the range in docs/home-assistant.md.
#
#   scripts/home-assistant-bump.sh [--check]     --check: change nothing, fail if a bump is due
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
file="$here/home-assistant-versions"
cache="${AQUAVATE_HA_CACHE:-$HOME/.cache/aquavate-home-assistant}"
# The Pythons the releases may run on: the host's (what home-assistant-env.sh picks) and Debian
# forky's (the root's, when made; else the one forky shipped when this was written).
host_python="$(ls -d /root/.pyenv/versions/3.12.*/bin/python3 2>/dev/null | head -1 || true)"
host_python="${AQUAVATE_HA_PYTHON:-${host_python:-$(command -v python3.12 || command -v python3.13 || echo python3)}}"
host_version="$("$host_python" -c 'import platform; print(platform.python_version())')"
forky_version="${AQUAVATE_FORKY_PYTHON:-3.14.8}"
if [ -x "$cache/forky-root/usr/bin/python3" ]; then
    forky_version="$(chroot "$cache/forky-root" /usr/bin/python3 -c 'import platform; print(platform.python_version())')"
fi

# The releases PyPI has for a Python version, newest first (pip's own index query).
available() {
    "$host_python" -m pip index versions homeassistant --python-version "$1" --only-binary :all: 2>/dev/null \
        | sed -n 's/^Available versions: //p' | tr -d ' ' | tr ',' '\n' | grep -E '^[0-9]+\.[0-9]+\.[0-9]+$'
}
on_host="$(available "$host_version")"
on_forky="$(available "$forky_version")"
[ -n "$on_forky" ] || { echo "home-assistant-bump: PyPI gave no releases" >&2; exit 1; }
all="$(printf '%s\n%s\n' "$on_host" "$on_forky" | sort -u -V -r)"

out="$(mktemp)"
changed=0
while IFS= read -r line; do
    read -r role version python forms <<< "$line" || true
    case "$role" in ''|'#'*) echo "$line" >> "$out"; continue ;; esac
    if [ "$role" = newest ]; then
        new="$(echo "$all" | head -1)"
    else
        series="${version%.*}"
        new="$(echo "$all" | grep -F "$series." | grep -E "^${series//./\\.}\.[0-9]+$" | head -1)"
        new="${new:-$version}"
    fi
    if echo "$on_host" | grep -qxF "$new"; then runtime=host; else runtime=forky; fi
    if [ "$new" != "$version" ] || [ "$runtime" != "$python" ]; then
        echo "$role: $version ($python) -> $new ($runtime)"
        changed=1
    fi
    printf '%-9s %-10s %-7s %s\n' "$role" "$new" "$runtime" "$forms" >> "$out"
done < "$file"
if [ "${1:-}" = "--check" ]; then
    rm -f "$out"
    [ "$changed" -eq 0 ] && echo "home-assistant-bump: up to date (host Python $host_version, forky $forky_version)"
    exit "$changed"
fi
mv "$out" "$file"
[ "$changed" -eq 0 ] && echo "home-assistant-bump: up to date (host Python $host_version, forky $forky_version)"
exit 0
