#!/usr/bin/env bash
# Builds the Debian package aquavate-bridge_<version>_<arch>.deb from a release binary, with
# dpkg's own tools: dpkg-shlibdeps works out Depends: from the libraries the binary links,
# dpkg-gencontrol writes the control file, dpkg-deb builds the archive. Run by `make deb`.
# The libraries loaded with dlopen at first use (libcurl4, libmosquitto1) are not linked, so
# dpkg-shlibdeps cannot see them: packaging/debian/control lists them.
#
#   scripts/build-deb.sh BIN=FILE OUT=FOLDER [SCRATCH=.build]
#
# BIN      the release binary (make build: the Swift runtime linked in, -static-stdlib)
# OUT      where the .deb goes (make deb: dist/); its path is the last line printed
# SCRATCH  the SwiftPM scratch folder of that build: its checkouts hold swift-argument-parser,
#          whose generate-manual tool writes the man page (built here once, offline)
#
# The version is the binary's own (`aquavate-bridge --version`, from BridgeVersion.swift); the
# architecture is this machine's (`dpkg --print-architecture`): build on the Pi for the Pi.
# Needs dpkg-dev and, for the man page, the Swift toolchain; no root (dpkg-deb --root-owner-group).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BIN="" OUT="" SCRATCH=.build
fail() { echo "build-deb.sh: $*" >&2; exit 1; }
for argument in "$@"; do
    case "$argument" in
        BIN=*) BIN="${argument#BIN=}" ;;
        OUT=*) OUT="${argument#OUT=}" ;;
        SCRATCH=*) SCRATCH="${argument#SCRATCH=}" ;;
        -h|--help) sed -n '2,16p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) fail "unknown argument '$argument'; see --help" ;;
    esac
done
[[ -n "$BIN" && -n "$OUT" ]] || fail "give BIN=FILE and OUT=FOLDER (make deb does)"
[[ -x "$BIN" ]] || fail "no binary at $BIN: run 'make build' first"
for tool in dpkg-deb dpkg-shlibdeps dpkg-gencontrol; do
    command -v "$tool" >/dev/null || fail "$tool is missing: sudo apt install dpkg-dev (scripts/install-deps.sh)"
