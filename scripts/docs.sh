#!/usr/bin/env bash
# Builds the DocC documentation of the library modules that have a catalog
# (Sources/<Module>/Documentation.docc) with the toolchain's own docc: no package plugin, so a
# normal build compiles nothing extra. Unresolved ``links`` and other docc warnings fail it.
#
#   scripts/docs.sh [MODULE …]
#
# MODULE  a module with a catalog (default: every one). Each archive is written to
#         .build/docs/<MODULE>.doccarchive; open it with `docc preview` or serve its folder.
#
# The symbol graphs come from `swift package dump-symbol-graph` (a debug build, then the package
# symbols of every module into .build/<triple>/symbolgraph: only AquavateProtocol declares public
# ones, the other catalogs document the package's own API); each catalog is converted with its
# own module's graphs only. Needs docc next to swift (/opt/swift/usr/bin/docc) or DOCC=PATH.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
fail() { echo "docs.sh: $*" >&2; exit 1; }
case "${1:-}" in
    -h|--help) sed -n '2,14p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac
cd "$here"

docc="${DOCC:-$(dirname "$(command -v swift)")/docc}"
[[ -x "$docc" ]] || fail "no docc at $docc; give DOCC=PATH"

modules=("$@")
if [[ ${#modules[@]} -eq 0 ]]; then
    for catalog in Sources/*/Documentation.docc; do
        module="${catalog#Sources/}"
        modules+=("${module%/Documentation.docc}")
    done
fi
for module in "${modules[@]}"; do
    [[ -d "Sources/$module/Documentation.docc" ]] || fail "Sources/$module has no Documentation.docc"
done

swift package dump-symbol-graph --minimum-access-level package >/dev/null
graphs="$(swift build --show-bin-path)/../symbolgraph"
[[ -d "$graphs" ]] || fail "no symbol graphs in $graphs"

mkdir -p .build/docs
own="$(mktemp -d)"
trap 'rm -rf "$own"' EXIT
for module in "${modules[@]}"; do
    rm -f "$own"/*.symbols.json
    cp "$graphs/$module".symbols.json "$own/"
    cp "$graphs/$module"@*.symbols.json "$own/" 2>/dev/null || true
    "$docc" convert "Sources/$module/Documentation.docc" \
        --additional-symbol-graph-dir "$own" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "aquavate-bridge.$module" \
        --output-path ".build/docs/$module.doccarchive" \
        --analyze --warnings-as-errors
    echo "$module: .build/docs/$module.doccarchive"
done
