#!/usr/bin/env bash
# Narrows every declaration outside the library product (AquavateProtocol) from `public` to
# `package`, in Sources/, Tests/ and Benchmarks/: only AquavateProtocol is another program's API,
# the rest is seen by this package alone. Idempotent: run it after a merge that brought new
# `public` declarations; ArchitectureTests (PackageAccessTests) fails until it has run.
#
#   scripts/package-access.sh            # rewrite in place, print how many declarations changed
#   scripts/package-access.sh --check    # rewrite nothing; list what is left, exit 1 if anything
#
# The rules (what counts as a declaration's `public`, what is left alone) are in
# scripts/package-access.py.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
case "${1:-}" in
    -h|--help) sed -n '2,11p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac
exec python3 "$here/package-access.py" "$@" "$here/.."
