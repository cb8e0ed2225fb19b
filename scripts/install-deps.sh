#!/usr/bin/env bash
# Installs the Debian packages aquavate-bridge needs to build, test and run (run as root).
# The Swift toolchain itself (6.x) must already be on the PATH: https://www.swift.org/install/
# libsystemd-dev: sd_notify and sd_watchdog_enabled (the daemon is a Type=notify service with a watchdog).
# libcurl4-openssl-dev: curl.h for CCurlLoader (HTTP push loads libcurl.so.4 with dlopen at its first
# notification; the package depends on libcurl4).
# libmosquitto-dev: mosquitto.h for CMosquittoLoader (MQTT loads libmosquitto.so.1 with dlopen at its
# first client; the package depends on libmosquitto1). mosquitto: the broker of the MQTT tests.
# For the installation tests (Tests/InstallTests, run as root): systemd (systemd-analyze), udev
# (udevadm), util-linux and mount (unshare, setpriv, mount), passwd (useradd), make, dbus-bin
# (dbus-send) and libglib2.0-bin (gdbus). time (GNU time): the liveness tests measure a run's CPU and peak memory.
# strace: the unit test that sees which nice values libdispatch asks for and whether it writes to syslog.
# For `make deb` and its test (Tests/InstallTests/DebianPackageTests.swift): dpkg-dev (dpkg-shlibdeps,
# dpkg-gencontrol), binutils (strip), init-system-helpers (deb-systemd-helper), lintian, and
# debootstrap with ca-certificates (the test installs the package into a fresh Debian root made
# from deb.debian.org).
# For the web dashboard's tests and benchmark (Tests/WebTests, the browser suites of Tests/EndToEndTests, Benchmarks/web.sh): chromium and
# chromium-driver (a real headless browser driven over WebDriver), wrk (100 concurrent clients);
# zlib1g-dev: zlib.h for compress-nio (the web server gzips its answers; the package depends on zlib1g).
# For the real-BlueZ test bed (scripts/real-bluez, Tests/InstallTests/RealBlueZTests.swift): qemu-system-x86
# and qemu-utils (the VM, emulated CPU), cpio (its root as an initramfs); debootstrap and python3-venv
# (the host's pip that downloads Bumble's wheels for the guest) are listed above.
set -euo pipefail
packages=(
    pkg-config libsqlite3-dev
    libdbus-1-dev dbus-daemon
    libbluetooth-dev libsystemd-dev
    libmosquitto-dev mosquitto
    python3 python3-venv python3-dbus python3-dbusmock
    libcurl4-openssl-dev
    systemd udev util-linux mount passwd make dbus-bin libglib2.0-bin
    time strace
    dpkg-dev binutils init-system-helpers lintian debootstrap ca-certificates
    chromium chromium-driver wrk zlib1g-dev
    qemu-system-x86 qemu-utils cpio
)
# `--list` prints the packages (for .ci/run), one line.
if [ "${1:-}" = "--list" ]; then echo "${packages[*]}"; exit 0; fi
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends "${packages[@]}"
