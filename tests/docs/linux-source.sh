# SPDX-License-Identifier: GPL-2.0
# Sourced by the tests/docs scripts that use the kernel's own tools from
# Debian's linux-source-6.12 package: PASS/FAIL lines, a work directory,
# and files of the source tree extracted into it.

failed=0
pass() { echo "PASS $*"; }
fail() { echo "FAIL $*"; failed=1; }

# docs_workdir [DIR]: $work is DIR (made), or a temporary directory removed
# on exit.
docs_workdir() {
	if [ -n "${1:-}" ]; then
		work=$1
		mkdir -p "$work"
	else
		work=$(mktemp -d)
		trap 'rm -rf "$work"' EXIT
	fi
}

# docs_linux_source CHECK PATH...: extract PATHs (relative to the tree) of
# the package's tarball into $work; $tree_name and $tree name the tree.
# On failure a "FAIL CHECK: why" line and status 1.
docs_linux_source() {
	local check=$1 tarball
	shift
	tarball=$(dpkg-query -L linux-source-6.12 2>/dev/null |
		grep -E '/linux-source-[^/]*\.tar\.(xz|bz2|gz)$' | head -n 1)
	if [ -z "$tarball" ] || [ ! -f "$tarball" ]; then
		fail "$check: no kernel source tarball from linux-source-6.12 (user/scripts/deps.sh test)"
		return 1
	fi
	tree_name=$(basename "$tarball")
	tree_name=${tree_name%.tar.*}
	tree="$work/$tree_name"
	if ! tar -xf "$tarball" -C "$work" "${@/#/$tree_name/}" \
		2>"$work/tar.log"; then
		fail "$check: extracting from $tarball: $(head -n 1 "$work/tar.log")"
		return 1
	fi
}
