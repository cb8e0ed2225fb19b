#!/usr/bin/env bash
# Installs the Debian packages aquavate-bridge needs to build, test and run (run as root).
# The Swift toolchain itself (6.x) must already be on the PATH: https://www.swift.org/install/
# systemd (systemd-analyze), udev (udevadm), util-linux (unshare, setpriv), passwd (useradd) and
# make are for the installation tests (Tests/InstallTests), which run as root.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends \
    pkg-config libsqlite3-dev \
    libdbus-1-dev dbus-daemon \
    libbluetooth-dev \
    libmosquitto-dev mosquitto \
    python3 python3-venv python3-dbus python3-dbusmock \
    systemd udev util-linux passwd make
