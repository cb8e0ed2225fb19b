#!/usr/bin/env bash
# The test bed's VM image, built once and cached: Debian 12's kernel and a Debian 12 root that runs
# from RAM (an uncompressed newc initramfs), with the real BlueZ (bluetoothd, btmon, btmgmt), D-Bus,
# Python 3 and Google's Bumble, which emulates the Bluetooth controllers on both ends of a virtual LE
# link. docs/bluez.md 8 says what the test bed is for; scripts/real-bluez/run.sh boots it.
#
#   scripts/real-bluez/image.sh [--variant NAME]      prints the image's folder on its last line
#
# The folder holds `vmlinuz` and `root.cpio`. The root has no /init: a boot appends a second archive
# to root.cpio with its /init and its programs (run.sh), which the kernel unpacks over the first, so
# that a change to a scenario never rebuilds the image.
#
# Variants share every step but the package list: `plain` (this suite: no init system, the /init of
# scripts/real-bluez/guest starts D-Bus and bluetoothd itself). A variant booted under systemd adds
# its packages (systemd-sysv, ...) to `variant_packages` and brings an /init that execs systemd.
# `systemd` (scripts/real-bluez/package.sh: the Debian package as a Pi owner installs it) is booted
# so: systemd as PID 1, apt, sudo, and every library the package depends on already installed,
# so that `apt install ./aquavate-bridge_*.deb` works offline; BlueZ's own D-Bus policy lost its
# rule that lets every user call org.bluez (as distributions that keep BlueZ to a group have it),
# so that the bridge may call BlueZ only through its own policy.
#
# Why each part is as it is:
#   - the kernel comes from Debian's own package (apt-get download, dpkg-deb -x: nothing installed
#     on the host) and only the modules the test bed loads are kept, with their dependencies read
#     from each module's own `depends=` (the host needs no kmod); depmod runs inside the root;
#   - the root is debootstrap's minbase plus what the scenarios run; documentation, manuals and
#     locales are dropped (the archive is read into the guest's RAM at every boot);
#   - Bumble comes from PyPI as wheels that the host's pip downloads for the guest's Python (3.11,
#     manylinux x86-64) and installs offline into the root: pip inside the guest has no network.
#     The version is pinned so that its controller emulation, which bottle.py patches, is the one
#     the patches were written against;
#   - Python's bytecode is compiled in the root beforehand: under QEMU's emulated CPU, compiling
#     Bumble at every start would cost seconds.
#
# The cache: $AQUAVATE_REAL_BLUEZ_CACHE (default ~/.cache/aquavate-real-bluez)/<variant>-<key>, the
# key a hash of this script and the versions it pins; an image is reused only once its marker says
# it was completed.
set -euo pipefail
variant=plain
while [[ $# -gt 0 ]]; do
    case $1 in
        --variant) variant=$2; shift 2 ;;
        *) echo "image.sh: unknown argument $1 (see its header)" >&2; exit 2 ;;
    esac
done

suite=bookworm
mirror=http://deb.debian.org/debian
bumble_version=0.0.236
guest_python=3.11
# The bridge's shared libraries (libbluetooth3, libsqlite3-0, libdbus-1-3, libsystemd0: what the
# Debian package depends on) besides BlueZ, D-Bus and Python.
base_packages=bluez,dbus,python3,kmod,procps,libbluetooth3,libsqlite3-0,libdbus-1-3,libsystemd0
case $variant in
    plain) variant_packages= ;;
    # The package's Depends: (dpkg-deb -f dist/aquavate-bridge_*.deb Depends) beyond base_packages.
    systemd) variant_packages=systemd,systemd-sysv,sudo,libcurl4,libmosquitto1,libgcc-s1,libstdc++6,zlib1g ;;
    *) echo "image.sh: unknown variant $variant" >&2; exit 2 ;;
esac
# The modules the test bed loads: the virtual controller, the 9p share for results, the crypto
# the Bluetooth core asks for at load (SMP's self-test).
modules=(hci_vhci virtio_pci 9pnet_virtio 9p cmac ccm ecb ecdh_generic)

kernel_package=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-[0-9]/{print $2; exit}')
if [[ -z $kernel_package ]]; then
    echo "image.sh: apt-cache knows no linux-image-amd64 (run apt-get update)" >&2; exit 1
fi
kernel_version=$(apt-cache policy "$kernel_package" | awk '/Candidate:/{print $2}')
key=$( { cat "$0"; echo "$kernel_package $kernel_version $variant_packages"; } | sha256sum | cut -c1-12)
cache=${AQUAVATE_REAL_BLUEZ_CACHE:-$HOME/.cache/aquavate-real-bluez}
image=$cache/$variant-$key
marker=$image/.complete
if [[ -f $marker && -f $image/vmlinuz && -f $image/root.cpio ]]; then
    echo "$image"; exit 0
fi

started=$SECONDS
mkdir -p "$cache"
work=$(mktemp -d "$cache/work.XXXXXX")
trap 'rm -rf "$work"' EXIT
root=$work/root
say() { echo "image.sh: $* ($((SECONDS - started)) s)" >&2; }

