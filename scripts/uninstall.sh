#!/usr/bin/env bash
# Removes what scripts/install.sh installed.
#
#   sudo scripts/uninstall.sh             stop and disable the service, remove its files; keep the
#                                         drink history (/var/lib/aquavate-bridge), the config
#                                         (/etc/aquavate/bridge.toml) and the user aquavate
#   sudo scripts/uninstall.sh --purge     also remove the history, the config and the user
#   scripts/uninstall.sh DESTDIR=/tmp/stage   undo a staged install (nothing outside DESTDIR)
#
# PREFIX and DESTDIR as for install.sh (environment or VAR=value). Running it twice is fine.
set -euo pipefail

PREFIX="${PREFIX:-/usr/local}"
DESTDIR="${DESTDIR:-}"
purge=no

usage() { sed -n '2,11p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }
fail() { echo "uninstall.sh: $*" >&2; exit 1; }

for argument in "$@"; do
    case "$argument" in
        --purge) purge=yes ;;
        -h|--help) usage; exit 0 ;;
        PREFIX=*) PREFIX="${argument#PREFIX=}" ;;
        DESTDIR=*) DESTDIR="${argument#DESTDIR=}" ;;
        *) fail "unknown argument '$argument'; see --help" ;;
    esac
done
# shellcheck source=scripts/destination.sh
source "$(dirname "$0")/destination.sh"
check_destination "removing from the system" "or set DESTDIR for a staged install"

systemd_running=no
[[ $real_install == yes && -d /run/systemd/system ]] && systemd_running=yes
if [[ $systemd_running == yes ]]; then
    systemctl disable --now aquavate-bridge.service 2>/dev/null || true
fi

rm -f "$DESTDIR$PREFIX/bin/aquavate-bridge" \
      "$DESTDIR/etc/systemd/system/aquavate-bridge.service" \
      "$DESTDIR/etc/udev/rules.d/90-aquavate-bridge.rules" \
      "$DESTDIR/etc/dbus-1/system.d/aquavate-bridge.conf" \
      "$DESTDIR$PREFIX/share/doc/aquavate-bridge/raspberry-pi.md"
rmdir "$DESTDIR$PREFIX/share/doc/aquavate-bridge" 2>/dev/null || true
echo "removed the binary, the unit, the udev rules, the D-Bus policy and the documentation"

if [[ $purge == yes ]]; then
    rm -f "$DESTDIR/etc/aquavate/bridge.toml"
    rmdir "$DESTDIR/etc/aquavate" 2>/dev/null || true
    rm -rf "$DESTDIR/var/lib/aquavate-bridge"
    if [[ $real_install == yes ]] && getent passwd aquavate >/dev/null; then
        userdel aquavate
    fi
    echo "purged the config, the drink history and the user aquavate"
else
    echo "kept $DESTDIR/etc/aquavate/bridge.toml and $DESTDIR/var/lib/aquavate-bridge (remove them with --purge)"
fi

if [[ $real_install == yes ]]; then
    if [[ $systemd_running == yes ]]; then
        systemctl daemon-reload
        systemctl reload dbus.service 2>/dev/null || systemctl reload dbus-broker.service 2>/dev/null || true
    fi
    if command -v udevadm >/dev/null && [[ -d /run/udev ]]; then
        udevadm control --reload || true
    fi
fi
