# shellcheck shell=bash disable=SC2034  # sourced: the variables are the callers'
# The files an installation consists of, by role, as paths in the repository. Sourced by
# scripts/install.sh (install from source) and scripts/build-deb.sh (the Debian package), so the
# two install the same files; each decides where they go on its own system layout.
payload_unit=systemd/aquavate-bridge.service        # the systemd service
payload_udev_rule=udev/90-aquavate-bridge.rules     # starts the service when an adapter appears
payload_dbus_policy=dbus/aquavate-bridge.conf       # lets the user aquavate call BlueZ
payload_config=packaging/bridge.toml                # the default /etc/aquavate/bridge.toml
payload_docs=(docs/raspberry-pi.md)                 # share/doc/aquavate-bridge/

# The unit as installed: its paths rewritten for the binary's PREFIX (the file in the repository
# names /usr/local).  payload_unit_for PREFIX SOURCE_ROOT > FILE
payload_unit_for() {
    sed -e "s#/usr/local/bin/aquavate-bridge#$1/bin/aquavate-bridge#g" \
        -e "s#/usr/local/share/doc/aquavate-bridge#$1/share/doc/aquavate-bridge#g" \
        "$2/$payload_unit"
}
