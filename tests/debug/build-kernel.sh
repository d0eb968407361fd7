#!/usr/bin/env bash
# Builds the debug kernel of `make check-debug`:
#
#   tests/debug/build-kernel.sh OUTDIR
#
# Debian's linux-source-6.12 tarball is unpacked into OUTDIR/src and built
# out of tree in OUTDIR/build from `make tinyconfig` plus
# tests/debug/debug.config (KASAN, lockdep, DEBUG_ATOMIC_SLEEP,
# DEBUG_PREEMPT, kmemleak and only what the test guests need), at the
# lowest priority with two jobs: the machine is shared.
#
# On success prints one line, "VERSION BZIMAGE BUILD_DIR" (BUILD_DIR is the
# tree to build modules against).  The result is kept: when the tarball's
# package version, the fragment and the compiler are the same as last time,
# nothing is rebuilt.  Progress goes to stderr, make's output to
# OUTDIR/build.log.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
prog=${0##*/}
package=linux-source-6.12

die() {
	echo "$prog: $*" >&2
	exit 1
}

if [[ $# -ne 1 ]]; then
	echo "usage: $prog OUTDIR" >&2
	exit 2
fi
mkdir -p "$1"
out=$(cd "$1" && pwd)
fragment=$here/debug.config
src_root=$out/src
build=$out/build
log=$out/build.log

"$here/../../user/scripts/deps.sh" debug >&2 ||
	die "could not install the kernel build dependencies"
tarball=$(dpkg -L "$package" | grep -E "/$package\.tar\.(xz|bz2|gz)$" | head -n 1)
[[ -f $tarball ]] || die "$package installed but its tarball not found"
pkg_version=$(dpkg-query -W -f='${Version}' "$package")

# What the kernel depends on; a change in any of these rebuilds it.
key=$({
	echo "$package $pkg_version"
	gcc --version | head -n 1
	cat "$fragment"
} | sha256sum | cut -d' ' -f1)

bzimage=$build/arch/x86/boot/bzImage
if [[ -f $out/kernel.key && $(cat "$out/kernel.key") == "$key" &&
	-f $bzimage && -f $build/Module.symvers ]]; then
	echo "$prog: $package $pkg_version already built (cached in $out)" >&2
	echo "$(cat "$build/include/config/kernel.release") $bzimage $build"
	exit 0
fi
rm -f "$out/kernel.key"

start=$(date +%s)
if [[ ! -f $src_root/unpacked || $(cat "$src_root/unpacked") != "$pkg_version" ]]; then
	echo "$prog: unpacking $tarball" >&2
	rm -rf "$src_root"
	mkdir -p "$src_root"
	tar -xf "$tarball" -C "$src_root"
	echo "$pkg_version" >"$src_root/unpacked"
fi
src=$(find "$src_root" -mindepth 2 -maxdepth 2 -name Makefile -printf '%h\n' | head -n 1)
[[ -n $src ]] || die "no kernel tree in $tarball"

rm -rf "$build"
mkdir -p "$build"
kmake() {
	nice -n 19 make -C "$src" O="$build" "$@" >>"$log" 2>&1
}
: >"$log"
echo "$prog: configuring (tinyconfig + ${fragment##*/})" >&2
kmake tinyconfig || die "make tinyconfig failed; see $log"
"$src/scripts/kconfig/merge_config.sh" -m -O "$build" "$build/.config" \
	"$fragment" >>"$log" 2>&1 || die "merging ${fragment##*/} failed; see $log"
kmake olddefconfig || die "make olddefconfig failed; see $log"

# Kconfig drops an option whose dependencies are unmet without a word;
# a debug kernel missing KASAN would pass everything and prove nothing.
dropped=0
while IFS= read -r line; do
	if [[ $line =~ ^(CONFIG_[A-Z0-9_]+)=(.*)$ ]]; then
		grep -qxF -- "$line" "$build/.config" && continue
	elif [[ $line =~ ^#\ (CONFIG_[A-Z0-9_]+)\ is\ not\ set$ ]]; then
		! grep -q "^${BASH_REMATCH[1]}=" "$build/.config" && continue
	else
		continue
	fi
	echo "$prog: ${fragment##*/}: '$line' did not survive olddefconfig" >&2
	dropped=1
done <"$fragment"
[[ $dropped == 0 ]] || die "the debug config is incomplete"

echo "$prog: building $(make -s -C "$src" kernelversion) (log: $log)" >&2
kmake -j2 || die "kernel build failed; see $log"
echo "$prog: built in $(($(date +%s) - start)) s" >&2
echo "$key" >"$out/kernel.key"
echo "$(cat "$build/include/config/kernel.release") $bzimage $build"
