#!/usr/bin/env bash
# Installs aquavate-bridge as a system service (Raspberry Pi, or any systemd Linux with BlueZ).
#
#   make build && sudo make install               build as yourself, install as root
#   sudo scripts/install.sh --no-build BIN=FILE   install an already built binary
#   scripts/install.sh --no-build BIN=FILE DESTDIR=/tmp/stage   stage the files only (no root needed)
#
# Options (also as environment variables or VAR=value arguments, like make):
#   PREFIX=/usr/local  where bin/aquavate-bridge and share/doc/aquavate-bridge go
#   DESTDIR=           staging root; when set, nothing outside it is touched: no user is
#                      created, no service is reloaded, enabled or started
#   BIN=               the binary to install (implies --no-build)
#   SCRATCH=.build     SwiftPM scratch folder for the build
#   --no-build         do not build; BIN, else $SCRATCH/release/aquavate-bridge, is installed
#   --no-start         install and enable, but do not (re)start the service
#   --build-as-root    build even when run as root (refused otherwise: the build would run
#                      SwiftPM and its package plugins as root and leave root-owned files in
#                      the source tree)
#
# Idempotent: running it again gives the same files and no errors. A config file that already
# exists (/etc/aquavate/bridge.toml) is never overwritten. Undo with scripts/uninstall.sh.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PREFIX="${PREFIX:-/usr/local}"
DESTDIR="${DESTDIR:-}"
BIN="${BIN:-}"
SCRATCH="${SCRATCH:-.build}"
build=yes
start=yes
build_as_root=no

usage() { sed -n '2,21p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }
fail() { echo "install.sh: $*" >&2; exit 1; }

for argument in "$@"; do
    case "$argument" in
        --no-build) build=no ;;
        --no-start) start=no ;;
        --build-as-root) build_as_root=yes ;;
        -h|--help) usage; exit 0 ;;
        PREFIX=*) PREFIX="${argument#PREFIX=}" ;;
        DESTDIR=*) DESTDIR="${argument#DESTDIR=}" ;;
        BIN=*) BIN="${argument#BIN=}" ;;
        SCRATCH=*) SCRATCH="${argument#SCRATCH=}" ;;
        *) fail "unknown argument '$argument'; see --help" ;;
    esac
done
# shellcheck source=scripts/destination.sh
source "$(dirname "$0")/destination.sh"
# shellcheck source=scripts/payload.sh
source "$(dirname "$0")/payload.sh"
check_destination "installing into the system" "or set DESTDIR=/some/folder to stage the files"

# --- the binary -------------------------------------------------------------------------------
if [[ -n "$BIN" ]]; then
    build=no
elif [[ $build == yes ]]; then
    if [[ $EUID -eq 0 && $build_as_root == no ]]; then
        fail "will not build as root: build as yourself first (make build), then install with sudo make install (or pass --build-as-root)"
    fi
    command -v swift >/dev/null || fail "swift is not on the PATH (as root, sudo resets PATH: build first with 'make build', then 'sudo make install')"
    echo "building aquavate-bridge (release: scripts/release-build.sh) ..."
    (cd "$here" && scripts/release-build.sh --scratch-path "$SCRATCH")
    BIN="$here/$SCRATCH/release/aquavate-bridge"
else
    BIN="$here/$SCRATCH/release/aquavate-bridge"
fi
[[ -f "$BIN" ]] || fail "no binary at $BIN; build it first (make build) or give BIN=FILE"

# --- files ------------------------------------------------------------------------------------
bindir="$DESTDIR$PREFIX/bin"
docdir="$DESTDIR$PREFIX/share/doc/aquavate-bridge"
unitdir="$DESTDIR/etc/systemd/system"
rulesdir="$DESTDIR/etc/udev/rules.d"
policydir="$DESTDIR/etc/dbus-1/system.d"
configdir="$DESTDIR/etc/aquavate"

