#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make install / make uninstall into a DESTDIR: the tool, both man pages,
# the bash completion and the netlink spec land under PREFIX; the pages
# render without warnings and man finds them; the installed completion
# loads in bash and completes 'cacheprobe-run ru' to run; uninstall removes
# every file again.  With an installed kernel's build tree (the first
# tests/guest/kernels.sh lists), make install KVER= KDIR= also builds the
# module for that kernel and puts it in DESTDIR/lib/modules/KVER/extra/,
# and uninstall removes it.  Prints "PASS name" / "FAIL name: why" lines.
#
# Usage: install.sh [WORKDIR]   (default: a temporary directory)
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
failed=0
prefix=/opt/cacheprobe

pass() { echo "PASS $*"; }
fail() { echo "FAIL $*"; failed=1; }

if [ -n "${1:-}" ]; then
	work=$1
	rm -rf "$work"
	mkdir -p "$work"
else
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
fi
dest="$work/root"
root="$dest$prefix"
files=(bin/cacheprobe-run share/man/man1/cacheprobe-run.1
	share/man/man4/cacheprobe.4
	share/bash-completion/completions/cacheprobe-run
	share/cacheprobe/cacheprobe.yaml)

# No kernel build tree: the module is not part of this test.
make_args=(-C "$top" DESTDIR="$dest" PREFIX="$prefix" KDIR="$work/no-kdir")
if ! make "${make_args[@]}" install >"$work/install.log" 2>&1; then
	fail "install: make install failed: $(tail -n 1 "$work/install.log")"
	exit 1
fi
missing=
for f in "${files[@]}"; do
	[ -s "$root/$f" ] || missing+=" $f"
done
if [ -z "$missing" ] && [ -x "$root/bin/cacheprobe-run" ]; then
	pass "install-files (${#files[@]} files under DESTDIR/PREFIX)"
else
	fail "install-files: missing under $prefix:$missing"
fi

version=$("$root/bin/cacheprobe-run" --version 2>&1)
if [ "$version" = "cacheprobe-run $(cat "$top/VERSION")" ]; then
	pass "install-binary-runs ($version)"
else
	fail "install-binary-runs: --version said '$version'"
fi

for page in man1/cacheprobe-run.1 man4/cacheprobe.4; do
	name=${page##*/}
	src="$root/share/man/$page"
	warnings=$(groff -ww -z -man "$src" 2>&1)
	rendered=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$src" 2>"$work/man.err")
	title=${name%.*}
	title=${title^^}
	if [ -n "$warnings" ] || [ -s "$work/man.err" ]; then
		fail "man-renders $name: $warnings $(head -n 3 "$work/man.err")"
	elif ! grep -q "^$title(${name##*.})" <<<"$rendered" ||
		! grep -q '^NAME' <<<"$rendered"; then
		fail "man-renders $name: no $title(${name##*.}) header or NAME section"
	else
		pass "man-renders $name ($(wc -l <<<"$rendered") lines, no warnings)"
	fi
	found=$(MANPATH="$root/share/man" man -w "${name##*.}" "${name%.*}" 2>&1)
	if [ "$found" = "$src" ]; then
		pass "man-finds $name"
	else
		fail "man-finds $name: man -w said '$found'"
	fi
done

completed=$(PATH="$root/bin:$PATH" bash --norc --noprofile -c '
	source "$1" || exit 1
	complete -p cacheprobe-run >/dev/null || exit 1
	COMP_WORDS=(cacheprobe-run ru)
	COMP_CWORD=1
	_cacheprobe_run
	echo "${COMPREPLY[*]}"' _ \
	"$root/share/bash-completion/completions/cacheprobe-run" 2>&1)
if [ "$completed" = run ]; then
	pass "completion-installed: 'cacheprobe-run ru' completes to run"
else
	fail "completion-installed: 'cacheprobe-run ru' gave '$completed'"
fi

# make install KVER= KDIR= with a real build tree, in a copy of the sources
# so that no module or object is left in this tree.
install_module() {
	local kline label kver kdir src="$work/src" mdest="$work/module-root"
	local ko vermagic missing= f
	local -a args
	kline=$("$top/tests/guest/kernels.sh" 2>/dev/null | head -n 1)
	if [ -z "$kline" ]; then
		fail "install-module: no installed kernel with headers (tests/guest/kernels.sh)"
		return
	fi
	read -r label kver _ kdir <<<"$kline"
	mkdir -p "$src/kmod"
	cp -a "$top/Makefile" "$top/VERSION" "$top/dkms.conf" "$top/include" \
		"$top/user" "$src/"
	cp -a "$top"/kmod/Kbuild "$top"/kmod/Makefile "$top"/kmod/*.[ch] \
		"$src/kmod/"
	args=(-C "$src" DESTDIR="$mdest" PREFIX="$prefix" KVER="$kver"
	      KDIR="$kdir")
	if ! make "${args[@]}" install >"$work/install-module.log" 2>&1; then
		fail "install-module [$label]: make install failed: $(tail -n 1 "$work/install-module.log")"
		rm -rf "$src" "$mdest"
		return
	fi
	ko="$mdest/lib/modules/$kver/extra/cacheprobe.ko"
	vermagic=$(modinfo -F vermagic "$ko" 2>/dev/null)
	for f in "${files[@]}"; do
		[ -s "$mdest$prefix/$f" ] || missing+=" $f"
	done
	if [[ $vermagic != "$kver "* ]]; then
		fail "install-module [$label]: no module for $kver at DESTDIR/lib/modules/$kver/extra/cacheprobe.ko (vermagic '$vermagic')"
	elif [ -n "$missing" ]; then
		fail "install-module [$label]: missing beside the module:$missing"
	else
		pass "install-module [$label]: lib/modules/$kver/extra/cacheprobe.ko, the tool and its pages"
	fi
	make "${args[@]}" uninstall >"$work/uninstall-module.log" 2>&1
	if [ -e "$ko" ]; then
		fail "uninstall-module [$label]: $ko left behind"
	else
		pass "uninstall-module [$label]"
	fi
	rm -rf "$src" "$mdest"
}
install_module

if ! make "${make_args[@]}" uninstall >"$work/uninstall.log" 2>&1; then
	fail "uninstall: make uninstall failed: $(tail -n 1 "$work/uninstall.log")"
else
	left=$(find "$root" -type f 2>/dev/null)
	if [ -z "$left" ]; then
		pass "uninstall (every installed file removed)"
	else
		fail "uninstall: left behind: $left"
	fi
fi
exit "$failed"
