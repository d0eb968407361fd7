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
. "$top/tests/docs/linux-source.sh"

docs_workdir "${1:-}"
docs_linux_source kernel-style-tools scripts/checkpatch.pl \
	scripts/spelling.txt scripts/const_structs.checkpatch \
	scripts/kernel-doc || exit 1
scripts="$tree/scripts"

cd "$top" || exit 1
sources=(include/uapi/linux/cacheprobe.h include/measure/*.h kmod/*.c kmod/*.h)

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
	pass "kernel-doc: the headers and the module, ${#sources[@]} files, no warning"
else
	fail "kernel-doc: $(echo "$warnings" | head -n 3 | tr '\n' ' ')"
fi

findings=$(checkpatch "${sources[@]}")
if [ -z "$findings" ]; then
	pass "checkpatch --strict: the headers and the module, no finding"
else
	fail "checkpatch --strict: $(echo "$findings" | head -n 3 | tr '\n' ' ')"
fi

printf '/**\n * struct planted - a member left out\n * @a: described\n */\nstruct planted {\n\tint a;\n\tint b;\n};\n' \
	>"$work/planted.h"
planted_warnings=$(kernel_doc "$work/planted.h")
if [[ $planted_warnings == *"'b' not described"* ]]; then
	pass "kernel-doc: catches an undocumented member"
else
	fail "kernel-doc: an undocumented member went unnoticed"
fi
printf '// SPDX-License-Identifier: GPL-2.0\nstatic int planted(void)\n{\n    return 1;\n}\n' \
	>"$work/planted.c"
planted_findings=$(checkpatch "$work/planted.c")
if [[ $planted_findings == *":4: WARNING:LEADING_SPACE:"* ]]; then
	pass "checkpatch: catches a space-indented line"
else
	fail "checkpatch: a space-indented line went unnoticed"
fi
exit "$failed"
