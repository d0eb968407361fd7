#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The module and the uAPI header in kernel style, with the kernel's own
# scripts from Debian's linux-source-6.12 package:
#   - kernel-doc -Wall finds every command, attribute, field and function
#     it looks at documented (no warning at all);
#   - checkpatch.pl --strict finds nothing (no error, warning or check);
#   - both catch a planted fault (an undocumented struct member, an
#     indented line), so neither check passes by saying nothing.
# Prints "PASS name" / "FAIL name: why" lines; exits 1 on any failure.
#
# Usage: kernel-style.sh [WORKDIR]   (default: a temporary directory)
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
source_pkg=linux-source-6.12
failed=0

pass() { echo "PASS $*"; }
fail() { echo "FAIL $*"; failed=1; }

if [ -n "${1:-}" ]; then
	work=$1
	mkdir -p "$work"
else
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
fi

tarball=$(dpkg-query -L "$source_pkg" 2>/dev/null |
	grep -E '/linux-source-[^/]*\.tar\.(xz|bz2|gz)$' | head -n 1)
if [ -z "$tarball" ] || [ ! -f "$tarball" ]; then
	fail "kernel-style-tools: no kernel source tarball from $source_pkg (user/scripts/deps.sh test)"
	exit 1
fi
tree_name=$(basename "$tarball")
tree_name=${tree_name%.tar.*}
if ! tar -xf "$tarball" -C "$work" "$tree_name/scripts/checkpatch.pl" \
	"$tree_name/scripts/spelling.txt" \
	"$tree_name/scripts/const_structs.checkpatch" \
	"$tree_name/scripts/kernel-doc" 2>"$work/tar.log"; then
	fail "kernel-style-tools: extracting the scripts from $tarball: $(head -n 1 "$work/tar.log")"
	exit 1
fi
scripts="$work/$tree_name/scripts"

cd "$top" || exit 1
sources=(include/uapi/linux/cacheprobe.h kmod/*.c kmod/*.h)

# kernel_doc FILE...: its warnings, one per line (none: empty).
kernel_doc() {
	perl "$scripts/kernel-doc" -Wall -none "$@" 2>&1
}

# checkpatch FILE...: its findings (none: empty).
checkpatch() {
	perl "$scripts/checkpatch.pl" --no-tree --strict --terse \
		--show-types -f "$@" 2>&1 | grep -v '^total: '
}

warnings=$(kernel_doc "${sources[@]}")
if [ -z "$warnings" ]; then
	pass "kernel-doc: the header and the module, ${#sources[@]} files, no warning"
else
	fail "kernel-doc: $(echo "$warnings" | head -n 3 | tr '\n' ' ')"
fi

findings=$(checkpatch "${sources[@]}")
if [ -z "$findings" ]; then
	pass "checkpatch --strict: the header and the module, no finding"
else
	fail "checkpatch --strict: $(echo "$findings" | head -n 3 | tr '\n' ' ')"
fi

printf '/**\n * struct planted - a member left out\n * @a: described\n */\nstruct planted {\n\tint a;\n\tint b;\n};\n' \
	>"$work/planted.h"
if kernel_doc "$work/planted.h" | grep -q "'b' not described"; then
	pass "kernel-doc: catches an undocumented member"
else
	fail "kernel-doc: an undocumented member went unnoticed"
fi
printf '// SPDX-License-Identifier: GPL-2.0\nstatic int planted(void)\n{\n    return 1;\n}\n' \
	>"$work/planted.c"
if [ -n "$(checkpatch "$work/planted.c")" ]; then
	pass "checkpatch: catches a space-indented line"
else
	fail "checkpatch: a space-indented line went unnoticed"
fi
exit "$failed"
