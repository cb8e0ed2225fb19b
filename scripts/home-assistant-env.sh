#!/usr/bin/env bash
# A real Home Assistant for Tests/EndToEndTests/HomeAssistant: a pinned `homeassistant` from PyPI in a
# cached virtual environment, with the Python packages of the few integrations the test loads
# (mqtt, recorder, frontend … and what they depend on) installed up front, so Home Assistant runs
# with --skip-pip and never installs anything at start. Prints the environment's python on its
# last line.
#
#   scripts/home-assistant-env.sh [VERSION]      default: the newest of scripts/home-assistant-versions
#
# The Python is the one scripts/home-assistant-versions gives the release:
# - host: $AQUAVATE_HA_PYTHON, else pyenv's 3.12, else python3.12/python3.13 on the PATH (Debian
#   12's python3 is 3.11, too old from 2024.2 on);
# - forky: Debian forky's (3.14), for a release that needs a newer Python than this machine has
#   (2026.3 and later need 3.14.2). A Debian forky root is made once with debootstrap from
#   $AQUAVATE_DEBIAN_MIRROR (default http://deb.debian.org/debian), with gcc for the dependencies
#   that have no wheel for 3.14, and the host's pip.conf and CA bundle so that pip reaches PyPI
#   as the host's does. The venv lives inside the root; the python printed is a small script
#   that runs the venv's python there (a mount namespace of its own, chroot), with the host's
#   temp dir at the same path inside, so that the test's paths mean the same in and out. Needs
#   root (CI is root), no container.
#
# The cache: $AQUAVATE_HA_CACHE (default ~/.cache/aquavate-home-assistant)/<VERSION> (and
# forky-root); each is reused only when its marker says it was completed for the same contents.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
releases="$here/home-assistant-versions"
version="${1:-$(awk '$1 == "newest" { print $2 }' "$releases")}"
runtime="$(awk -v v="$version" '!/^#/ && $2 == v { print $3 }' "$releases")"
runtime="${runtime:-host}"
cache="${AQUAVATE_HA_CACHE:-$HOME/.cache/aquavate-home-assistant}"
venv="$cache/$version"
integrations="mqtt recorder frontend http api websocket_api onboarding auth config person logger history"
# From 2026 on, Home Assistant sets up conversation, the voice pipeline and infrared whatever is
# configured, and the frontend's service descriptions import them (the entity features their
# services.yaml name): without their packages its websocket get_services fails and the frontend
# never ends "Loading".
[ "${version%%.*}" -ge 2026 ] && integrations="$integrations conversation ffmpeg tts assist_pipeline infrared radio_frequency"
# The frontend's service descriptions import camera (and so stream) whatever is configured:
# without these its "Loading data" never ends (websocket get_services fails).
extra="numpy PyTurboJPEG"
# Pins its constraints do not make that later releases broke: josepy 2 dropped ComparableX509,
# which the acme of Home Assistant before 2025 (through hass_nabucasa) imports at start; from
# 2025 on, Home Assistant needs josepy 2.
late_pins=""
[ "${version%%.*}" -lt 2025 ] && late_pins="josepy<2"
marker="$venv/.aquavate-complete"
want="$version $integrations $extra $late_pins"

root="$cache/forky-root"
# python3-dev, gcc and g++: sdists without a 3.14 wheel (pymicro-vad and pyspeex-noise are C++);
# libturbojpeg0 for PyTurboJPEG (above).
root_packages="python3,python3-venv,python3-dev,gcc,g++,libc6-dev,ca-certificates,tzdata,libturbojpeg0"
root_want="forky $root_packages"
# Where the venv is inside the root.
inside="/opt/aquavate-home-assistant/$version"
[ "$runtime" = forky ] && want="$want forky $inside"

if [ -f "$marker" ] && [ "$(cat "$marker")" = "$want" ] && [ -x "$venv/bin/python" ] \
    && { [ "$runtime" != forky ] || [ "$(cat "$root/.aquavate-complete" 2>/dev/null)" = "$root_want" ]; }; then
    echo "$venv/bin/python"
    exit 0
fi

