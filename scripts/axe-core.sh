#!/usr/bin/env bash
# axe-core (Deque's accessibility engine) for the browser tests (Tests/EndToEndTests/BrowserTests.swift): its axe.min.js as the
# pinned PyPI wheel of axe-playwright-python carries it (axe-core 4.12.1), checked against the
# wheel's SHA-256 and cached. Nothing from npm; no Python packages are installed (the wheel is only
# unpacked; the venv that downloads it is thrown away). Prints the path of axe.min.js on its last line.
#
#   scripts/axe-core.sh
#
# The cache: $AQUAVATE_AXE_CACHE (default ~/.cache/aquavate-axe)/<wheel version>.
set -euo pipefail
version="0.1.8"
sha256="fdd263c998388f1a8e67cad02677e612d946248bd44d163be5e8650ea31f95f8"
cache="${AQUAVATE_AXE_CACHE:-$HOME/.cache/aquavate-axe}/$version"
script="$cache/axe.min.js"
if [ -s "$script" ] && [ "$(cat "$cache/.wheel-sha256" 2>/dev/null)" = "$sha256" ]; then
    echo "$script"
    exit 0
fi
mkdir -p "$cache"
download="$(mktemp -d)"
trap 'rm -rf "$download"' EXIT
# pip from a throwaway venv (python3-venv, which install-deps.sh installs): Debian's python3 has none.
python3 -m venv "$download/venv" >&2
"$download/venv/bin/python" -m pip download --quiet --no-deps --only-binary=:all: --dest "$download" "axe-playwright-python==$version" >&2
wheel="$(ls "$download"/axe_playwright_python-"$version"-*.whl)"
echo "$sha256  $wheel" | sha256sum --check --quiet >&2
python3 - "$wheel" "$script.part" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as wheel, open(sys.argv[2], "wb") as out:
    out.write(wheel.read("axe_playwright_python/axe.min.js"))
PY
mv "$script.part" "$script"
echo "$sha256" > "$cache/.wheel-sha256"
echo "$script"
