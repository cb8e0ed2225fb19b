#!/usr/bin/env bash
# The release build of the bridge: the one way `make build`, `make deb`, scripts/install.sh and the
# benchmarks build it, so that what is measured is what is installed.
#
#   scripts/release-build.sh [--scratch-path DIR] [--product NAME] [--no-order]
#                                         # default: .build, aquavate-bridge
#
# What the flags are for (CHANGELOG.md, "Performance, pass by pass", says what each bought):
#   -static-stdlib                 the Swift runtime, standard library and Foundation linked in: no
#                                  ~40 MB of shared Swift libraries mapped at every start
#   -function-sections, lld's      every function its own section, and the functions a sync runs
#   --symbol-ordering-file         (packaging/hot-code.order, made by Benchmarks/hot-code.sh) laid
#                                  out first, side by side: the kernel's fault-around then maps the
#                                  code a sync needs, not 64 KiB of cold code around each of it.
#                                  A name the list has and the binary lacks is skipped
#                                  (--no-warn-symbol-ordering), so a stale list costs memory only.
#   -z pack-relative-relocs        the 120,000 relative relocations of a position-independent
#                                  executable as DT_RELR (a few KiB) instead of 2.9 MB of .rela.dyn
#                                  read at every start (glibc ≥ 2.36: Debian 12, Raspberry Pi OS 12)
#   -disable-concrete-type-metadata-mangled-name-accessors
#                                  a generic type's metadata (a Dictionary of a key type, a Set, ...)
#                                  is made by a call that passes its conformances, not from its
#                                  mangled name: from a name, the runtime proves each conformance
#                                  (Key: Hashable, ...) by scanning all ~9,500 conformance records
#                                  of the static binary, ~0.5 M instructions per generic type's
#                                  first use; 18 M of a sync's 195 M instructions
#   -use-ld=lld                    the ordering and the packing need lld (the Swift toolchain ships it); gold, the
#                                  default, has neither
# --no-order leaves the ordering out (how Benchmarks/hot-code.sh builds the binary it profiles is
# the same either way; --no-order is for comparing).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
scratch=.build product=aquavate-bridge order=yes
while [[ $# -gt 0 ]]; do
    case $1 in
        --scratch-path) scratch=$2; shift 2 ;;
        --product) product=$2; shift 2 ;;
        --no-order) order=no; shift ;;
        *) echo "release-build.sh: unknown argument $1 (see its header)" >&2; exit 2 ;;
    esac
done
flags=(-c release --scratch-path "$scratch" --product "$product"
       -Xswiftc -static-stdlib -Xswiftc -Xfrontend -Xswiftc -function-sections -Xswiftc -use-ld=lld
       -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors
       -Xlinker -z -Xlinker pack-relative-relocs)
order_file=$here/packaging/hot-code.order
if [[ $order == yes && -f $order_file ]]; then
    flags+=(-Xlinker "--symbol-ordering-file=$order_file" -Xlinker --no-warn-symbol-ordering)
fi
# The link map (which input section holds each symbol, and its size) is what
# Benchmarks/hot-code.sh reads to leave out of the order the functions that sit in a large section
# with cold code around them (the precompiled standard library's .text, ~1.6 MB in one piece).
case $scratch in /*) map=$scratch/$product.map ;; *) map=$here/$scratch/$product.map ;; esac
flags+=(-Xlinker "-Map=$map")
cd "$here"
# The package manager does not know the link reads the order file: a binary older than the file
# is removed so that it is linked again.
binary=$(swift build "${flags[@]}" --show-bin-path)/$product
if [[ -f $binary && -f $order_file && $order_file -nt $binary ]]; then rm -f "$binary"; fi
swift build "${flags[@]}"