# A command inside the forky root: its own mount namespace (gone with its last process), the
# host's /dev, a /proc, and the host's temp dir at the same path; the same process throughout
# (unshare and chroot exec), so that a signal to it reaches the command.
in_root() {
    unshare --mount /bin/sh -c '
        root=$1 tmp=$2; shift 2
        mkdir -p "$root$tmp" && mount --rbind "$tmp" "$root$tmp" && mount --rbind /dev "$root/dev" \
            && mount -t proc proc "$root/proc" || exit 125
        exec chroot "$root" "$@"' sh "$root" "${TMPDIR:-/tmp}" "$@"
}

make_root() {
    local partial="$root.partial"
    rm -rf "$partial"
    mkdir -p "$cache"
    local mirror="${AQUAVATE_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
    # forky has no script of its own in bookworm's debootstrap: it is made as sid is.
    debootstrap --variant=minbase --include="$root_packages" forky "$partial" "$mirror" /usr/share/debootstrap/scripts/sid >&2
    cp /etc/resolv.conf "$partial/etc/resolv.conf"
    [ -f /etc/pip.conf ] && cp /etc/pip.conf "$partial/etc/pip.conf"
    local bundle="${PIP_CERT:-/etc/ssl/certs/ca-certificates.crt}"
    if [ -f "$bundle" ]; then mkdir -p "$partial$(dirname "$bundle")"; cp "$bundle" "$partial$bundle"; fi
    echo "$root_want" > "$partial/.aquavate-complete"
    rm -rf "$root"
    mv "$partial" "$root"
}

rm -rf "$venv"
mkdir -p "$venv/bin"
if [ "$runtime" = forky ]; then
    if [ "$(cat "$root/.aquavate-complete" 2>/dev/null)" != "$root_want" ]; then make_root; fi
    rm -rf "${root:?}$inside"
    in_root /usr/bin/python3 -m venv "$inside" >&2
    run_python() { in_root "$inside/bin/python" "$@"; }
    host_path() { echo "$root$1"; }
    work="$inside"
else
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
    "$python" -m venv "$venv" >&2
    run_python() { "$venv/bin/python" "$@"; }
    host_path() { echo "$1"; }
    work="$venv"
fi

run_python -m pip install --quiet --upgrade pip >&2
# Home Assistant first without its dependencies, for its package_constraints.txt: pip alone
# backtracks for many minutes through unpinned versions (building old sdists) without it.
run_python -m pip install --quiet --no-deps "homeassistant==$version" >&2
# Found without importing it: from 2026 on, its __init__ imports dependencies not installed yet.
package="$(run_python -c 'import importlib.util; print(importlib.util.find_spec("homeassistant").submodule_search_locations[0])')"
constraints="$package/package_constraints.txt"

# The integrations' requirements, from their manifests (dependencies followed), pinned by the
# same constraints, as Home Assistant's runtime installer would.
requirements="$work/integration-requirements.txt"
run_python - "$package" "$integrations" > "$(host_path "$requirements")" <<'PY'
import json, pathlib, sys
components = pathlib.Path(sys.argv[1]) / "components"
todo, seen, wanted = list(sys.argv[2].split()), set(), []
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
printf '%s\n' $extra >> "$(host_path "$requirements")"
late="$work/late-constraints.txt"
printf '%s\n' $late_pins > "$(host_path "$late")"
run_python -m pip install --quiet "homeassistant==$version" -r "$requirements" -c "$constraints" -c "$late" >&2

if [ "$runtime" = forky ]; then
    # What the tests run: the venv's python inside the root, as in_root runs it.
    cat > "$venv/bin/python" <<EOF
#!/bin/sh
# Home Assistant $version's Python: $inside in the Debian forky root $root
# (scripts/home-assistant-env.sh), with this machine's temp dir at the same path inside.
exec unshare --mount /bin/sh -c '
    root=\$1 tmp=\$2; shift 2
    mkdir -p "\$root\$tmp" && mount --rbind "\$tmp" "\$root\$tmp" && mount --rbind /dev "\$root/dev" \\
        && mount -t proc proc "\$root/proc" || exit 125
    exec chroot "\$root" "\$@"' sh "$root" "\${TMPDIR:-/tmp}" "$inside/bin/python" "\$@"
EOF
    chmod +x "$venv/bin/python"
fi
echo "$want" > "$marker"
echo "$venv/bin/python"