# The kernel and its modules.
(cd "$work" && apt-get download "$kernel_package" > /dev/null 2>&1) \
    || { echo "image.sh: apt-get download $kernel_package failed" >&2; exit 1; }
dpkg-deb -x "$work"/linux-image-*.deb "$work/kernel"
say "kernel $kernel_package $kernel_version unpacked"

# The root. debootstrap and the Bumble download run side by side: one waits on the network, the
# other mostly on dpkg.
packages=$base_packages${variant_packages:+,$variant_packages}
debootstrap --variant=minbase --include="$packages" "$suite" "$root" "$mirror" > "$work/debootstrap.log" 2>&1 &
debootstrap_pid=$!
python3 -m venv "$work/pip" > /dev/null
"$work/pip/bin/python" -m pip download --quiet --disable-pip-version-check --only-binary=:all: \
    --python-version "$guest_python" --implementation cp \
    --platform manylinux2014_x86_64 --platform manylinux_2_17_x86_64 --platform manylinux_2_28_x86_64 \
    --dest "$work/wheels" "bumble==$bumble_version" >&2
say "Bumble $bumble_version downloaded ($(ls "$work/wheels" | wc -l) wheels)"
if ! wait "$debootstrap_pid"; then
    echo "image.sh: debootstrap failed; its last lines:" >&2; tail -20 "$work/debootstrap.log" >&2; exit 1
fi
say "debootstrap $suite done"

"$work/pip/bin/python" -m pip install --quiet --disable-pip-version-check --no-index \
    --find-links "$work/wheels" --only-binary=:all: --python-version "$guest_python" --implementation cp \
    --platform manylinux2014_x86_64 --platform manylinux_2_17_x86_64 --platform manylinux_2_28_x86_64 \
    --target "$root/usr/local/lib/python$guest_python/dist-packages" "bumble==$bumble_version" >&2
chroot "$root" python3 -m compileall -q -j 0 /usr/local/lib/python$guest_python/dist-packages /usr/lib/python$guest_python > /dev/null || true

kver=$(ls "$work/kernel/lib/modules")
python3 - "$work/kernel/lib/modules/$kver/kernel" "$root/lib/modules/$kver/kernel" "${modules[@]}" <<'PY'
import os, re, shutil, sys
source, target, wanted = sys.argv[1], sys.argv[2], sys.argv[3:]
index = {}
for folder, _, files in os.walk(source):
    for name in files:
        if name.endswith(".ko"):
            index[name[:-3].replace("-", "_")] = os.path.join(folder, name)
done, todo = set(), list(wanted)
while todo:
    name = todo.pop()
    if name in done:
        continue
    if name not in index:
        sys.exit(f"image.sh: the kernel has no module {name}")
    done.add(name)
    data = open(index[name], "rb").read()
    found = re.search(rb"\0depends=([^\0]*)\0", data)
    todo += [d.replace("-", "_") for d in found.group(1).decode().split(",") if d] if found else []
    destination = os.path.join(target, os.path.relpath(index[name], source))
    os.makedirs(os.path.dirname(destination), exist_ok=True)
    shutil.copy(index[name], destination)
PY
cp "$work/kernel/lib/modules/$kver"/modules.{order,builtin,builtin.modinfo} "$root/lib/modules/$kver/"
chroot "$root" depmod "$kver"
say "$(find "$root/lib/modules" -name '*.ko' | wc -l) modules kept"

if [[ $variant == systemd ]]; then
    # BlueZ's blanket rule, <policy context="default"><allow send_destination="org.bluez"/>...: gone,
    # and checked gone, so that the package's own policy is the only way to BlueZ.
    python3 - "$root/etc/dbus-1/system.d/bluetooth.conf" <<'PY'
import re, sys
path = sys.argv[1]
text = open(path).read()
kept = re.sub(r'\s*<policy context="default">.*?</policy>', "", text, flags=re.S)
if kept == text or 'context="default"' in kept:
    sys.exit(f"image.sh: no <policy context=\"default\"> block to remove in {path}")
open(path, "w").write(kept)
PY
    # Nothing of the boot waits on a terminal or a network that the VM does not have.
    chroot "$root" systemctl mask serial-getty@ttyS0.service getty@tty1.service systemd-networkd-wait-online.service > /dev/null 2>&1 || true
    say "systemd variant: BlueZ's default policy removed"
fi

rm -rf "$root"/usr/share/{doc,man,info,locale,lintian} "$root"/var/cache/apt/* "$root"/var/lib/apt/lists/*

mkdir -p "$image"
cp "$work/kernel/boot/vmlinuz-$kver" "$image/vmlinuz.new"
(cd "$root" && find . -print0 | cpio --null -o -H newc --quiet) > "$image/root.cpio.new"
mv "$image/vmlinuz.new" "$image/vmlinuz"
mv "$image/root.cpio.new" "$image/root.cpio"
echo "$kernel_package $kernel_version bumble $bumble_version $(date -u +%FT%TZ)" > "$marker"
# Older images of this variant (another kernel, another version of this script) are not used again.
for old in "$cache/$variant"-*; do [[ $old != "$image" ]] && rm -rf "$old"; done
say "image $image: root.cpio $(du -m "$image/root.cpio" | cut -f1) MB"
echo "$image"
