# Shared by install.sh and uninstall.sh (sourced, not run): checks PREFIX and DESTDIR, normalises
# them, and sets real_install=yes when the system itself is the target, which needs root.
#   check_destination "installing into the system" "or set DESTDIR=/some/folder to stage the files"
check_destination() {
    [[ "$PREFIX" == /* ]] || fail "PREFIX must be an absolute path, not '$PREFIX'"
    [[ -z "$DESTDIR" || "$DESTDIR" == /* ]] || fail "DESTDIR must be an absolute path, not '$DESTDIR'"
    DESTDIR="${DESTDIR%/}"
    PREFIX="${PREFIX%/}"
    real_install=no
    [[ -z "$DESTDIR" ]] && real_install=yes
    if [[ $real_install == yes && $(id -u) -ne 0 ]]; then
        fail "$1 needs root: run it with sudo ($2)"
    fi
}
