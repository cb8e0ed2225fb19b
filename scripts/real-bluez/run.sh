#!/usr/bin/env bash
# Boots the test bed (image.sh's image, made first if it is not cached) under QEMU and runs the
# scenarios of guest/scenarios.py inside, against the release bridge given: the real bluetoothd and
# Linux Bluetooth stack, the bottles on an emulated LE link. docs/bluez.md 8 says what it shows.
#
#   scripts/real-bluez/run.sh --bridge BIN --results DIR [--time-limit S] [SCENARIO...]
#
# BIN is copied stripped into the boot's second archive (a 95 MB binary read over 9p took 16 s to
# start under the emulated CPU; from RAM it starts at once). DIR is shared with the guest over 9p:
# it receives results.json (one entry per scenario: what it checks, passed, why not, its figures),
# guest.log, bluetoothd.log (bluetoothd -d), a btmon capture per scenario (NAME.btsnoop) and each scenario's bridge output. The
# exit status is 0 when every scenario passed.
#
# The boot itself (QEMU, the archive over the image's) is boot.sh's, shared with package.sh.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bridge= results= limit=900 scenarios=()
while [[ $# -gt 0 ]]; do
    case $1 in
        --bridge) bridge=$2; shift 2 ;;
        --results) results=$2; shift 2 ;;
        --time-limit) limit=$2; shift 2 ;;
        -*) echo "run.sh: unknown option $1 (see its header)" >&2; exit 2 ;;
        *) scenarios+=("$1"); shift ;;
    esac
done
[[ -n $bridge && -x $bridge ]] || { echo "run.sh: --bridge BIN (an executable) is needed" >&2; exit 2; }
[[ -n $results ]] || { echo "run.sh: --results DIR is needed" >&2; exit 2; }

image=$("$here/image.sh" | tail -1)
mkdir -p "$results"
results=$(cd "$results" && pwd)
rm -f "$results/results.json"
printf '%s\n' "${scenarios[@]}" > "$results/scenarios"

source "$here/boot.sh"
boot_stage
mkdir -p "$stage/root/aquavate"
strip -o "$stage/root/aquavate/aquavate-bridge" "$bridge"
install -m 0755 "$here/guest/init" "$stage/root/init"
cp "$here"/guest/*.py "$stage/root/aquavate/"
boot_vm run.sh "$image" 1024 "$limit" "$results"
