#!/usr/bin/env bash
# The Debian package as a Raspberry Pi owner installs it, on the test bed booted under systemd
# (image.sh --variant systemd: systemd as PID 1, the real bluetoothd 5.66 from its own unit, BlueZ's
# blanket D-Bus rule removed, a bottle with a backlog on an emulated LE link). The steps are those of
# guest/package_scenario.py: install offline, the first start, `setup --yes`, restart, `doctor
# --service`, `status`, the service's user and privileges, `apt remove` / `apt install`, `apt purge`,
# an upgrade from an earlier package, the journal.
#
#   scripts/real-bluez/package.sh --deb FILE --results DIR [--earlier FILE] [--time-limit S]
#
# FILE is the package under test (`make deb`). The upgrade starts from --earlier; without it, from
# FILE itself repacked with a lower version (<version>~earlier): the same files, so the upgrade
# checks what dpkg and the maintainer scripts do to an installed, set-up bridge. DIR, shared with
# the guest over 9p, receives package.json (per step: what it checks, passed, why not, figures),
# commands.log (every command and its output), journal.txt (the boot's journal) and guest.log. The
# exit status is 0 when every step passed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
deb= earlier= results= limit=900
while [[ $# -gt 0 ]]; do
    case $1 in
        --deb) deb=$2; shift 2 ;;
        --earlier) earlier=$2; shift 2 ;;
        --results) results=$2; shift 2 ;;
        --time-limit) limit=$2; shift 2 ;;
        *) echo "package.sh: unknown argument $1 (see its header)" >&2; exit 2 ;;
    esac
done
[[ -n $deb && -f $deb ]] || { echo "package.sh: --deb FILE (a .deb) is needed" >&2; exit 2; }
[[ -n $results ]] || { echo "package.sh: --results DIR is needed" >&2; exit 2; }

image=$("$here/image.sh" --variant systemd | tail -1)
mkdir -p "$results"
results=$(cd "$results" && pwd)
rm -f "$results/package.json" "$results/commands.log"

source "$here/boot.sh"
boot_stage
packages=$stage/root/aquavate/packages
mkdir -p "$packages/current" "$packages/earlier" "$stage/root/etc/systemd/system/multi-user.target.wants"
cp "$deb" "$packages/current/"
if [[ -n $earlier ]]; then
    cp "$earlier" "$packages/earlier/"
else
    dpkg-deb -R "$deb" "$stage/repack"
    version=$(dpkg-deb -f "$deb" Version)
    sed -i "s/^Version: .*/Version: $version~earlier/" "$stage/repack/DEBIAN/control"
    dpkg-deb --root-owner-group -Zgzip -z1 -b "$stage/repack" "$packages/earlier/" > /dev/null
    rm -rf "$stage/repack"
fi
install -m 0755 "$here/guest/systemd-init" "$stage/root/init"
cp "$here/guest/package_scenario.py" "$here/guest/harness.py" "$here/guest/bottle.py" "$here/guest/radio.py" "$stage/root/aquavate/"
cp "$here/guest/aquavate-package-scenario.service" "$stage/root/etc/systemd/system/"
ln -s ../aquavate-package-scenario.service "$stage/root/etc/systemd/system/multi-user.target.wants/"
# 2 GB: the root lives in RAM, and two packages of a 66 MB binary are unpacked into it.
boot_vm package.sh "$image" 2048 "$limit" "$results" systemd.show_status=0
