#!/usr/bin/env bash
# A real Home Assistant for Tests/EndToEndTests/HomeAssistant: a pinned `homeassistant` from PyPI in a
# cached virtual environment, with the Python packages of the few integrations the test loads
# (mqtt, recorder, frontend … and what they depend on) installed up front, so Home Assistant runs
# with --skip-pip and never installs anything at start. Prints the venv's python on its last line.
#
#   scripts/home-assistant-env.sh [VERSION]      default 2025.1.4
#
# The cache: $AQUAVATE_HA_CACHE (default ~/.cache/aquavate-home-assistant)/<VERSION>; a venv is
# reused only when its marker says it was completed for the same version and integrations.
# Python: $AQUAVATE_HA_PYTHON, else pyenv's 3.12, else python3.12/python3.13 on the PATH
# (Home Assistant 2025.1 needs 3.12 or 3.13; Debian 12's python3 is 3.11).
set -euo pipefail
version="${1:-2025.1.4}"
cache="${AQUAVATE_HA_CACHE:-$HOME/.cache/aquavate-home-assistant}"
venv="$cache/$version"
integrations="mqtt recorder frontend http api websocket_api onboarding auth config person logger history"
# The frontend's service descriptions import camera (and so stream) whatever is configured:
# without these its "Loading data" never ends (websocket get_services fails).
extra="numpy PyTurboJPEG"
marker="$venv/.aquavate-complete"
want="$version $integrations $extra josepy<2"

if [ -f "$marker" ] && [ "$(cat "$marker")" = "$want" ] && [ -x "$venv/bin/python" ]; then
    echo "$venv/bin/python"
    exit 0
fi

python="${AQUAVATE_HA_PYTHON:-}"
if [ -z "$python" ]; then
    for candidate in /root/.pyenv/versions/3.12.*/bin/python3 "$(command -v python3.12 || true)" "$(command -v python3.13 || true)"; do
        if [ -n "$candidate" ] && [ -x "$candidate" ]; then python="$candidate"; break; fi
    done
fi
if [ -z "$python" ]; then
    echo "home-assistant-env: no Python 3.12 or 3.13 (set AQUAVATE_HA_PYTHON)" >&2
    exit 1
fi

rm -rf "$venv"
mkdir -p "$cache"
"$python" -m venv "$venv" >&2
"$venv/bin/python" -m pip install --quiet --upgrade pip >&2
# Home Assistant first without its dependencies, for its package_constraints.txt: pip alone
# backtracks for many minutes through unpinned versions (building old sdists) without it.
"$venv/bin/python" -m pip install --quiet --no-deps "homeassistant==$version" >&2
constraints="$("$venv/bin/python" -c 'import homeassistant, pathlib; print(pathlib.Path(homeassistant.__file__).parent / "package_constraints.txt")')"

# The integrations' requirements, from their manifests (dependencies followed), pinned by the
# same constraints, as Home Assistant's runtime installer would.
requirements="$venv/integration-requirements.txt"
"$venv/bin/python" - "$integrations" > "$requirements" <<'PY'
import json, pathlib, sys
import homeassistant
components = pathlib.Path(homeassistant.__file__).parent / "components"
todo, seen, wanted = list(sys.argv[1].split()), set(), []
while todo:
    name = todo.pop()
    if name in seen:
        continue
    seen.add(name)
    manifest = components / name / "manifest.json"
    if not manifest.exists():
        continue
    data = json.loads(manifest.read_text())
    wanted += data.get("requirements", [])
    todo += data.get("dependencies", []) + data.get("after_dependencies", [])
for requirement in sorted(set(wanted)):
    print(requirement)
PY
printf '%s\n' $extra >> "$requirements"
# Pins its constraints do not make that later releases broke: josepy 2 dropped ComparableX509,
# which the acme of Home Assistant before 2025 (through hass_nabucasa) imports at start.
late="$venv/late-constraints.txt"
printf 'josepy<2\n' > "$late"
"$venv/bin/python" -m pip install --quiet "homeassistant==$version" -r "$requirements" -c "$constraints" -c "$late" >&2
echo "$want" > "$marker"
echo "$venv/bin/python"