done
[[ "$SCRATCH" == /* ]] || SCRATCH="$here/$SCRATCH"
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
# shellcheck source=scripts/payload.sh
source "$here/scripts/payload.sh"

package=aquavate-bridge
version="$("$BIN" --version)"
[[ "$version" =~ ^[0-9][A-Za-z0-9.+~-]*$ ]] || fail "'$BIN --version' printed '$version', not a version"
arch="$(dpkg --print-architecture)"
# Dates inside the package (changelog, man page, file times) are the last commit's, so that the
# same commit gives the same package.
export SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-$(git -C "$here" log -1 --format=%ct 2>/dev/null || date +%s)}"
commit="$(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo unknown)"

# This system's places for units, udev rules, sysusers.d and tmpfiles.d (Debian 12 keeps units
# and rules in /lib, later releases in /usr/lib); the defaults are Debian 12's.
pkgvar() { pkg-config --variable="$2" "$1" 2>/dev/null || true; }
unitdir="$(pkgvar systemd systemdsystemunitdir)"; unitdir="${unitdir:-/lib/systemd/system}"
udevdir="$(pkgvar udev udevdir)"; udevdir="${udevdir:-/lib/udev}"
sysusersdir="$(pkgvar systemd sysusersdir)"; sysusersdir="${sysusersdir:-/usr/lib/sysusers.d}"
tmpfilesdir="$(pkgvar systemd tmpfilesdir)"; tmpfilesdir="${tmpfilesdir:-/usr/lib/tmpfiles.d}"

work="$SCRATCH/deb"
root="$work/root"
rm -rf "$work"
mkdir -p "$work/debian" "$root/DEBIAN"
docdir="$root/usr/share/doc/$package"
install -d -m 0755 "$root/usr/bin" "$root$unitdir" "$root$udevdir/rules.d" "$root/usr/share/dbus-1/system.d" \
    "$root$sysusersdir" "$root$tmpfilesdir" "$root/etc/aquavate" "$docdir" "$root/usr/share/man/man1" \
    "$root/usr/share/bash-completion/completions" "$root/usr/share/zsh/vendor-completions" \
    "$root/usr/share/fish/vendor_completions.d"

# --- the files of scripts/payload.sh, in Debian's places -------------------------------------
install -m 0755 "$BIN" "$root/usr/bin/$package"
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$root/usr/bin/$package"
payload_unit_for /usr "$here" > "$root$unitdir/$package.service"
chmod 0644 "$root$unitdir/$package.service"
install -m 0644 "$here/$payload_udev_rule" "$root$udevdir/rules.d/$(basename "$payload_udev_rule")"
# Packages put D-Bus policies in /usr/share; /etc/dbus-1/system.d is the administrator's.
install -m 0644 "$here/$payload_dbus_policy" "$root/usr/share/dbus-1/system.d/$(basename "$payload_dbus_policy")"
# 0644 in the archive (the default holds no secret); postinst's stat override makes it
# root:aquavate 0640 before anyone can put a token in it, and dpkg keeps that on upgrades.
install -m 0644 "$here/$payload_config" "$root/etc/aquavate/bridge.toml"
for doc in "${payload_docs[@]}"; do install -m 0644 "$here/$doc" "$docdir/$(basename "$doc")"; done
install -m 0644 "$here/packaging/aquavate-bridge.sysusers" "$root$sysusersdir/$package.conf"
install -m 0644 "$here/packaging/aquavate-bridge.tmpfiles" "$root$tmpfilesdir/$package.conf"
install -m 0644 "$here/packaging/debian/copyright" "$docdir/copyright"

# --- generated from the binary's own command definitions -------------------------------------
# bash-completion sources the file: no #! line (lintian: bash-completion-with-hashbang).
"$BIN" --generate-completion-script bash | sed '1{/^#!/d}' > "$root/usr/share/bash-completion/completions/$package"
"$BIN" --generate-completion-script zsh > "$root/usr/share/zsh/vendor-completions/_$package"
"$BIN" --generate-completion-script fish > "$root/usr/share/fish/vendor_completions.d/$package.fish"
# swift-argument-parser's generate-manual (the tool behind its GenerateManual plugin, built alone:
# the plugin would rebuild every product of the package) reads `--experimental-dump-help`.
parser="$SCRATCH/checkouts/swift-argument-parser"
[[ -f "$parser/Package.swift" ]] || fail "no swift-argument-parser checkout in $SCRATCH/checkouts: give the SCRATCH of the release build"
swift build --package-path "$parser" --scratch-path "$SCRATCH/tools" --product generate-manual >&2 \
    || fail "could not build swift-argument-parser's generate-manual"
mkdir -p "$work/man"
"$SCRATCH/tools/debug/generate-manual" "$BIN" --output-directory "$work/man" \
    --date "$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%d)" --section 1 \
    --authors "the aquavate-bridge authors" >&2
[[ -f "$work/man/$package.1" ]] || fail "generate-manual wrote no $package.1"
# generate-manual leaves the blank lines of the help's paragraphs in the mdoc, which groff warns
# about; a paragraph macro says the same.
sed 's/^$/.Pp/' "$work/man/$package.1" | gzip -9n > "$root/usr/share/man/man1/$package.1.gz"
chmod 0644 "$root"/usr/share/man/man1/* "$root"/usr/share/*/*completion*/* "$root"/usr/share/fish/vendor_completions.d/*

# --- changelog, maintainer scripts, control --------------------------------------------------
maintainer="$(sed -n 's/^Maintainer: //p' "$here/packaging/debian/control")"
cat > "$work/debian/changelog" <<CHANGELOG
$package ($version) unstable; urgency=medium

  * Built with make deb from commit $commit.

 -- $maintainer  $(date -u -R -d "@$SOURCE_DATE_EPOCH")
CHANGELOG
gzip -9n < "$work/debian/changelog" > "$docdir/changelog.gz"
cp "$here/packaging/debian/control" "$work/debian/control"
for script in preinst postinst prerm postrm; do
    install -m 0755 "$here/packaging/debian/$script" "$root/DEBIAN/$script"
done
echo /etc/aquavate/bridge.toml > "$root/DEBIAN/conffiles"
chmod 0644 "$root/DEBIAN/conffiles"

(cd "$work" && dpkg-shlibdeps -Tdebian/substvars "root/usr/bin/$package")
(cd "$work" && dpkg-gencontrol -p"$package" -v"$version" -Tdebian/substvars -Vmisc:Depends= -Proot -DArchitecture="$arch")
(cd "$root" && find . -type f ! -path './DEBIAN/*' -printf '%P\0' | sort -z | xargs -0 md5sum > DEBIAN/md5sums)
chmod 0644 "$root/DEBIAN/md5sums"
find "$root" -depth -newermt "@$SOURCE_DATE_EPOCH" -print0 | xargs -0r touch --no-dereference --date="@$SOURCE_DATE_EPOCH"

deb="$OUT/${package}_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >&2
echo "$deb"