# The service user comes first, so that the D-Bus policy naming it loads cleanly. It needs no
# supplementary group: the policy names it. The bluetooth group is the policy's for people who
# run the bridge by hand (usermod -aG bluetooth YOU).
if [[ $real_install == yes ]]; then
    getent group bluetooth >/dev/null || groupadd --system bluetooth
    if ! getent passwd aquavate >/dev/null; then
        useradd --system --user-group --home-dir /var/lib/aquavate-bridge --no-create-home \
            --shell /usr/sbin/nologin --comment "aquavate-bridge service" aquavate
        echo "created the system user aquavate (group: aquavate)"
    else
        # An existing account is adopted only if it is a system account: a person's account
        # named aquavate would otherwise run the service and own its history.
        uid="$(id -u aquavate)"
        sys_uid_max="$(awk '$1 == "SYS_UID_MAX" { print $2 }' /etc/login.defs 2>/dev/null)"
        [[ "$uid" -le "${sys_uid_max:-999}" ]] \
            || fail "a user named aquavate already exists and is not a system account (UID $uid > ${sys_uid_max:-999}): rename or remove it (userdel aquavate), then run this again"
    fi
fi

install -d -m 0755 "$bindir" "$docdir" "$unitdir" "$rulesdir" "$policydir" "$configdir"
# Copy to a temporary name, then rename: replacing a running binary in place fails (ETXTBSY).
install -m 0755 "$BIN" "$bindir/.aquavate-bridge.new"
mv -f "$bindir/.aquavate-bridge.new" "$bindir/aquavate-bridge"
# The unit names the binary by its installed path.
payload_unit_for "$PREFIX" "$here" > "$unitdir/.aquavate-bridge.service.new"
chmod 0644 "$unitdir/.aquavate-bridge.service.new"
mv -f "$unitdir/.aquavate-bridge.service.new" "$unitdir/aquavate-bridge.service"
install -m 0644 "$here/$payload_udev_rule" "$rulesdir/$(basename "$payload_udev_rule")"
install -m 0644 "$here/$payload_dbus_policy" "$policydir/$(basename "$payload_dbus_policy")"
for doc in "${payload_docs[@]}"; do install -m 0644 "$here/$doc" "$docdir/$(basename "$doc")"; done

# The config may hold push.token: readable by root and the service's group only.
config="$configdir/bridge.toml"
if [[ -e "$config" ]]; then
    echo "kept the existing $config"
else
    install -m 0640 "$here/$payload_config" "$config.new"
    if [[ $real_install == yes ]]; then chown root:aquavate "$config.new"; fi
    mv "$config.new" "$config"
    echo "wrote the default $config"
fi

echo "installed: $bindir/aquavate-bridge, $unitdir/aquavate-bridge.service,"
echo "           $rulesdir/90-aquavate-bridge.rules, $policydir/aquavate-bridge.conf, $docdir/raspberry-pi.md"
[[ $real_install == yes ]] || exit 0

# --- activate (real install only) ------------------------------------------------------------
if command -v udevadm >/dev/null && [[ -d /run/udev ]]; then
    udevadm control --reload || echo "install.sh: udevadm control --reload failed; the rules apply after a reboot" >&2
    # Apply the autosuspend rule to dongles already plugged in.
    udevadm trigger --action=add --subsystem-match=usb --attr-match=bDeviceClass=e0 || true
    udevadm trigger --action=add --subsystem-match=usb --attr-match=bInterfaceClass=e0 || true
fi
if [[ -d /run/systemd/system ]]; then
    systemctl reload dbus.service 2>/dev/null || systemctl reload dbus-broker.service 2>/dev/null \
        || echo "install.sh: could not reload D-Bus; the policy applies after a reboot" >&2
    systemctl daemon-reload
    systemctl enable aquavate-bridge.service
    if [[ $start == yes ]]; then
        systemctl restart aquavate-bridge.service
        echo "started aquavate-bridge.service (logs: journalctl -u aquavate-bridge -f)"
    fi
else
    echo "systemd is not running here: enable the service later with: systemctl enable --now aquavate-bridge"
fi
echo "check the installation: sudo -u aquavate $PREFIX/bin/aquavate-bridge doctor --service"
